// The body of `sawtag tag`: reads inputs (raw text a paragraph at a time, the other kinds line
// by line or sentence by sentence), tags, writes. One session may read several inputs into one
// output (sent_id numbers continue across them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "line_source.hpp"
#include "output_file.hpp"
#include "sawtag/output.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"

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
  OutputOptions output;
};

class TagSession {
 public:
  // `output` and `attention_output` (nullptr: no attention file) must outlive the session.
  // Throws ModelError when the model's self-tests fail.
  TagSession(std::shared_ptr<const Model> model, const TagSessionOptions& options,
             OutputFile& output, OutputFile* attention_output);

  // Tags everything in `source`. When the source is a terminal, raw input is read line by line
  // (as with sentence_per_line) and output is flushed after each line.
  void tag(LineSource& source);

  // Ends the documents (json's "]", the attention file's closing brackets).
  void finish();

 private:
  struct Paragraph;  // raw lines gathered up to a blank line

  void tag_raw_lines(LineSource& source);
  void tag_raw_paragraphs(LineSource& source);
  void tag_tokenized(LineSource& source);
  void tag_conllu(LineSource& source);
  // Tokenizes, tags and writes `paragraph` (nothing when it has no lines); "# newpar" before
  // its first sentence when `after_blank`.
  void emit_paragraph(const Paragraph& paragraph, bool after_blank);
  // Tags `sentences` (one input line, or one CoNLL-U sentence) and writes them.
  void emit(const std::vector<Sentence>& sentences);
  // Tags every sentence (writing the attention file as it goes); result s is of sentence s.
  std::vector<TagResult> tag_sentences(const std::vector<Sentence>& sentences);
  // Writes one line's worth (OutputWriter::write_line), then flushes or checks the output.
  void write_line(const std::vector<TaggedSentence>& tagged);
  void number(Sentence& sentence);

  Tagger tagger_;
  Tokenizer tokenizer_;
  TagSessionOptions options_;
  TagOptions tag_options_;
  OutputFile& output_;
  std::unique_ptr<OutputWriter> writer_;
  OutputFile* attention_output_;
  std::unique_ptr<AttentionWriter> attention_writer_;
  bool interactive_ = false;
  std::size_t next_sentence_id_ = 1;
};

}  // namespace sawtag::cli
