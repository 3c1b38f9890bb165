#include "viz/number_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "viz/display_text.hpp"

namespace sawtag::viz {
namespace {

constexpr int kMaxNumberLength = kCellWidth - 1;
constexpr const char* kMarker = "▸ ";
constexpr const char* kBold = "\x1b[1m";
constexpr const char* kReset = "\x1b[0m";
// The attention view's palette (terminal_view.cpp): white to dark blue in nine steps of 1/9.
constexpr int kColours[] = {189, 153, 117, 75, 33, 27, 26, 19, 17};

std::string formatted(const char* format, double value) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string row_label(const TableRow& row, const TableStyle& style) {
  const std::string text = align_left(fit_width(row.label, kLabelWidth - 3), kLabelWidth - 2);
  if (!row.marked) return "  " + text;
  if (style.shading == Shading::colors256) return kMarker + std::string(kBold) + text + kReset;
  return kMarker + text;
}

std::string cell(float value, const TableStyle& style) {
  const std::string text = align_right(number_text(value), kCellWidth);
  if (!style.shade_weights || style.shading != Shading::colors256) return text;
  const int step = std::clamp(static_cast<int>(value * 9.0f), 0, 8);
  const int foreground = step >= 4 ? 15 : 16;  // white on dark, black on light
  return "\x1b[48;5;" + std::to_string(kColours[step]) + "m\x1b[38;5;" +
         std::to_string(foreground) + "m" + text + kReset;
}

std::string trim_right(std::string line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

}  // namespace

std::string number_text(float value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  for (const char* format : {"%.3f", "%.2f", "%.1f", "%.0f"}) {
    std::string text = formatted(format, static_cast<double>(value));
    if (text == "-0.000" || text == "-0.00" || text == "-0.0" || text == "-0") text.erase(0, 1);
    if (static_cast<int>(text.size()) <= kMaxNumberLength) return text;
  }
  return formatted("%.0e", static_cast<double>(value));
}

void write_cut_table(std::ostream& out, const std::vector<TableRow>& rows,
                     const TableStyle& style) {
  for (const TableRow& row : rows) {
    std::string line = row_label(row, style);
    const int shown = std::min(static_cast<int>(row.values.size()), kTableColumns);
    for (int c = 0; c < shown; ++c) line += cell(row.values[static_cast<std::size_t>(c)], style);
    if (static_cast<int>(row.values.size()) > shown) line += " …";
    out << trim_right(line) << '\n';
  }
}

void write_full_table(std::ostream& out, const std::vector<TableRow>& rows,
                      const std::vector<std::string>& column_labels, const TableStyle& style) {
  const int columns = static_cast<int>(column_labels.size());
  for (int first = 0; first < columns; first += kTableColumns) {
    const int last = std::min(columns, first + kTableColumns);
    if (columns > kTableColumns) {
      out << "  columns " << first + 1 << "-" << last << " of " << columns << ":\n";
    }
    std::string header(static_cast<std::size_t>(kLabelWidth), ' ');
    for (int c = first; c < last; ++c) {
      header += align_right(fit_width(column_labels[static_cast<std::size_t>(c)], kCellWidth - 1),
                            kCellWidth);
    }
    out << trim_right(header) << '\n';
    for (const TableRow& row : rows) {
      std::string line = row_label(row, style);
      for (int c = first; c < last && c < static_cast<int>(row.values.size()); ++c) {
        line += cell(row.values[static_cast<std::size_t>(c)], style);
      }
      out << trim_right(line) << '\n';
    }
  }
}

}  // namespace sawtag::viz
