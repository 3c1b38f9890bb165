// How words are usually written in running text, for the lemmas (Model::lemma_casing): a lemma
// keeps the casing a word has in the middle of a sentence ("Kerala", "NASA", but "power"), which
// the lemma head alone must guess from one sentence ("kerala" typed in lower case: EWT's lemma
// is "Kerala"). Counted over unlabelled text; nothing is specific to a language.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sawtag/sentence.hpp"
#include "sawtag/vocabulary.hpp"

namespace sawtag {

struct LemmaCasingOptions {
  // A word seen fewer times than this (outside sentence starts) is not listed.
  int min_count = 3;
  // A word is listed only when at most this share of its uses is lower-case: chosen on EWT dev
  // with Wikipedia's counts (0.2 and 0.3 give the same lemmas, 0.5 and 0.8 fewer right).
  double max_lower_share = 0.3;
};

// Counts the spellings of the words of a vocabulary in sentences of running text.
class SpellingCounter {
 public:
  // Only words whose lower-cased form (lower_case, sawtag/lemma_rule.hpp) is in `words` are
  // counted, so memory is bounded by the vocabulary; `words` must outlive the counter.
  explicit SpellingCounter(const Vocabulary& words);

  // Counts each word of `sentence` but its first word with a letter (and what comes before
  // it): a sentence start is capitalised whatever the word.
  void add(const Sentence& sentence);

  // The usual spelling of each counted word that is usually not written in lower case: its
  // most frequent spelling, when the word was seen at least options.min_count times and at
  // most options.max_lower_share of them in lower case. Sorted by lower-cased word; none holds
  // a space (Model::lemma_casing joins them with spaces).
  std::vector<std::string> usual_spellings(const LemmaCasingOptions& options = {}) const;

  std::uint64_t words_counted() const { return words_counted_; }

 private:
  // The most distinct spellings kept per word ("the", "The", "THE", ...); further ones still
  // count towards the word's total.
  static constexpr std::size_t kMaxSpellings = 8;
  struct Counts {
    std::uint64_t total = 0;
    std::vector<std::pair<std::string, std::uint64_t>> spellings;
  };
  const Vocabulary& words_;
  std::vector<Counts> counts_;  // by word id
  std::uint64_t words_counted_ = 0;
};

}  // namespace sawtag
