#include "sawtag/vocabulary.hpp"

#include "sawtag/error.hpp"

namespace sawtag {

Vocabulary::Vocabulary(std::vector<std::string> items, const std::string& what)
    : items_(std::move(items)) {
  index_.reserve(items_.size());
  for (std::size_t i = 0; i < items_.size(); ++i) {
    if (!index_.emplace(items_[i], static_cast<int>(i)).second) {
      throw ModelError(what + " has a duplicate entry '" + items_[i] + "' at index " +
                       std::to_string(i));
    }
  }
}

int Vocabulary::find(std::string_view item) const {
  const auto found = index_.find(std::string(item));
  return found == index_.end() ? -1 : found->second;
}

}  // namespace sawtag
