#include "python_arguments.hpp"

#include <algorithm>
#include <thread>
#include <utility>

#include "text_input.hpp"

namespace py = pybind11;

namespace sawtag::python {
namespace {

constexpr const char* kTextTypes =
    "text must be a str (raw text), a list of str (one sentence of words) or a list of lists "
    "of str (several sentences)";

std::string type_name(py::handle object) { return Py_TYPE(object.ptr())->tp_name; }

// A str as UTF-8; UnicodeEncodeError (from Python) for lone surrogates.
std::string utf8_of(py::handle text) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data == nullptr) throw py::error_already_set();
  return std::string(data, static_cast<std::size_t>(size));
}

bool is_list(py::handle object) {
  return PyList_Check(object.ptr()) != 0 || PyTuple_Check(object.ptr()) != 0;
}

// `words` (a list of str) as a sentence; `where` names it in messages ("text", "text[2]").
Sentence sentence_of(py::handle words, const std::string& where) {
  Sentence sentence;
  std::string joined;
  std::size_t index = 0;
  for (py::handle word : words) {
    const std::string name = where + "[" + std::to_string(index++) + "]";
    if (!PyUnicode_Check(word.ptr())) {
      throw py::type_error(name + " is " + type_name(word) +
                           ": the words of a sentence must be str");
    }
    Word parsed;
    parsed.form = utf8_of(word);
    if (parsed.form.empty()) throw py::value_error(name + " is an empty word");
    if (!joined.empty()) joined += ' ';
    joined += parsed.form;
    sentence.words.push_back(std::move(parsed));
  }
  sentence.comments.push_back("# text = " + joined);
  return sentence;
}

}  // namespace

TextArgument text_argument(py::handle text) {
  TextArgument argument;
  if (PyUnicode_Check(text.ptr())) {
    argument.raw = true;
    argument.text = utf8_of(text);
    return argument;
  }
  if (PyBytes_Check(text.ptr()) || PyByteArray_Check(text.ptr())) {
    throw py::type_error(std::string(kTextTypes) + ", not " + type_name(text) +
                         ": decode it first, e.g. data.decode('utf-8', errors='replace')");
  }
  if (!is_list(text)) throw py::type_error(std::string(kTextTypes) + ", not " + type_name(text));
  const py::sequence items = py::reinterpret_borrow<py::sequence>(text);
  if (items.size() == 0) return argument;
  if (PyUnicode_Check(items[0].ptr())) {
    argument.sentences.push_back(sentence_of(text, "text"));
  } else {
    std::size_t index = 0;
    for (py::handle sentence : items) {
      const std::string name = "text[" + std::to_string(index++) + "]";
      if (!is_list(sentence)) {
        throw py::type_error(name + " is " + type_name(sentence) + ": " + kTextTypes);
      }
      argument.sentences.push_back(sentence_of(sentence, name));
    }
  }
  number_sentences(argument.sentences);
  return argument;
}

std::string str_argument(py::handle text, const char* name) {
  if (!PyUnicode_Check(text.ptr())) {
    throw py::type_error(std::string(name) + " must be a str, not " + type_name(text));
  }
  return utf8_of(text);
}

int threads_argument(const std::optional<int>& threads) {
  constexpr int kMaxThreads = 1024;
  if (!threads) return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (*threads < 1 || *threads > kMaxThreads) {
    throw py::value_error("threads=" + std::to_string(*threads) + ": expected 1 to " +
                          std::to_string(kMaxThreads) + ", or None for every core");
  }
  return *threads;
}

std::vector<PythonWord> python_words(const Sentence& sentence, const TagResult& tags) {
  const auto known = [](const std::string& value) -> std::optional<std::string> {
    if (value == "_") return std::nullopt;
    return value;
  };
  std::vector<PythonWord> words;
  words.reserve(sentence.words.size());
  for (std::size_t i = 0; i < sentence.words.size() && i < tags.words.size(); ++i) {
    const Word& word = sentence.words[i];
    words.push_back(PythonWord{word.form, word.upos, word.xpos, tags.words[i].upos_probability,
                               tags.words[i].xpos_probability, known(word.lemma),
                               known(word.feats)});
  }
  return words;
}

}  // namespace sawtag::python
