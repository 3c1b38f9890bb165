#include "sawtag/vocabulary.hpp"

#include <algorithm>
#include <functional>
#include <utility>

#include "sawtag/error.hpp"

namespace sawtag {
namespace {

std::size_t hash_of(std::string_view item) { return std::hash<std::string_view>{}(item); }

}  // namespace

Vocabulary::Vocabulary(std::vector<std::string> items, const std::string& what)
    : items_(std::move(items)) {
  std::size_t capacity = 2;
  while (capacity < 2 * items_.size()) capacity *= 2;
  slots_.assign(capacity, -1);
  const std::size_t mask = capacity - 1;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    std::size_t slot = hash_of(items_[i]) & mask;
    for (; slots_[slot] >= 0; slot = (slot + 1) & mask) {
      if (items_[static_cast<std::size_t>(slots_[slot])] == items_[i]) {
        throw ModelError(what + " has a duplicate entry '" + items_[i] + "' at index " +
                         std::to_string(i));
      }
    }
    slots_[slot] = static_cast<int>(i);
  }
}

int Vocabulary::find(std::string_view item) const {
  if (slots_.empty()) return -1;  // default-constructed
  return probe(item, hash_of(item) & (slots_.size() - 1));
}

std::vector<int> Vocabulary::find_each(const std::vector<std::string_view>& items) const {
  std::vector<int> found(items.size(), -1);
  if (slots_.empty()) return found;
  const std::size_t mask = slots_.size() - 1;
  // A block's slots, then the items they name, are asked of memory before any is compared, so
  // that their fetches overlap instead of each waiting on the one before.
  constexpr std::size_t kBlock = 16;
  std::size_t first_slot[kBlock];
  for (std::size_t begin = 0; begin < items.size(); begin += kBlock) {
    const std::size_t count = std::min(kBlock, items.size() - begin);
    for (std::size_t i = 0; i < count; ++i) {
      first_slot[i] = hash_of(items[begin + i]) & mask;
      __builtin_prefetch(&slots_[first_slot[i]]);
    }
    for (std::size_t i = 0; i < count; ++i) {
      const int index = slots_[first_slot[i]];
      if (index >= 0) __builtin_prefetch(&items_[static_cast<std::size_t>(index)]);
    }
    for (std::size_t i = 0; i < count; ++i) {
      found[begin + i] = probe(items[begin + i], first_slot[i]);
    }
  }
  return found;
}

void Vocabulary::prefetch(std::string_view item) const {
  if (!slots_.empty()) __builtin_prefetch(&slots_[hash_of(item) & (slots_.size() - 1)]);
}

int Vocabulary::probe(std::string_view item, std::size_t slot) const {
  const std::size_t mask = slots_.size() - 1;
  for (;; slot = (slot + 1) & mask) {
    const int index = slots_[slot];
    if (index < 0 || items_[static_cast<std::size_t>(index)] == item) return index;
  }
}

}  // namespace sawtag
