// Text laid out in terminal columns (for the terminal view's labels and tables).
#pragma once

#include <string>
#include <string_view>

namespace sawtag::viz {

// The columns a terminal gives `text`: most characters 1, wide East Asian ones 2, combining
// marks 0. "naïve" -> 5, "日本" -> 4.
int display_width(std::string_view text);

// `text` cut to at most `width` columns, ending in "…" when cut: ("sawtooth", 4) -> "saw…".
std::string fit_width(std::string_view text, int width);

// `text` with control characters (C0, DEL, C1: a word must not move the cursor or change
// colours) and bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069: a word must
// not reorder the rest of the line) replaced by U+FFFD: "a\x1b[31m" -> "a�[31m".
std::string printable(std::string_view text);

// `text` padded with spaces to `width` columns, on the left (right-aligned) or on the right.
std::string align_right(std::string_view text, int width);
std::string align_left(std::string_view text, int width);

}  // namespace sawtag::viz
