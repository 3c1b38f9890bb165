// What `sawtag.Tagger` does, in C++ and without Python: a loaded model, its Tagger and
// Tokenizer, and the module's operations over sentences. Everything here is const and
// thread-safe (Tagger and Tokenizer are), so module.cpp runs it with the GIL released.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/output.hpp"
#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"

namespace sawtag::python {

// Sentences and what the tagger said of each: results[s] is of sentences[s], whose words have
// their UPOS and XPOS columns filled in (apply_tags with TagColumns::both).
struct TaggedSentences {
  std::vector<Sentence> sentences;
  std::vector<TagResult> results;
};

enum class TextInput { raw, tokenized, conllu };  // `sawtag tag --input`

class PythonTagger {
 public:
  // Loads `path` as `sawtag tag` does (an int8 word table is kept as stored). Throws
  // InputError when the file cannot be read, ModelError when it is not a valid model.
  PythonTagger(const std::string& path, TagPrecision precision);

  // Raw text -> sentences, as `sawtag tag` splits it (text_input.hpp), numbered from 1.
  std::vector<Sentence> split_raw(const std::string& text) const;

  // Tags `sentences` over `threads` threads (the caller's among them): batches of about
  // TagOptions::batch_words words, as the CLI forms them. The result does not depend on
  // `threads`. With `capture_attention`, each result holds its attention maps.
  TaggedSentences tag(std::vector<Sentence> sentences, int threads, bool capture_attention) const;

  // `sawtag tag -f conllu --input INPUT --tags TAGS [--probs]` of `text`. Throws InputError for
  // malformed CoNLL-U.
  std::string tag_conllu(const std::string& text, TextInput input, TagColumns tags,
                         bool probabilities, bool morphology) const;

  // `sawtag explain -f json --tags both` of `sentences` (docs/explain-format.md), each
  // sentence's masked copies split over `threads` threads. Throws InputError, before
  // explaining any, when a sentence is longer than the model's window.
  std::string explain_json(const std::vector<Sentence>& sentences, int threads) const;

  const std::string& path() const { return path_; }
  const Model& model() const { return *model_; }

 private:
  std::string path_;
  std::shared_ptr<const Model> model_;
  Tagger tagger_;
  Tokenizer tokenizer_;
};

}  // namespace sawtag::python
