// Counting in text, for tests that check generated pages and pictures.
#pragma once

#include <cstddef>
#include <string>

namespace sawtag::testing {

// How many times `needle` occurs in `text`, without overlaps: ("aaa", "aa") -> 1.
inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

}  // namespace sawtag::testing
