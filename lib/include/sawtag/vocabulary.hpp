// A list of strings with their indices: words, characters, tag sets.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sawtag {

class Vocabulary {
 public:
  Vocabulary() = default;
  // Throws ModelError naming `what` and the entry when `items` holds a duplicate.
  Vocabulary(std::vector<std::string> items, const std::string& what);

  // Index of `item`, or -1 when absent.
  int find(std::string_view item) const;
  const std::string& at(int index) const { return items_.at(static_cast<std::size_t>(index)); }
  int size() const { return static_cast<int>(items_.size()); }
  const std::vector<std::string>& items() const { return items_; }

 private:
  std::vector<std::string> items_;
  std::unordered_map<std::string, int> index_;
};

}  // namespace sawtag
