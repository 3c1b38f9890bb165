#include "text/utf8.hpp"

namespace sawtag::text {

namespace {

// Length of the sequence a valid lead byte starts, or 0 for a byte that cannot start one.
int sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Decodes the sequence at `position`; returns its length, 0 when it is not valid UTF-8
// (overlong forms, surrogates and values past U+10FFFF included).
std::size_t decode_one(std::string_view text, std::size_t position, char32_t& value) {
  const auto lead = static_cast<unsigned char>(text[position]);
  const int length = sequence_length(lead);
  if (length == 0 || position + length > text.size()) return 0;
  if (length == 1) {
    value = lead;
    return 1;
  }
  char32_t result = lead & (0x7F >> length);
  for (int i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[position + i]);
    if (!is_continuation(byte)) return 0;
    result = (result << 6) | (byte & 0x3F);
  }
  if ((length == 3 && result < 0x800) || (length == 4 && result < 0x10000) ||
      (result >= 0xD800 && result <= 0xDFFF) || result > 0x10FFFF) {
    return 0;
  }
  value = result;
  return static_cast<std::size_t>(length);
}

}  // namespace

std::vector<CodePoint> decode_utf8(std::string_view text, std::size_t* invalid_sequences) {
  std::vector<CodePoint> result;
  result.reserve(text.size());
  std::size_t position = 0;
  while (position < text.size()) {
    char32_t value = 0;
    const std::size_t length = decode_one(text, position, value);
    if (length > 0) {
      result.push_back({value, position, position + length});
      position += length;
      continue;
    }
    // Invalid: swallow this byte and any continuation bytes after it as one U+FFFD.
    const std::size_t begin = position++;
    while (position < text.size() && is_continuation(static_cast<unsigned char>(text[position])) &&
           position - begin < 4) {
      ++position;
    }
    if (!result.empty() && result.back().value == kReplacementCharacter &&
        result.back().end == begin) {
      result.back().end = position;  // one run of bad bytes -> one U+FFFD
    } else {
      result.push_back({kReplacementCharacter, begin, position});
      if (invalid_sequences != nullptr) ++*invalid_sequences;
    }
  }
  return result;
}

void append_utf8(std::string& out, char32_t value) {
  if (value < 0x80) {
    out += static_cast<char>(value);
  } else if (value < 0x800) {
    out += static_cast<char>(0xC0 | (value >> 6));
    out += static_cast<char>(0x80 | (value & 0x3F));
  } else if (value < 0x10000) {
    out += static_cast<char>(0xE0 | (value >> 12));
    out += static_cast<char>(0x80 | ((value >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (value & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (value >> 18));
    out += static_cast<char>(0x80 | ((value >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((value >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (value & 0x3F));
  }
}

std::string encode_range(const std::vector<CodePoint>& code_points, std::size_t first,
                         std::size_t last) {
  std::string out;
  for (std::size_t i = first; i < last; ++i) append_utf8(out, code_points[i].value);
  return out;
}

}  // namespace sawtag::text
