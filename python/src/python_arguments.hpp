// The module's arguments and results in C++ terms: the `text` every method takes, `threads`,
// and the Word objects `Tagger.tag` returns. Needs the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag::python {

// `text` as given: a str of raw text (raw == true), or pre-tokenized sentences.
struct TextArgument {
  bool raw = false;
  std::string text;                 // UTF-8
  std::vector<Sentence> sentences;  // each with "# text = <words joined by spaces>"
};

// A str is raw text; a list (or tuple) of str one sentence of those words; a list of lists of
// str several sentences; an empty list no sentence. Throws TypeError for anything else (None,
// bytes, a list holding a non-str), UnicodeEncodeError for a str that is not valid Unicode
// (lone surrogates), ValueError for an empty word (it would be the mask of `explain`).
TextArgument text_argument(pybind11::handle text);

// The str of a text argument that must be a str (tag_conllu): TypeError otherwise.
std::string str_argument(pybind11::handle text, const char* name);

// None -> the number of cores; otherwise 1 to 1024 (as the CLI's -j), else ValueError.
int threads_argument(const std::optional<int>& threads);

// One tagged word, as Python sees it.
struct PythonWord {
  std::string form;
  std::string upos;
  std::string xpos;
  float upos_prob = 0.0f;
  float xpos_prob = 0.0f;
  std::optional<std::string> lemma;  // None when the model does not predict it ("_")
  std::optional<std::string> feats;
};

// The words of a tagged sentence (`words` with its tag columns filled, `tags` its TagResult).
std::vector<PythonWord> python_words(const Sentence& sentence, const TagResult& tags);

}  // namespace sawtag::python
