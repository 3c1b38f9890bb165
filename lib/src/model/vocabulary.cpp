#include "sawtag/vocabulary.hpp"

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
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = hash_of(item) & mask;; slot = (slot + 1) & mask) {
    const int index = slots_[slot];
    if (index < 0 || items_[static_cast<std::size_t>(index)] == item) return index;
  }
}

}  // namespace sawtag
