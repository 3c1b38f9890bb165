#include "train/vocabulary_builder.hpp"

#include <algorithm>
#include <utf8proc.h>

#include "sawtag/features.hpp"

namespace sawtag::train {

std::vector<std::string> code_points(const std::string& text) {
  std::vector<std::string> points;
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  utf8proc_ssize_t position = 0;
  const auto length = static_cast<utf8proc_ssize_t>(text.size());
  while (position < length) {
    utf8proc_int32_t code_point = 0;
    const utf8proc_ssize_t read = utf8proc_iterate(bytes + position, length - position, &code_point);
    if (read < 0) {
      points.emplace_back("\xEF\xBF\xBD");  // U+FFFD
      position += 1;
    } else {
      points.emplace_back(text, static_cast<std::size_t>(position), static_cast<std::size_t>(read));
      position += read;
    }
  }
  return points;
}

TreebankCounts count_treebank(const std::vector<Sentence>& treebank) {
  TreebankCounts counts;
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) {
      ++counts.words[to_lower(word.form)];
      for (const std::string& point : code_points(word.form)) ++counts.chars[point];
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
