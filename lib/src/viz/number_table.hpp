// Tables of numbers for an 80-column terminal (the walkthrough's terminal view): a row label of
// kLabelWidth columns, then cells of kCellWidth columns, each a number in at most 7 characters.
//   ▸ saw      0.412  -1.305   2.000 …
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "sawtag/attention_view.hpp"

namespace sawtag::viz {

inline constexpr int kLabelWidth = 10;   // "▸ " and the label cut to 7 columns, then a space
inline constexpr int kCellWidth = 8;     // a space and the number
inline constexpr int kTableColumns = 8;  // cells per line: 10 + 8 * 8 + " …" = 76 columns

// `value` in at most 7 characters, as many decimals (up to 3) as fit: 0.41234 -> "0.412",
// -12.5 -> "-12.500", 123456 -> "123456", 1.5e9 -> "1e+09".
std::string number_text(float value);

struct TableRow {
  std::string label;  // printable text; cut to fit
  std::vector<float> values;
  bool marked = false;  // the followed word's row: "▸", and bold in colour
};

struct TableStyle {
  Shading shading = Shading::blocks;
  bool shade_weights = false;  // colours256: cells get a background by value in [0, 1]
};

// The rows' first kTableColumns values, "…" after them when there are more.
void write_cut_table(std::ostream& out, const std::vector<TableRow>& rows, const TableStyle& style);

// Every value of the rows, kTableColumns columns at a time, each block under a line of column
// labels (cut to fit their cells).
void write_full_table(std::ostream& out, const std::vector<TableRow>& rows,
                      const std::vector<std::string>& column_labels, const TableStyle& style);

}  // namespace sawtag::viz
