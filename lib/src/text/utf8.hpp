// Decoding UTF-8 that may be invalid, keeping each code point's byte offsets.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sawtag::text {

inline constexpr char32_t kReplacementCharacter = 0xFFFD;

// One decoded code point and where its bytes stand in the input.
struct CodePoint {
  char32_t value = 0;     // U+FFFD for a byte sequence that is not valid UTF-8
  std::size_t begin = 0;  // byte offsets [begin, end) into the decoded text
  std::size_t end = 0;
};

// Decodes `text`; each maximal invalid sequence becomes one U+FFFD and is counted in
// `*invalid_sequences` when given. Linear in the size of the text. "a\xFFb" -> 'a' U+FFFD 'b'.
std::vector<CodePoint> decode_utf8(std::string_view text, std::size_t* invalid_sequences = nullptr);

// Appends the UTF-8 encoding of `value` to `out`.
void append_utf8(std::string& out, char32_t value);

// The text of code points [first, last): valid UTF-8 even where the input was not.
std::string encode_range(const std::vector<CodePoint>& code_points, std::size_t first,
                         std::size_t last);

}  // namespace sawtag::text
