#include "sawtag/sentence.hpp"

namespace sawtag {

std::string comment_value(const Sentence& sentence, const std::string& key) {
  const std::string prefix = "# " + key + " = ";
  for (const std::string& line : sentence.comments) {
    if (line.compare(0, prefix.size(), prefix) == 0) return line.substr(prefix.size());
  }
  return "";
}

std::vector<std::string> word_forms(const Sentence& sentence) {
  std::vector<std::string> forms;
  forms.reserve(sentence.words.size());
  for (const Word& word : sentence.words) forms.push_back(word.form);
  return forms;
}

}  // namespace sawtag
