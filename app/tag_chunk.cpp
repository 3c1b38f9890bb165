#include "tag_chunk.hpp"

#include <algorithm>
#include <cassert>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>

#include "sawtag/tag_in_tasks.hpp"

namespace sawtag::cli {
namespace {

// A raw paragraph is tokenized and tagged in parts of about this many bytes, ending where a
// sentence ends (Tokenizer::tokenize_part): a sentence without an end in this many bytes is
// cut in two. Paragraphs are shorter, unless a line is (docs/cli.md, `--input raw`).
constexpr std::size_t kPartBytes = std::size_t{16} << 10;

// The words of one input line: whole sentences, or the part on this line of a sentence that
// runs over several lines (tagged as one sentence, written split). results[p] is of pieces[p].
struct LinePieces {
  std::vector<Sentence> pieces;
  std::vector<TagResult> results;
};

// The line (0-based) that holds byte `offset`, given where each line starts (ascending, from 0).
std::size_t line_of(const std::vector<std::size_t>& line_starts, std::size_t offset) {
  const auto after = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  return after == line_starts.begin() ? 0
                                      : static_cast<std::size_t>(after - line_starts.begin()) - 1;
}

// Splits tagged sentences by the input line where each word's token begins:
// "I saw\nit. Go." -> line 0: "I" "saw" (of sentence 1); line 1: "it" "." (of sentence 1),
// "Go" "." (sentence 2). Lines without words get no pieces. Words and their tags are moved
// out of `sentences` and `results`, which are only fit to be destroyed afterwards.
std::vector<LinePieces> split_by_line(std::vector<Sentence>& sentences,
                                      std::vector<TagResult>& results,
                                      const std::vector<std::size_t>& line_starts) {
  const std::size_t num_lines = line_starts.size();
  std::vector<LinePieces> lines(num_lines);
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    Sentence& sentence = sentences[s];
    assert(sentence.word_spans.size() == sentence.words.size());
    assert(results[s].words.size() == sentence.words.size());
    std::size_t current_line = num_lines;  // none yet
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
      const std::size_t begin = i < sentence.word_spans.size() ? sentence.word_spans[i].begin : 0;
      const std::size_t line = line_of(line_starts, begin);
      if (line != current_line) {
        lines[line].pieces.emplace_back();
        lines[line].results.emplace_back();
        current_line = line;
      }
      lines[line].pieces.back().words.push_back(std::move(sentence.words[i]));
      if (i < results[s].words.size()) {
        lines[line].results.back().words.push_back(std::move(results[s].words[i]));
      }
    }
  }
  return lines;
}

std::vector<TaggedSentence> tagged_of(const std::vector<Sentence>& sentences,
                                      const std::vector<TagResult>& results) {
  std::vector<TaggedSentence> tagged(sentences.size());
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    tagged[s] = TaggedSentence{&sentences[s], &results[s]};
  }
  return tagged;
}

// Sentences tokenized and not yet tagged: a whole piece, or a part of a long raw paragraph.
struct Part {
  Piece* piece = nullptr;
  std::vector<Sentence> sentences;
  std::size_t end = 0;  // Kind::paragraph: where in its text the next part begins
};

// Parts tagged together: about kPartBytes of input, or what there is.
struct Group {
  std::vector<Part> parts;
  std::vector<std::vector<std::string>> forms;  // the word forms of every sentence of parts
  std::vector<TagResult> results;               // once tagged, forms[i]'s in results[i]
};

// process_chunk's state: where tokenizing has got to, the writer and the numbering.
//
// A chunk is tokenized, tagged and written a group of parts at a time, and with a pool the
// three overlap: while group k is tagged, group k + 1 is tokenized and group k - 1 written, in
// the same ThreadPool::run_all (a long line is one chunk; its steps would otherwise leave all
// threads but one idle between them: tokenizing a part is serial but for its character
// model's windows, writing wholly so). Each step runs on one thread at a time and in order
// (tokenize k + 1 after k, write k after k - 1), so the output is what the steps in turn give.
class ChunkProcessor {
 public:
  ChunkProcessor(Chunk& chunk, const ChunkTagging& tagging)
      : chunk_(chunk), tagging_(tagging), writer_(make_output_writer(out_, tagging.output)) {}

  void run() {
    Group tagging = next_group();
    Group writing;
    while (!tagging.parts.empty()) {
      if (all_tokenized()) publish_counts();
      Group next;
      std::vector<std::function<void()>> others;
      if (!all_tokenized()) others.emplace_back([this, &next] { next = next_group(); });
      if (!writing.parts.empty()) {
        // Waited for here, not on whichever thread writes (the chunk before may still be
        // tokenizing).
        if (tagging_.numbers_shown) counts_before();
        others.emplace_back([this, &writing] { write(writing); });
      }
      tagging.results = tag(tagging.forms, std::move(others));
      writing = std::move(tagging);
      tagging = std::move(next);
    }
    publish_counts();
    write(writing);
    chunk_.pieces = {};  // the input is done with; only the output waits to be written
    chunk_.output = out_.str();
  }

  // Lets the chunks after this one go on when this one fails.
  void fail(std::exception_ptr error) {
    if (chunk_.before.valid() && !published_) chunk_.after.set_exception(error);
  }

 private:
  bool all_tokenized() const { return next_piece_ == chunk_.pieces.size(); }

  // Tokenizes the parts after the last group's, until they hold kPartBytes of input or the
  // chunk ends, and takes their word forms.
  Group next_group() {
    Group group;
    std::size_t bytes = 0;
    while (!all_tokenized() && bytes < kPartBytes) {
      Piece& piece = chunk_.pieces[next_piece_];
      if (piece.kind != Piece::Kind::paragraph) {
        add(group, Part{&piece, std::move(piece.sentences), 0});
        ++next_piece_;
        continue;
      }
      const std::string& text = piece.paragraph.text;
      TokenizedPart tokenized =
          tagging_.tokenizer->tokenize_part(text, next_begin_, kPartBytes, run_tasks());
      bytes += tokenized.end - next_begin_;
      add(group, Part{&piece, std::move(tokenized.sentences), tokenized.end});
      next_begin_ = tokenized.end;
      if (next_begin_ >= text.size()) {
        ++next_piece_;
        next_begin_ = 0;
      }
    }
    for (const Part& part : group.parts) {
      for (const Sentence& sentence : part.sentences) group.forms.push_back(word_forms(sentence));
    }
    return group;
  }

  void add(Group& group, Part part) {
    const bool numbered = part.piece->kind == Piece::Kind::paragraph || part.piece->numbered;
    chunk_.sentences += part.sentences.size();
    if (numbered) numbered_ += part.sentences.size();
    group.parts.push_back(std::move(part));
  }

  // Once every sentence of the chunk is tokenized, the chunks after it may number theirs.
  void publish_counts() {
    if (!chunk_.before.valid() || published_) return;
    const SentenceCounts& before = counts_before();
    chunk_.after.set_value(
        SentenceCounts{before.numbered + numbered_, before.all + chunk_.sentences});
    published_ = true;
  }

  // Waits for the chunk before this one to be tokenized, the first time.
  const SentenceCounts& counts_before() {
    if (!before_) {
      before_ = chunk_.before.get();
      next_sentence_id_ = before_->numbered + 1;
      writer_->continue_after(before_->all);
    }
    return *before_;
  }

  // Tags `sentences` a batch (TagOptions::batch_words) at a time, the batches, and the windows
  // of a sentence longer than the model's window, shared with the pool's threads that come
  // free (sawtag/tag_in_tasks.hpp); `others` run meanwhile, as tasks of the same run_all, or
  // before the tagging without a pool. Tags do not depend on how sentences are batched.
  std::vector<TagResult> tag(const std::vector<std::vector<std::string>>& sentences,
                             std::vector<std::function<void()>> others) const {
    ThreadPool* pool = tagging_.pool;
    if (pool == nullptr) {
      for (const std::function<void()>& task : others) task();
      return tag_in_tasks(*tagging_.tagger, sentences, tagging_.tag_options, RunTasks());
    }
    // tag_in_tasks runs its tasks in one call (even none). The others go first: tokenizing
    // the next group is the longest task, and it hands its character model's windows to the
    // threads that come free.
    const RunTasks with_others = [pool, &others](std::vector<std::function<void()>> tasks) {
      tasks.insert(tasks.begin(), std::make_move_iterator(others.begin()),
                   std::make_move_iterator(others.end()));
      others.clear();
      pool->run_all(std::move(tasks));
    };
    std::vector<TagResult> results =
        tag_in_tasks(*tagging_.tagger, sentences, tagging_.tag_options, with_others);
    assert(others.empty());
    return results;
  }

  // The pool's run_all, or none without a pool.
  RunTasks run_tasks() const {
    ThreadPool* pool = tagging_.pool;
    if (pool == nullptr) return {};
    return [pool](std::vector<std::function<void()>> tasks) { pool->run_all(std::move(tasks)); };
  }

  // Formats a tagged group and frees it.
  void write(Group& group) {
    auto next = group.results.begin();
    for (Part& part : group.parts) {
      const auto end = next + static_cast<std::ptrdiff_t>(part.sentences.size());
      std::vector<TagResult> part_results(std::make_move_iterator(next),
                                          std::make_move_iterator(end));
      next = end;
      write(part, part_results);
    }
    group = Group();
  }

  void write(Part& part, std::vector<TagResult>& results) {
    Piece& piece = *part.piece;
    std::vector<Sentence>& sentences = part.sentences;
    for (const Sentence& sentence : sentences) chunk_.words += sentence.words.size();
    if (tagging_.numbers_shown) {
      counts_before();
      if (piece.kind == Piece::Kind::paragraph || piece.numbered) {
        for (Sentence& sentence : sentences) number(sentence);
      }
    }
    if (piece.after_blank && !sentences.empty()) {
      sentences.front().comments.insert(sentences.front().comments.begin(), "# newpar");
      piece.after_blank = false;
    }
    if (tagging_.attention != nullptr) {
      for (std::size_t s = 0; s < sentences.size(); ++s) {
        tagging_.attention->write(sentences[s], results[s]);
      }
    }
    const OutputFormat format = tagging_.output.format;
    const bool by_input_line = piece.kind == Piece::Kind::paragraph &&
                               (format == OutputFormat::text || format == OutputFormat::tsv);
    if (!by_input_line) {
      writer_->write_line(tagged_of(sentences, results));
      return;
    }
    // text and tsv: one output line per input line. A line that goes on in the next part is
    // ended there.
    const std::vector<std::size_t>& line_starts = piece.paragraph.line_starts;
    const bool last_part = part.end >= piece.paragraph.text.size();
    const std::size_t lines_ended = last_part ? line_starts.size() : line_of(line_starts, part.end);
    const std::vector<LinePieces> lines = split_by_line(sentences, results, line_starts);
    sentences.clear();
    results.clear();
    for (std::size_t line = piece.lines_written; line < lines_ended; ++line) {
      writer_->write_line(tagged_of(lines[line].pieces, lines[line].results));
    }
    if (!last_part) {
      writer_->continue_line(tagged_of(lines[lines_ended].pieces, lines[lines_ended].results));
    }
    piece.lines_written = lines_ended;
  }

  // "# sent_id = N" before "# text", after "# newpar".
  void number(Sentence& sentence) {
    auto position = sentence.comments.begin();
    if (position != sentence.comments.end() && position->rfind("# newpar", 0) == 0) ++position;
    sentence.comments.insert(position, "# sent_id = " + std::to_string(next_sentence_id_++));
  }

  Chunk& chunk_;
  const ChunkTagging& tagging_;
  std::ostringstream out_;
  std::unique_ptr<OutputWriter> writer_;
  std::size_t next_piece_ = 0;  // the piece, and where in its text, the next group begins
  std::size_t next_begin_ = 0;
  std::size_t numbered_ = 0;  // sentences of this chunk given a "# sent_id"
  bool published_ = false;
  std::optional<SentenceCounts> before_;
  std::size_t next_sentence_id_ = 1;
};

}  // namespace

void process_chunk(Chunk& chunk, const ChunkTagging& tagging) {
  ChunkProcessor processor(chunk, tagging);
  try {
    processor.run();
  } catch (...) {
    processor.fail(std::current_exception());
    throw;
  }
}

}  // namespace sawtag::cli
