// The body of `sawtag tag`: reads inputs line by line, tags, writes. One session may read
// several inputs into one output (sent_id numbers continue across them).
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
  raw,        // running text; each line goes through the model's tokenizer
  tokenized,  // one sentence per line, words separated by whitespace
  conllu      // CoNLL-U; only UPOS/XPOS (and MISC probabilities) are filled in
};

struct TagSessionOptions {
  InputKind input = InputKind::raw;
  OutputOptions output;
};

class TagSession {
 public:
  // `output` and `attention_output` (nullptr: no attention file) must outlive the session.
  // Throws ModelError when the model's self-tests fail.
  TagSession(std::shared_ptr<const Model> model, const TagSessionOptions& options,
             OutputFile& output, OutputFile* attention_output);

  // Tags everything in `source`. Flushes after each line when the source is a terminal.
  void tag(LineSource& source);

  // Ends the documents (json's "]", the attention file's closing brackets).
  void finish();

 private:
  void tag_raw(LineSource& source);
  void tag_tokenized(LineSource& source);
  void tag_conllu(LineSource& source);
  // Tags `sentences` (one input line, or one CoNLL-U sentence) and writes them.
  void emit(const std::vector<Sentence>& sentences);
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
