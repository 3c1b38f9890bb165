#include "train/vocabulary_builder.hpp"

#include <algorithm>

#include "sawtag/features.hpp"

namespace sawtag::train {

TreebankCounts count_treebank(const std::vector<Sentence>& treebank) {
  TreebankCounts counts;
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) {
      ++counts.words[to_lower(word.form)];
      for (const std::string& character : word_characters(word.form)) ++counts.chars[character];
      ++counts.upos[word.upos];
      ++counts.xpos[word.xpos];
    }
  }
  return counts;
}

Vocabulary build_vocabulary(const std::unordered_map<std::string, int>& counts, int min_count,
                            const std::vector<std::string>& reserved, const std::string& what) {
  std::vector<std::pair<std::string, int>> kept;
  for (const auto& [item, count] : counts) {
    const bool is_reserved = std::find(reserved.begin(), reserved.end(), item) != reserved.end();
    if (count >= min_count && !is_reserved) kept.emplace_back(item, count);
  }
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> items = reserved;
  for (auto& [item, count] : kept) items.push_back(std::move(item));
  return Vocabulary(std::move(items), what);
}

}  // namespace sawtag::train
