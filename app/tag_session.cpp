#include "tag_session.hpp"

#include <istream>

#include "sawtag/conllu.hpp"
#include "tokenized_line.hpp"

namespace sawtag::cli {
namespace {

// A raw paragraph is read whole, so that a sentence may continue on the next line. To keep
// memory bounded it also ends after kMaxParagraphLines lines, or at the end of the line that
// brings it to kMaxParagraphBytes bytes; a sentence that runs across that point is cut in two
// there (docs/cli.md, `--input raw`). A longer line is tokenized in parts (tag_chunk.hpp).
constexpr std::size_t kMaxParagraphLines = 1000;
constexpr std::size_t kMaxParagraphBytes = std::size_t{16} << 10;

bool is_full(const Paragraph& paragraph) {
  return paragraph.line_starts.size() >= kMaxParagraphLines ||
         paragraph.text.size() >= kMaxParagraphBytes;
}

// Input is handed to the tagging threads in chunks of about this many bytes: big enough that
// a chunk's words fill the network's batches, small enough that two threads share even a
// short file evenly.
constexpr std::size_t kChunkBytes = std::size_t{16} << 10;

// The read-ahead stops at two chunks per thread, or this many input bytes per thread, whichever
// comes first: a chunk's input is held until it is tagged and its output until it is written.
// A 100,000-word line is one chunk of about 600 KB, so two threads still tag two such lines.
constexpr std::size_t kPendingBytesPerThread = std::size_t{1} << 20;

std::shared_future<SentenceCounts> counts_of(SentenceCounts counts) {
  std::promise<SentenceCounts> known;
  known.set_value(counts);
  return known.get_future().share();
}

}  // namespace

TagSession::TagSession(const Tagger& tagger, const TagSessionOptions& options, OutputFile& output,
                       OutputFile* attention_output, ThreadPool* pool)
    : tokenizer_(tagger.model().tokenizer, TokenizerOptions{options.sentence_per_line}),
      options_(options),
      output_(output),
      writer_(make_output_writer(output.stream(), options.output)),
      attention_output_(attention_output),
      pool_(attention_output == nullptr ? pool : nullptr),
      reading_(std::make_unique<Chunk>()) {
  tagging_.tagger = &tagger;
  tagging_.tokenizer = &tokenizer_;
  tagging_.pool = pool_;
  tagging_.tag_options.top_k = options.output.top_k;
  tagging_.tag_options.capture_attention = attention_output != nullptr;
  tagging_.tag_options.batch_words = options.batch_words;
  tagging_.tag_options.morphology_probabilities = options.output.probabilities;
  // The lemma and FEATS classifiers run only for output that shows them.
  tagging_.tag_options.morphology = options.output.lemmas || options.output.feats;
  tagging_.output = options.output;
  const OutputFormat format = options.output.format;
  tagging_.numbers_shown =
      attention_output != nullptr || (format != OutputFormat::text && format != OutputFormat::tsv);
  if (attention_output != nullptr) {
    attention_writer_ = std::make_unique<AttentionWriter>(attention_output->stream());
    tagging_.attention = attention_writer_.get();
  }
  if (tagging_.numbers_shown) counts_ = counts_of(SentenceCounts{});
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
    if (!write_failed_) {
      submit();  // what was read before an input error is still tagged and written
      drain();
    }
    throw;
  }
  submit();
  drain();
}

void TagSession::finish() {
  writer_->continue_after(sentences_written_);
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
    if (is_full(paragraph)) {  // the rest continues the same paragraph: no "# newpar"
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
  if (tagging_.numbers_shown) {
    chunk->before = counts_;
    counts_ = chunk->after.get_future().share();
  }
  if (pool_ == nullptr) {
    try {
      process_chunk(*chunk, tagging_);
      write(*chunk);
    } catch (...) {
      write_failed_ = true;
      throw;
    }
    return;
  }
  std::future<void> processed = pool_->submit([this, chunk] { process_chunk(*chunk, tagging_); });
  pending_bytes_ += chunk->bytes;
  pending_.push_back(Pending{chunk, std::move(processed)});
  // Two chunks per thread keep every thread busy while this one writes; fewer when chunks are
  // big (long lines), so that memory stays bounded.
  const auto threads = static_cast<std::size_t>(pool_->size());
  while (pending_.size() > 2 * threads ||
         (pending_.size() > 1 && pending_bytes_ > threads * kPendingBytesPerThread)) {
    write_oldest();
  }
}

void TagSession::drain() {
  while (!pending_.empty()) write_oldest();
}

void TagSession::write_oldest() {
  // Taken off the queue first: after an error the destructor waits for the chunks behind it.
  Pending oldest = std::move(pending_.front());
  pending_.pop_front();
  pending_bytes_ -= oldest.chunk->bytes;
  try {
    oldest.processed.get();  // rethrows what process_chunk() threw
    write(*oldest.chunk);
  } catch (...) {
    write_failed_ = true;  // nothing after this chunk may be written
    throw;
  }
}

void TagSession::write(const Chunk& chunk) {
  output_.stream().write(chunk.output.data(), static_cast<std::streamsize>(chunk.output.size()));
  if (interactive_) {
    output_.flush();
    if (attention_output_ != nullptr) attention_output_->flush();
  } else {
    output_.check();  // stop early when the reader has gone
  }
  sentences_written_ += chunk.sentences;
  words_done_ += chunk.words;
  bytes_done_ += chunk.bytes;
  if (progress_) progress_(words_done_, bytes_done_);
}

}  // namespace sawtag::cli
