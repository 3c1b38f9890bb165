#include "viz/display_text.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <vector>

#include "text/utf8.hpp"

namespace sawtag::viz {
namespace {

constexpr std::string_view kEllipsis = "…";  // one column

// Characters that move the cursor, change colours or reorder what follows on the line: C0, DEL,
// C1 and the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
bool moves_text(char32_t value) {
  return value < 0x20 || (value >= 0x7F && value <= 0x9F) || (value >= 0x202A && value <= 0x202E) ||
         (value >= 0x2066 && value <= 0x2069);
}

int width_of(char32_t code_point) {
  return std::max(0, utf8proc_charwidth(static_cast<utf8proc_int32_t>(code_point)));
}

}  // namespace

int display_width(std::string_view text) {
  int width = 0;
  for (const text::CodePoint& code_point : text::decode_utf8(text)) {
    width += width_of(code_point.value);
  }
  return width;
}

std::string fit_width(std::string_view text, int width) {
  if (display_width(text) <= width) return std::string(text);
  const std::vector<text::CodePoint> code_points = text::decode_utf8(text);
  std::size_t kept = 0;
  int used = 0;
  while (kept < code_points.size() && used + width_of(code_points[kept].value) <= width - 1) {
    used += width_of(code_points[kept].value);
    ++kept;
  }
  return text::encode_range(code_points, 0, kept) + std::string(kEllipsis);
}

std::string printable(std::string_view text) {
  std::vector<text::CodePoint> code_points = text::decode_utf8(text);
  for (text::CodePoint& code_point : code_points) {
    if (moves_text(code_point.value)) code_point.value = text::kReplacementCharacter;
  }
  return text::encode_range(code_points, 0, code_points.size());
}

std::string align_right(std::string_view text, int width) {
  return std::string(static_cast<std::size_t>(std::max(0, width - display_width(text))), ' ') +
         std::string(text);
}

std::string align_left(std::string_view text, int width) {
  return std::string(text) +
         std::string(static_cast<std::size_t>(std::max(0, width - display_width(text))), ' ');
}

}  // namespace sawtag::viz
