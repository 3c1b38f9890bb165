// A chunk of `sawtag tag`'s input, and how it becomes output: tokenized, tagged and formatted
// into bytes, on a pool thread, so that the thread that reads the input only writes those bytes
// in input order (tag_session.hpp).
#pragma once

#include <cstddef>
#include <future>
#include <string>
#include <vector>

#include "sawtag/output.hpp"
#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"
#include "thread_pool.hpp"

namespace sawtag::cli {

// Raw lines joined by "\n", and where each begins in that text.
struct Paragraph {
  std::string text;
  std::vector<std::size_t> line_starts;

  void add(const std::string& line) {
    if (!line_starts.empty()) text += '\n';
    line_starts.push_back(text.size());
    text += line;
  }
  bool empty() const { return line_starts.empty(); }
};

// One thing read from the input, in input order: a blank line, a raw paragraph, or a sentence
// (a tokenized line or a CoNLL-U sentence).
struct Piece {
  enum class Kind { blank, paragraph, sentence };
  Kind kind = Kind::blank;
  Paragraph paragraph;              // Kind::paragraph
  bool after_blank = false;         // Kind::paragraph: "# newpar" before its first sentence
  bool numbered = false;            // Kind::sentence: give it a "# sent_id"
  std::vector<Sentence> sentences;  // Kind::sentence: the one sentence read
  std::size_t lines_written = 0;    // Kind::paragraph, text and tsv: lines formatted so far
};

// Sentences written before a chunk: its "# sent_id" numbers go on from numbered + 1.
struct SentenceCounts {
  std::size_t numbered = 0;  // those given a "# sent_id"
  std::size_t all = 0;       // json: whether the array's first entry is written
};

struct Chunk {
  std::vector<Piece> pieces;
  std::size_t bytes = 0;  // of input read
  // Only when the output shows sentence numbers (ChunkTagging::numbers_shown): the counts
  // before this chunk, set by the chunk before it, and those after it, set by process_chunk as
  // soon as its sentences are tokenized, before they are tagged.
  std::shared_future<SentenceCounts> before;
  std::promise<SentenceCounts> after;
  // Set by process_chunk:
  std::string output;  // the formatted bytes
  std::size_t words = 0;
  std::size_t sentences = 0;
};

// What tagging a chunk needs; everything referred to must outlive the call.
struct ChunkTagging {
  const Tagger* tagger = nullptr;
  const Tokenizer* tokenizer = nullptr;
  TagOptions tag_options;
  OutputOptions output;
  // conllu, json, jsonl and the attention file show "# sent_id": process_chunk then waits for
  // Chunk::before, that is for the chunk before to be tokenized.
  bool numbers_shown = false;
  AttentionWriter* attention = nullptr;  // not thread-safe: chunks then go one at a time
  // A chunk's batches are shared with this pool's threads when they come free (nullptr: all
  // on the calling thread), so that the last chunks of an input do not leave threads idle.
  ThreadPool* pool = nullptr;
};

// Tokenizes, tags and formats `chunk` into chunk.output, freeing what it is done with as it
// goes: a raw paragraph is tokenized and tagged in parts of about 16 KB, so however long its
// lines, memory is bounded by the part (and the paragraph's text and output). Thread-safe but
// for ChunkTagging::attention. Rethrows what tagging throws, also into Chunk::after.
void process_chunk(Chunk& chunk, const ChunkTagging& tagging);

}  // namespace sawtag::cli
