#include "io/model_strings.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "io/json_text.hpp"

namespace sawtag::model_strings {
namespace {

// The code point of the valid UTF-8 sequence of `length` bytes at text[i].
std::uint32_t code_point_at(std::string_view text, std::size_t i, std::size_t length) {
  const auto byte = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(text[i + k]));
  };
  if (length == 1) return byte(0);
  static constexpr std::uint32_t kLeadMask[] = {0, 0, 0x1F, 0x0F, 0x07};
  std::uint32_t code_point = byte(0) & kLeadMask[length];
  for (std::size_t k = 1; k < length; ++k) code_point = code_point << 6 | (byte(k) & 0x3F);
  return code_point;
}

bool is_control(std::uint32_t code_point) {
  return code_point < 0x20 || (code_point >= 0x7F && code_point <= 0x9F) || code_point == 0x2028 ||
         code_point == 0x2029;
}

// Unicode's space separators (category Zs).
bool is_space(std::uint32_t code_point) {
  return code_point == 0x20 || code_point == 0xA0 || code_point == 0x1680 ||
         (code_point >= 0x2000 && code_point <= 0x200A) || code_point == 0x202F ||
         code_point == 0x205F || code_point == 0x3000;
}

std::string hex(std::uint32_t code_point) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(code_point));
  return buffer;
}

// Calls visit(code_point, byte offset) for each code point; "" or the first encoding problem.
template <class Visit>
std::string for_each_code_point(std::string_view text, Visit&& visit) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = valid_sequence_length(text, i);
    if (length == 0) return "is not valid UTF-8 at byte " + std::to_string(i);
    std::string problem = visit(code_point_at(text, i, length), i);
    if (!problem.empty()) return problem;
    i += length;
  }
  return "";
}

}  // namespace

std::string text_problem(std::string_view text) {
  // Most strings are printable ASCII: the code points are looked at only when they are not.
  const bool printable_ascii = std::all_of(text.begin(), text.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F;
  });
  if (printable_ascii) return "";
  return for_each_code_point(text, [](std::uint32_t code_point, std::size_t at) -> std::string {
    if (!is_control(code_point)) return "";
    return "holds the control character " + hex(code_point) + " at byte " + std::to_string(at);
  });
}

std::string tag_problem(std::string_view tag) {
  if (tag.empty()) return "is empty";
  return for_each_code_point(tag, [](std::uint32_t code_point, std::size_t at) -> std::string {
    if (is_control(code_point)) {
      return "holds the control character " + hex(code_point) + " at byte " + std::to_string(at);
    }
    if (is_space(code_point)) {
      return "holds a space (" + hex(code_point) + ") at byte " + std::to_string(at);
    }
    return "";
  });
}

std::string word_problem(std::string_view word) {
  if (word.empty()) return "is empty";
  return text_problem(word);
}

std::string spaced_list_problem(std::string_view list, std::string_view item) {
  std::size_t number = 1;
  for (std::size_t begin = 0; begin <= list.size(); ++number) {
    const std::size_t end = std::min(list.find(' ', begin), list.size());
    if (end == begin) {
      return std::string(item) + " " + std::to_string(number) + " is empty (" + std::string(item) +
             "s are separated by single spaces)";
    }
    begin = end + 1;
  }
  return text_problem(list);
}

bool is_one_code_point(std::string_view text) {
  return !text.empty() && valid_sequence_length(text, 0) == text.size();
}

}  // namespace sawtag::model_strings
