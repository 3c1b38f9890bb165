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

// process_chunk's state: the parts waiting to be tagged, the writer and the numbering.
class ChunkProcessor {
 public:
  ChunkProcessor(Chunk& chunk, const ChunkTagging& tagging)
      : chunk_(chunk), tagging_(tagging), writer_(make_output_writer(out_, tagging.output)) {}

  void run() {
    for (Piece& piece : chunk_.pieces) {
      if (piece.kind != Piece::Kind::paragraph) {
        add(Part{&piece, std::move(piece.sentences), 0}, 0);
        continue;
      }
      const std::string& text = piece.paragraph.text;
      std::size_t begin = 0;
      do {
        TokenizedPart tokenized =
            tagging_.tokenizer->tokenize_part(text, begin, kPartBytes, run_tasks());
        add(Part{&piece, std::move(tokenized.sentences), tokenized.end}, tokenized.end - begin);
        begin = tokenized.end;
      } while (begin < text.size());
    }
    publish_counts();
    flush();
    chunk_.pieces = {};  // the input is done with; only the output waits to be written
    chunk_.output = out_.str();
  }

  // Lets the chunks after this one go on when this one fails.
  void fail(std::exception_ptr error) {
    if (chunk_.before.valid() && !published_) chunk_.after.set_exception(error);
  }

 private:
  void add(Part part, std::size_t bytes) {
    const bool numbered = part.piece->kind == Piece::Kind::paragraph || part.piece->numbered;
    chunk_.sentences += part.sentences.size();
    if (numbered) numbered_ += part.sentences.size();
    parts_.push_back(std::move(part));
    parts_bytes_ += bytes;
    if (parts_bytes_ >= kPartBytes) flush();
  }

  // Once every sentence of the chunk is tokenized, the chunks after it may number theirs.
  void publish_counts() {
    if (!chunk_.before.valid()) return;
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

  // Tags the parts waiting, formats them and frees them.
  void flush() {
    if (parts_.empty()) return;
    std::vector<std::vector<std::string>> forms;
    for (const Part& part : parts_) {
      for (const Sentence& sentence : part.sentences) forms.push_back(word_forms(sentence));
    }
    std::vector<TagResult> results = tag(forms);
    auto next = results.begin();
    for (Part& part : parts_) {
      const auto end = next + static_cast<std::ptrdiff_t>(part.sentences.size());
      std::vector<TagResult> part_results(std::make_move_iterator(next),
                                          std::make_move_iterator(end));
      next = end;
      write(part, part_results);
    }
    parts_.clear();
    parts_bytes_ = 0;
  }

  // Tags `sentences` a batch (TagOptions::batch_words) at a time, the batches, and the windows
  // of a sentence longer than the model's window, shared with the pool's threads that come
  // free (sawtag/tag_in_tasks.hpp). Tags do not depend on how sentences are batched.
  std::vector<TagResult> tag(const std::vector<std::vector<std::string>>& sentences) const {
    return tag_in_tasks(*tagging_.tagger, sentences, tagging_.tag_options, run_tasks());
  }

  // The pool's run_all, or none without a pool.
  RunTasks run_tasks() const {
    ThreadPool* pool = tagging_.pool;
    if (pool == nullptr) return {};
    return [pool](std::vector<std::function<void()>> tasks) { pool->run_all(std::move(tasks)); };
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
  std::vector<Part> parts_;
  std::size_t parts_bytes_ = 0;
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
