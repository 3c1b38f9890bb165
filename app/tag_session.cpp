#include "tag_session.hpp"

#include <algorithm>
#include <cassert>
#include <istream>

#include "sawtag/conllu.hpp"
#include "tokenized_line.hpp"

namespace sawtag::cli {
namespace {

std::vector<std::string> forms_of(const Sentence& sentence) {
  std::vector<std::string> forms;
  forms.reserve(sentence.words.size());
  for (const Word& word : sentence.words) forms.push_back(word.form);
  return forms;
}

// A raw paragraph is read whole, so that a sentence may continue on the next line. To keep
// memory bounded it also ends after kMaxParagraphLines lines, or at the end of the line that
// brings it to kMaxParagraphBytes bytes; a sentence that runs across that point is cut in two
// there (README.md, `--input raw`).
constexpr std::size_t kMaxParagraphLines = 1000;
constexpr std::size_t kMaxParagraphBytes = std::size_t{16} << 10;

// The words of one input line: whole sentences, or the part on this line of a sentence that
// runs over several lines (tagged as one sentence, written split). results[p] is of pieces[p].
struct LinePieces {
  std::vector<Sentence> pieces;
  std::vector<TagResult> results;
};

}  // namespace

// The lines joined by "\n", and where each begins in that text.
struct TagSession::Paragraph {
  std::string text;
  std::vector<std::size_t> line_starts;

  void add(const std::string& line) {
    if (!line_starts.empty()) text += '\n';
    line_starts.push_back(text.size());
    text += line;
  }
  bool empty() const { return line_starts.empty(); }
  bool full() const {
    return line_starts.size() >= kMaxParagraphLines || text.size() >= kMaxParagraphBytes;
  }
};

namespace {

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

}  // namespace

// One thing read from the input, in input order: a blank line, a raw paragraph, or a sentence
// (a tokenized line or a CoNLL-U sentence). process() fills `sentences` and `results`.
struct TagSession::Piece {
  enum class Kind { blank, paragraph, sentence };
  Kind kind = Kind::blank;
  Paragraph paragraph;      // Kind::paragraph
  bool after_blank = false;  // Kind::paragraph: "# newpar" before its first sentence
  bool numbered = false;     // Kind::sentence: give it a "# sent_id"
  std::vector<Sentence> sentences;
  std::vector<TagResult> results;
};

struct TagSession::Chunk {
  std::vector<Piece> pieces;
  std::size_t bytes = 0;  // of input read
  std::size_t words = 0;  // set by process()
};

namespace {

// Input is handed to the tagging threads in chunks of about this many bytes: big enough that
// a chunk's words fill the network's batches, small enough that two threads share even a
// short file evenly.
constexpr std::size_t kChunkBytes = std::size_t{16} << 10;

}  // namespace

TagSession::TagSession(const Tagger& tagger, const TagSessionOptions& options,
                       OutputFile& output, OutputFile* attention_output, ThreadPool* pool)
    : tagger_(tagger),
      tokenizer_(tagger.model().tokenizer, TokenizerOptions{options.sentence_per_line}),
      options_(options),
      output_(output),
      writer_(make_output_writer(output.stream(), options.output)),
      attention_output_(attention_output),
      pool_(pool),
      reading_(std::make_unique<Chunk>()) {
  tag_options_.top_k = options.output.top_k;
  tag_options_.capture_attention = attention_output != nullptr;
  tag_options_.batch_words = options.batch_words;
  if (attention_output != nullptr) {
    attention_writer_ = std::make_unique<AttentionWriter>(attention_output->stream());
  }
}

// Chunks still on the pool's threads point into this session: wait for them.
TagSession::~TagSession() {
  for (Pending& pending : pending_) {
    if (pending.processed.valid()) pending.processed.wait();
  }
}

void TagSession::tag(LineSource& source) {
  interactive_ = source.is_terminal();
  try {
    switch (options_.input) {
      case InputKind::raw:
        // On a terminal each line is answered at once, so it cannot wait for the paragraph's end.
        if (options_.sentence_per_line || interactive_) {
          read_raw_lines(source);
        } else {
          read_raw_paragraphs(source);
        }
        break;
      case InputKind::tokenized:
        read_tokenized(source);
        break;
      case InputKind::conllu:
        read_conllu(source);
        break;
    }
  } catch (...) {
    submit();  // what was read before the error is still tagged and written
    drain();
    throw;
  }
  submit();
  drain();
}

void TagSession::finish() {
  writer_->finish();
  if (attention_writer_) attention_writer_->finish();
}

void TagSession::read_raw_lines(LineSource& source) {
  std::string line;
  bool after_blank = false;
  while (source.next(line)) {
    if (is_blank(line)) {
      add(Piece{}, line.size() + 1);
      after_blank = true;
    } else {
      Paragraph paragraph;
      paragraph.add(line);
      add_paragraph(paragraph, after_blank);
      after_blank = false;
    }
    if (interactive_) {
      submit();
      drain();
    }
  }
}

void TagSession::read_raw_paragraphs(LineSource& source) {
  std::string line;
  Paragraph paragraph;
  bool after_blank = false;  // the paragraph being gathered follows a blank line
  while (source.next(line)) {
    if (is_blank(line)) {
      add_paragraph(paragraph, after_blank);
      add(Piece{}, line.size() + 1);
      after_blank = true;
      continue;
    }
    paragraph.add(line);
    if (paragraph.full()) {  // the rest continues the same paragraph: no "# newpar"
      add_paragraph(paragraph, after_blank);
      after_blank = false;
    }
  }
  add_paragraph(paragraph, after_blank);
}

void TagSession::read_tokenized(LineSource& source) {
  std::string line;
  while (source.next(line)) {
    Piece piece;
    if (!is_blank(line)) {
      piece.kind = Piece::Kind::sentence;
      piece.numbered = true;
      piece.sentences.push_back(split_on_whitespace(line));
    }
    add(std::move(piece), line.size() + 1);
  }
}

void TagSession::read_conllu(LineSource& source) {
  LineSourceBuffer buffer(source);
  std::istream in(&buffer);
  ConlluReader reader(in, source.name());
  Sentence sentence;
  while (reader.next(sentence)) {
    Piece piece;
    piece.kind = Piece::Kind::sentence;
    std::size_t bytes = 0;
    for (const Word& word : sentence.words) bytes += word.form.size() + 16;  // an estimate
    piece.sentences.push_back(std::move(sentence));
    sentence = Sentence();
    add(std::move(piece), bytes);
  }
  buffer.rethrow_error();
}

void TagSession::add_paragraph(Paragraph& paragraph, bool after_blank) {
  if (paragraph.empty()) return;
  Piece piece;
  piece.kind = Piece::Kind::paragraph;
  piece.after_blank = after_blank;
  const std::size_t bytes = paragraph.text.size() + 1;
  piece.paragraph = std::move(paragraph);
  paragraph = Paragraph();
  add(std::move(piece), bytes);
}

void TagSession::add(Piece piece, std::size_t bytes) {
  reading_->pieces.push_back(std::move(piece));
  reading_->bytes += bytes;
  if (reading_->bytes >= kChunkBytes) submit();
}

void TagSession::submit() {
  if (reading_->pieces.empty()) return;
  std::shared_ptr<Chunk> chunk = std::move(reading_);
  reading_ = std::make_unique<Chunk>();
  if (pool_ == nullptr) {
    process(*chunk);
    write(*chunk);
    return;
  }
  std::future<void> processed = pool_->submit([this, chunk] { process(*chunk); });
  pending_bytes_ += chunk->bytes;
  pending_.push_back(Pending{chunk, std::move(processed)});
  // Two chunks per thread keep every thread busy while this one writes; fewer when chunks are
  // big (a 100,000-word line is one chunk), so that memory stays bounded.
  const auto threads = static_cast<std::size_t>(pool_->size());
  while (pending_.size() > 2 * threads ||
         (pending_.size() > 1 && pending_bytes_ > 4 * threads * kChunkBytes)) {
    write_oldest();
  }
}

void TagSession::drain() {
  while (!pending_.empty()) write_oldest();
}

void TagSession::write_oldest() {
  Pending& oldest = pending_.front();
  oldest.processed.get();  // rethrows what process() threw
  const std::shared_ptr<Chunk> chunk = oldest.chunk;
  pending_bytes_ -= chunk->bytes;
  pending_.pop_front();
  write(*chunk);
}

void TagSession::process(Chunk& chunk) const {
  std::vector<std::vector<std::string>> forms;
  for (Piece& piece : chunk.pieces) {
    if (piece.kind == Piece::Kind::paragraph) {
      piece.sentences = tokenizer_.tokenize(piece.paragraph.text);
    }
    for (const Sentence& sentence : piece.sentences) forms.push_back(forms_of(sentence));
  }
  std::vector<TagResult> results = tagger_.tag_batch(forms, tag_options_);
  std::size_t next = 0;
  for (Piece& piece : chunk.pieces) {
    for (const Sentence& sentence : piece.sentences) {
      chunk.words += sentence.words.size();
      piece.results.push_back(std::move(results[next++]));
    }
  }
}

void TagSession::write(Chunk& chunk) {
  for (Piece& piece : chunk.pieces) write_piece(piece);
  words_done_ += chunk.words;
  bytes_done_ += chunk.bytes;
  if (progress_) progress_(words_done_, bytes_done_);
}

// "# sent_id = N" before "# text", after "# newpar".
void TagSession::number(Sentence& sentence) {
  auto position = sentence.comments.begin();
  if (position != sentence.comments.end() && position->rfind("# newpar", 0) == 0) ++position;
  sentence.comments.insert(position, "# sent_id = " + std::to_string(next_sentence_id_++));
}

void TagSession::write_piece(Piece& piece) {
  std::vector<Sentence>& sentences = piece.sentences;
  if (piece.kind == Piece::Kind::paragraph) {
    for (Sentence& sentence : sentences) number(sentence);
    if (piece.after_blank && !sentences.empty()) {
      sentences.front().comments.insert(sentences.front().comments.begin(), "# newpar");
    }
  } else if (piece.numbered) {
    for (Sentence& sentence : sentences) number(sentence);
  }
  if (attention_writer_) {
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      attention_writer_->write(sentences[s], piece.results[s]);
    }
  }
  const OutputFormat format = options_.output.format;
  const bool by_input_line =
      piece.kind == Piece::Kind::paragraph &&
      (format == OutputFormat::text || format == OutputFormat::tsv);
  if (!by_input_line) {
    std::vector<TaggedSentence> tagged(sentences.size());
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      tagged[s] = TaggedSentence{&sentences[s], &piece.results[s]};
    }
    write_line(tagged);
    return;
  }
  // text and tsv: one output line per input line.
  const std::vector<LinePieces> lines =
      split_by_line(sentences, piece.results, piece.paragraph.line_starts);
  piece.sentences.clear();
  piece.results.clear();
  for (const LinePieces& line : lines) {
    std::vector<TaggedSentence> tagged(line.pieces.size());
    for (std::size_t p = 0; p < line.pieces.size(); ++p) {
      tagged[p] = TaggedSentence{&line.pieces[p], &line.results[p]};
    }
    write_line(tagged);
  }
}

void TagSession::write_line(const std::vector<TaggedSentence>& tagged) {
  writer_->write_line(tagged);
  if (interactive_) {
    output_.flush();
    if (attention_output_ != nullptr) attention_output_->flush();
  } else {
    output_.check();  // stop early when the reader has gone
  }
}

}  // namespace sawtag::cli
