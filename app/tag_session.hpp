// The body of `sawtag tag`: reads inputs (raw text a paragraph at a time, the other kinds line
// by line or sentence by sentence), tags, writes. One session may read several inputs into one
// output (sent_id numbers continue across them).
//
// Input is read in chunks of whole paragraphs, lines or sentences (about kChunkBytes each).
// With a ThreadPool, chunks are tokenized, tagged and formatted on its threads (tag_chunk.hpp)
// while this thread reads ahead and writes finished chunks' bytes in input order; at most two
// chunks per thread wait, so memory stays bounded whatever the input size. Tagging never
// depends on how the input was chunked or batched, so the output is the same bytes for any
// number of threads.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "line_source.hpp"
#include "output_file.hpp"
#include "sawtag/output.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"
#include "tag_chunk.hpp"
#include "thread_pool.hpp"

namespace sawtag::cli {

enum class InputKind {
  raw,        // running text; each paragraph goes through the model's tokenizer
  tokenized,  // one sentence per line, words separated by whitespace
  conllu      // CoNLL-U; only UPOS/XPOS (and MISC probabilities) are filled in
};

struct TagSessionOptions {
  InputKind input = InputKind::raw;
  // Raw input: every line is its own paragraph, so a line break always ends a sentence.
  // Otherwise only a blank line does, and a sentence may continue on the next line.
  bool sentence_per_line = false;
  int batch_words = TagOptions{}.batch_words;  // words per pass through the network
  OutputOptions output;
};

// Words and input bytes done so far, reported after each chunk is written.
using ProgressCallback = std::function<void(std::size_t words, std::size_t bytes)>;

class TagSession {
 public:
  // `tagger`, `output`, `attention_output` (nullptr: no attention file) and `pool` (nullptr:
  // everything on this thread) must outlive the session. With an attention file, everything
  // is done on this thread.
  TagSession(const Tagger& tagger, const TagSessionOptions& options, OutputFile& output,
             OutputFile* attention_output, ThreadPool* pool);
  ~TagSession();

  // Tags everything in `source`, and has written it all when it returns. When the source is a
  // terminal, raw input is read line by line (as with sentence_per_line) and each line is
  // answered at once. On an input error, everything read before it is still written.
  void tag(LineSource& source);

  // Ends the documents (json's "]", the attention file's closing brackets).
  void finish();

  void on_progress(ProgressCallback callback) { progress_ = std::move(callback); }

 private:
  void read_raw_lines(LineSource& source);
  void read_raw_paragraphs(LineSource& source);
  void read_tokenized(LineSource& source);
  void read_conllu(LineSource& source);

  // Adds a piece to the chunk being read; hands the chunk on when it is full.
  void add(Piece piece, std::size_t bytes);
  void add_paragraph(Paragraph& paragraph, bool after_blank);
  // Hands the chunk being read to the pool (or processes it here), writing finished chunks.
  void submit();
  // Writes every chunk handed on, in order.
  void drain();
  void write_oldest();
  // Writes a processed chunk's bytes; on this thread only.
  void write(const Chunk& chunk);

  Tokenizer tokenizer_;
  TagSessionOptions options_;
  ChunkTagging tagging_;
  OutputFile& output_;
  std::unique_ptr<OutputWriter> writer_;  // only finishes the document: chunks are formatted
  OutputFile* attention_output_;
  std::unique_ptr<AttentionWriter> attention_writer_;
  ThreadPool* pool_;
  bool interactive_ = false;
  bool write_failed_ = false;  // tagging or writing a chunk failed: the output stops there
  // Sentences before the next chunk, when the output shows their numbers.
  std::shared_future<SentenceCounts> counts_;
  std::size_t sentences_written_ = 0;

  std::unique_ptr<Chunk> reading_;  // the chunk being filled
  struct Pending {
    std::shared_ptr<Chunk> chunk;
    std::future<void> processed;
  };
  std::deque<Pending> pending_;    // handed on, not yet written; oldest first
  std::size_t pending_bytes_ = 0;  // input bytes of the pending chunks
  ProgressCallback progress_;
  std::size_t words_done_ = 0;
  std::size_t bytes_done_ = 0;
};

}  // namespace sawtag::cli
