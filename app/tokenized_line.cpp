#include "tokenized_line.hpp"

#include <utility>

namespace sawtag::cli {
namespace {
constexpr const char* kSpaces = " \t\f\v\r";
}  // namespace

bool is_blank(const std::string& line) {
  return line.find_first_not_of(kSpaces) == std::string::npos;
}

Sentence split_on_whitespace(const std::string& line) {
  Sentence sentence;
  std::string text;
  std::size_t begin = line.find_first_not_of(kSpaces);
  while (begin != std::string::npos) {
    const std::size_t end = line.find_first_of(kSpaces, begin);
    Word word;
    word.form = line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (!text.empty()) text += ' ';
    text += word.form;
    sentence.words.push_back(std::move(word));
    begin = line.find_first_not_of(kSpaces, end);
  }
  sentence.comments.push_back("# text = " + text);
  return sentence;
}

}  // namespace sawtag::cli
