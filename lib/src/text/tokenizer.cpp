#include "sawtag/tokenizer.hpp"

#include <utf8proc.h>

#include "text/utf8.hpp"

namespace sawtag {

namespace {

using text::CodePoint;

bool is_space(char32_t value) {
  if (value == ' ' || value == '\t' || value == '\n' || value == '\r' || value == '\f' ||
      value == '\v')
    return true;
  const auto category = utf8proc_category(static_cast<utf8proc_int32_t>(value));
  return category == UTF8PROC_CATEGORY_ZS || category == UTF8PROC_CATEGORY_ZL ||
         category == UTF8PROC_CATEGORY_ZP;
}

bool is_punctuation(char32_t value) {
  const auto category = utf8proc_category(static_cast<utf8proc_int32_t>(value));
  return (category >= UTF8PROC_CATEGORY_PC && category <= UTF8PROC_CATEGORY_PO) ||
         (category >= UTF8PROC_CATEGORY_SM && category <= UTF8PROC_CATEGORY_SO);
}

bool ends_sentence(const std::string& form) {
  return form == "." || form == "!" || form == "?" || form == "\u2026";
}

}  // namespace

Tokenizer::Tokenizer(TokenizerData data, TokenizerOptions options)
    : data_(std::move(data)), options_(options) {}

std::vector<Sentence> Tokenizer::tokenize(std::string_view text) const {
  TokenizerReport report;
  return tokenize(text, report);
}

// Minimal version: whitespace, then every punctuation character is a word of its own.
std::vector<Sentence> Tokenizer::tokenize(std::string_view input, TokenizerReport& report) const {
  const std::vector<CodePoint> code_points =
      text::decode_utf8(input, &report.invalid_utf8_sequences);
  std::vector<Sentence> sentences;
  Sentence current;
  auto finish_sentence = [&] {
    if (current.words.empty()) return;
    const std::size_t begin = current.word_spans.front().begin;
    const std::size_t end = current.word_spans.back().end;
    current.comments.push_back("# text = " + std::string(input.substr(begin, end - begin)));
    sentences.push_back(std::move(current));
    current = Sentence();
  };
  std::size_t position = 0;
  while (position < code_points.size()) {
    if (is_space(code_points[position].value)) {
      ++position;
      continue;
    }
    std::size_t end = position + 1;
    if (!is_punctuation(code_points[position].value)) {
      while (end < code_points.size() && !is_space(code_points[end].value) &&
             !is_punctuation(code_points[end].value))
        ++end;
    }
    Word word;
    word.form = text::encode_range(code_points, position, end);
    if (end < code_points.size() && !is_space(code_points[end].value)) word.misc = "SpaceAfter=No";
    current.words.push_back(word);
    current.word_spans.push_back({code_points[position].begin, code_points[end - 1].end});
    position = end;
    if (ends_sentence(word.form)) finish_sentence();
  }
  finish_sentence();
  return sentences;
}

}  // namespace sawtag
