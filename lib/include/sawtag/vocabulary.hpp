// A list of strings with their indices: words, characters, tag sets.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sawtag {

class Vocabulary {
 public:
  Vocabulary() = default;
  // Throws ModelError naming `what` and the entry when `items` holds a duplicate.
  Vocabulary(std::vector<std::string> items, const std::string& what);

  // Index of `item`, or -1 when absent. Allocates nothing.
  int find(std::string_view item) const;
  // find() of each of `items`, several times faster than one find() after another for many
  // items in a large vocabulary (their memory is fetched a block of items at a time).
  std::vector<int> find_each(const std::vector<std::string_view>& items) const;
  // Asks memory for where find(item) will look first, so that a find() soon after waits less.
  void prefetch(std::string_view item) const;
  const std::string& at(int index) const { return items_.at(static_cast<std::size_t>(index)); }
  int size() const { return static_cast<int>(items_.size()); }
  const std::vector<std::string>& items() const { return items_; }

 private:
  // The index of `item` or -1, looking from `slot` (where its hash points) on.
  int probe(std::string_view item, std::size_t slot) const;

  std::vector<std::string> items_;
  // A hash table of indices into items_ (-1: an empty slot), probed linearly from an item's
  // hash; a power of two at least twice the number of items, so a probe always ends. Indices
  // rather than strings: a model's 100,000 words are indexed with one allocation, lookups need
  // no std::string, and a copy of the Vocabulary stays valid.
  std::vector<int> slots_;
};

}  // namespace sawtag
