// Counting how words are written in running text (sawtag/lemma_casing.hpp).
#include "sawtag/lemma_casing.hpp"

#include <algorithm>

#include "sawtag/lemma_rule.hpp"
#include "sawtag/model.hpp"
#include "text/character_classes.hpp"
#include "text/utf8.hpp"

namespace sawtag {

namespace {

bool has_letter(const std::string& word) {
  for (const text::CodePoint& code_point : text::decode_utf8(word)) {
    if (text::is_letter(code_point.value)) return true;
  }
  return false;
}

}  // namespace

SpellingCounter::SpellingCounter(const Vocabulary& words)
    : words_(words), counts_(static_cast<std::size_t>(words.size())) {}

void SpellingCounter::add(const Sentence& sentence) {
  bool past_start = false;
  for (const Word& word : sentence.words) {
    if (!past_start) {
      past_start = has_letter(word.form);
      continue;
    }
    if (word.form.find(' ') != std::string::npos) continue;  // a file's spellings hold none
    const int id = words_.find(lower_case(word.form));
    if (id <= kUnknownWord) continue;  // not in the vocabulary, or "<UNK>" written as a word
    Counts& counts = counts_[static_cast<std::size_t>(id)];
    ++counts.total;
    ++words_counted_;
    const auto same = std::find_if(counts.spellings.begin(), counts.spellings.end(),
                                   [&](const auto& entry) { return entry.first == word.form; });
    if (same != counts.spellings.end()) {
      ++same->second;
    } else if (counts.spellings.size() < kMaxSpellings) {
      counts.spellings.emplace_back(word.form, 1);
    }
  }
}

std::vector<std::string> SpellingCounter::usual_spellings(const LemmaCasingOptions& options) const {
  std::vector<std::pair<std::string, std::string>> listed;  // lower-cased, usual spelling
  for (std::size_t id = 0; id < counts_.size(); ++id) {
    const Counts& counts = counts_[id];
    if (counts.total == 0 || counts.total < static_cast<std::uint64_t>(options.min_count)) {
      continue;
    }
    const std::string& lower = words_.at(static_cast<int>(id));
    std::uint64_t lower_count = 0;
    const std::pair<std::string, std::uint64_t>* usual = nullptr;
    for (const auto& entry : counts.spellings) {
      if (entry.first == lower) lower_count = entry.second;
      if (usual == nullptr || entry.second > usual->second) usual = &entry;
    }
    const double lower_share = static_cast<double>(lower_count) / static_cast<double>(counts.total);
    if (usual == nullptr || usual->first == lower || lower_share > options.max_lower_share) {
      continue;
    }
    listed.emplace_back(lower, usual->first);
  }
  std::sort(listed.begin(), listed.end());
  std::vector<std::string> spellings;
  spellings.reserve(listed.size());
  for (auto& entry : listed) spellings.push_back(std::move(entry.second));
  return spellings;
}

}  // namespace sawtag
