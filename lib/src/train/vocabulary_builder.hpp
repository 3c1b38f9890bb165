// Vocabularies and tag sets counted from a treebank.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"

namespace sawtag::train {

struct TreebankCounts {
  std::unordered_map<std::string, int> words;  // lower-cased forms
  std::unordered_map<std::string, int> chars;  // code points as UTF-8
  std::unordered_map<std::string, int> upos;
  std::unordered_map<std::string, int> xpos;
};

TreebankCounts count_treebank(const std::vector<Sentence>& treebank);

// Entries seen at least `min_count` times, most frequent first (ties in byte order), after
// the `reserved` entries.
Vocabulary build_vocabulary(const std::unordered_map<std::string, int>& counts, int min_count,
                            const std::vector<std::string>& reserved, const std::string& what);

}  // namespace sawtag::train
