// The extension module sawtag._sawtag: the C++ side of `import sawtag` (python/sawtag/ is the
// Python side: the model search, `explain` and `info`). Every method converts its arguments
// with the GIL held, then releases it while it tokenizes and tags, so that several Python
// threads may share one Tagger.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model_info.hpp"
#include "python_arguments.hpp"
#include "python_tagger.hpp"
#include "sawtag/error.hpp"

#ifndef SAWTAG_VERSION
#define SAWTAG_VERSION ""
#endif
#ifndef SAWTAG_SOURCE_MODEL
#define SAWTAG_SOURCE_MODEL ""
#endif
#ifndef SAWTAG_INSTALLED_MODEL
#define SAWTAG_INSTALLED_MODEL ""
#endif

namespace py = pybind11;
using namespace sawtag;
using namespace sawtag::python;

namespace {

std::unique_ptr<PythonTagger> load_tagger(const std::string& path, bool float32) {
  try {
    py::gil_scoped_release released;
    return std::make_unique<PythonTagger>(path,
                                          float32 ? TagPrecision::float32 : TagPrecision::fastest);
  } catch (const InputError& error) {  // the file could not be read
    PyErr_SetString(PyExc_OSError, error.what());
    throw py::error_already_set();
  }
}

// The sentences of `text` (python_arguments.hpp), raw text split as the CLI splits it. Call
// without the GIL.
std::vector<Sentence> sentences_of(const PythonTagger& tagger, TextArgument& text) {
  if (text.raw) return tagger.split_raw(text.text);
  return std::move(text.sentences);
}

std::vector<std::vector<PythonWord>> tag(const PythonTagger& tagger, py::handle text,
                                         std::optional<int> threads) {
  TextArgument argument = text_argument(text);
  const int thread_count = threads_argument(threads);
  std::vector<std::vector<PythonWord>> words;
  py::gil_scoped_release released;
  const TaggedSentences tagged = tagger.tag(sentences_of(tagger, argument), thread_count, false);
  words.reserve(tagged.sentences.size());
  for (std::size_t s = 0; s < tagged.sentences.size(); ++s) {
    words.push_back(python_words(tagged.sentences[s], tagged.results[s]));
  }
  return words;
}

std::string tag_conllu(const PythonTagger& tagger, py::handle text, const std::string& input,
                       const std::string& tags, bool probabilities) {
  const std::string utf8 = str_argument(text, "text");
  TextInput kind = TextInput::raw;
  if (input == "tokenized") {
    kind = TextInput::tokenized;
  } else if (input == "conllu") {
    kind = TextInput::conllu;
  } else if (input != "raw") {
    throw py::value_error("input='" + input + "': expected 'raw', 'tokenized' or 'conllu'");
  }
  TagColumns columns = TagColumns::upos;
  if (tags == "xpos") {
    columns = TagColumns::xpos;
  } else if (tags == "both" || tags == "all") {
    columns = TagColumns::both;
  } else if (tags != "upos") {
    throw py::value_error("tags='" + tags + "': expected 'upos', 'xpos', 'both' or 'all'");
  }
  py::gil_scoped_release released;
  return tagger.tag_conllu(utf8, kind, columns, probabilities, /*morphology=*/tags == "all");
}

// maps.weights as a float32 array of shape (layers, heads, n, n), without a copy: the array
// owns the vector. A sentence without maps (longer than the window, or no words) gives shape
// (0, 0, n, n).
py::array_t<float> attention_array(AttentionMaps& maps, std::size_t num_words) {
  const auto n = static_cast<py::ssize_t>(num_words);
  if (maps.weights.empty()) return py::array_t<float>(std::vector<py::ssize_t>{0, 0, n, n});
  auto* owned = new std::vector<float>(std::move(maps.weights));
  const py::capsule owner(owned,
                          [](void* vector) { delete static_cast<std::vector<float>*>(vector); });
  return py::array_t<float>(std::vector<py::ssize_t>{maps.num_layers, maps.num_heads, n, n},
                            owned->data(), owner);
}

py::list attention(const PythonTagger& tagger, py::handle text, std::optional<int> threads) {
  TextArgument argument = text_argument(text);
  const int thread_count = threads_argument(threads);
  TaggedSentences tagged;
  {
    py::gil_scoped_release released;
    tagged = tagger.tag(sentences_of(tagger, argument), thread_count, true);
  }
  py::list arrays;
  for (std::size_t s = 0; s < tagged.sentences.size(); ++s) {
    arrays.append(attention_array(tagged.results[s].attention, tagged.sentences[s].words.size()));
  }
  return arrays;
}

std::string explain_json(const PythonTagger& tagger, py::handle text, std::optional<int> threads) {
  TextArgument argument = text_argument(text);
  const int thread_count = threads_argument(threads);
  py::gil_scoped_release released;
  return tagger.explain_json(sentences_of(tagger, argument), thread_count);
}

}  // namespace

PYBIND11_MODULE(_sawtag, module) {
  module.doc() = "The C++ side of the sawtag module; use `import sawtag`.";
  module.attr("__version__") = SAWTAG_VERSION;
  module.attr("_SOURCE_MODEL") = SAWTAG_SOURCE_MODEL;
  module.attr("_INSTALLED_MODEL") = SAWTAG_INSTALLED_MODEL;

  // Bad input and bad models are ValueError, with the CLI's message; output errors OSError.
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const OutputError& output_error) {
      PyErr_SetString(PyExc_OSError, output_error.what());
    } catch (const Error& sawtag_error) {
      PyErr_SetString(PyExc_ValueError, sawtag_error.what());
    }
  });

  py::class_<PythonWord>(module, "Word", "One tagged word (read-only).")
      .def_readonly("form", &PythonWord::form, "The word as the tokenizer gave it (\"n't\").")
      .def_readonly("upos", &PythonWord::upos, "Universal part of speech (NOUN, VERB, ...).")
      .def_readonly("xpos", &PythonWord::xpos,
                    "Language-specific tag (Penn Treebank: NN, VBD, ...).")
      .def_readonly("upos_prob", &PythonWord::upos_prob,
                    "Calibrated probability of upos, as `sawtag tag --probs` writes it.")
      .def_readonly("xpos_prob", &PythonWord::xpos_prob, "Calibrated probability of xpos.")
      .def_readonly("lemma", &PythonWord::lemma,
                    "Lemma, or None when the model does not predict lemmas.")
      .def_readonly("feats", &PythonWord::feats,
                    "Morphological features (\"Number=Sing|Person=3\"), or None when the model "
                    "does not predict them.")
      .def("__repr__",
           [](const PythonWord& word) {
             return "Word(" + py::repr(py::str(word.form)).cast<std::string>() + ", upos='" +
                    word.upos + "', xpos='" + word.xpos + "')";
           })
      .def("__eq__", [](const PythonWord& a, const PythonWord& b) {
        return a.form == b.form && a.upos == b.upos && a.xpos == b.xpos &&
               a.upos_prob == b.upos_prob && a.xpos_prob == b.xpos_prob && a.lemma == b.lemma &&
               a.feats == b.feats;
      });

  // sawtag.Tagger (python/sawtag/__init__.py) derives from this and documents each method.
  py::class_<PythonTagger>(module, "_Tagger")
      .def(py::init(&load_tagger), py::arg("path"), py::arg("float32") = false)
      .def("tag", &tag, py::arg("text"), py::arg("threads") = py::none(),
           "Tags text; returns a list of sentences, each a list of Word.\n\n"
           "text: a str of raw text (split into sentences and words by the model's tokenizer, "
           "as `sawtag tag` splits it), a list of str (one sentence of words) or a list of "
           "lists of str (several sentences).\n"
           "threads: threads to tag on (None: every core); the tags do not depend on it. The "
           "GIL is released while tagging.\n"
           "Raises TypeError for other types (None, bytes, a list of non-str).")
      .def("tag_conllu", &tag_conllu, py::arg("text"), py::arg("input") = "raw", py::kw_only(),
           py::arg("tags") = "all", py::arg("probs") = false,
           "Returns what `sawtag tag -f conllu --input INPUT --tags TAGS [--probs]` writes "
           "for text (a str).\n\n"
           "input: 'raw' (running text), 'tokenized' (one sentence per line, words split on "
           "whitespace) or 'conllu' (only the columns of tags are filled in).\n"
           "tags: 'upos', 'xpos', 'both' or 'all' (the default, as the CLI's CoNLL-U: every "
           "column the model predicts): the columns filled in. probs: also add "
           "UPOSProb=/XPOSProb= (LemmaProb=/FeatsProb=) to MISC.\n"
           "Raises ValueError for malformed CoNLL-U, with the CLI's message.")
      .def("attention", &attention, py::arg("text"), py::arg("threads") = py::none(),
           "Attention probabilities of every layer and head: a list with one numpy float32 "
           "array per sentence, of shape (layers, heads, n, n); [l, h, i, j] is how much word "
           "i attends to word j in layer l (0 = nearest the input), head h. The same numbers "
           "as `sawtag attention -f json`. A sentence longer than the model's window "
           "(max_sequence_length) has no single map: its array has shape (0, 0, n, n).\n\n"
           "text and threads as for tag().")
      .def("_explain_json", &explain_json, py::arg("text"), py::arg("threads") = py::none())
      .def("_info",
           [](const PythonTagger& tagger) { return model_info(tagger.model(), tagger.path()); })
      .def_property_readonly("model_path", &PythonTagger::path,
                             "The path of the loaded model file.");
}
