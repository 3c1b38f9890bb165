// learn_tokenizer_data: the multi-word token table and abbreviations from a treebank.
#include <algorithm>
#include <map>
#include <string>

#include "sawtag/tokenizer.hpp"
#include "text/character_classes.hpp"
#include "text/utf8.hpp"

namespace sawtag {

namespace {

// "Mr.", "U.S.", "Ass't.": letters, inner periods and apostrophes, one final period.
bool looks_like_abbreviation(const std::string& form) {
  if (form.size() < 2 || form.back() != '.' || form.find("..") != std::string::npos) return false;
  bool has_letter = false;
  for (const text::CodePoint& code_point : text::decode_utf8(form)) {
    const char32_t value = code_point.value;
    if (text::is_letter(value)) {
      has_letter = true;
    } else if (value != '.' && value != '\'' && value != U'\u2019') {
      return false;
    }
  }
  return has_letter;
}

struct FormCounts {
  std::size_t as_single_word = 0;
  std::map<std::vector<std::string>, std::size_t> splits;  // lower-cased words -> count
};

}  // namespace

TokenizerData learn_tokenizer_data(const std::vector<Sentence>& sentences) {
  std::map<std::string, FormCounts> forms;          // lower-cased token form -> counts
  std::map<std::string, std::size_t> kept_whole;    // "Mr." -> times a token
  std::map<std::string, std::size_t> period_split;  // "etc." -> times "etc" "."
  for (const Sentence& sentence : sentences) {
    std::size_t next_token = 0;
    const std::string* previous_form = nullptr;  // the single-word token before, if no space
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
      const int id = static_cast<int>(i) + 1;
      if (next_token < sentence.multiword_tokens.size() &&
          sentence.multiword_tokens[next_token].first == id) {
        const MultiwordToken& token = sentence.multiword_tokens[next_token++];
        std::vector<std::string> words;
        const auto last = std::min(static_cast<std::size_t>(token.last), sentence.words.size());
        for (std::size_t j = i; j < last; ++j)
          words.push_back(text::to_lower(sentence.words[j].form));
        ++forms[text::to_lower(token.token.form)].splits[words];
        i = last - 1;
        previous_form = nullptr;
        continue;
      }
      const Word& word = sentence.words[i];
      ++forms[text::to_lower(word.form)].as_single_word;
      if (looks_like_abbreviation(word.form)) {
        ++kept_whole[word.form];
      }
      if (word.form == "." && previous_form != nullptr) ++period_split[*previous_form + "."];
      previous_form = word.misc.find("SpaceAfter=No") != std::string::npos ? &word.form : nullptr;
    }
  }

  TokenizerData data;
  for (const auto& [form, counts] : forms) {
    std::size_t as_multiword = 0;
    const std::vector<std::string>* best = nullptr;
    std::size_t best_count = 0;
    for (const auto& [words, count] : counts.splits) {
      as_multiword += count;
      if (count > best_count) {
        best = &words;
        best_count = count;
      }
    }
    if (best != nullptr && as_multiword >= counts.as_single_word)
      data.multiword_tokens[form] = *best;
  }
  for (const auto& [form, count] : kept_whole) {
    const auto split = period_split.find(form);
    if (split == period_split.end() || count >= split->second) data.abbreviations.push_back(form);
  }
  return data;
}

}  // namespace sawtag
