// One attention map as a standalone SVG document (`sawtag attention --svg FILE`): a grid of
// cells shaded white (0) to dark blue (1), the words as row and column labels, each cell's two
// words and weight in its <title> (a tooltip in browsers), and a colour bar.
#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "sawtag/attention_view.hpp"
#include "viz/attention_map.hpp"
#include "viz/display_text.hpp"
#include "viz/markup.hpp"

namespace sawtag {
namespace {

constexpr double kCellSize = 22;
constexpr double kCharWidth = 7.5;  // of the 12px monospace font, a little generous
constexpr double kMargin = 10;
constexpr double kHeadingHeight = 28;
constexpr double kLegendHeight = 40;
constexpr int kMaxLabelColumns = 24;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string weight_text(float weight) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", static_cast<double>(weight));
  return text;
}

// Where the parts of the picture go, from the longest label.
struct Layout {
  int num_words = 0;
  double label_size = 0;  // width of the row labels, height of the column labels
  double grid_x = 0;
  double grid_y = 0;

  double width() const { return grid_x + num_words * kCellSize + kMargin; }
  double height() const { return grid_y + num_words * kCellSize + kLegendHeight; }
  double cell_x(int j) const { return grid_x + j * kCellSize; }
  double cell_y(int i) const { return grid_y + i * kCellSize; }
};

Layout make_layout(const std::vector<std::string>& labels) {
  Layout layout;
  layout.num_words = static_cast<int>(labels.size());
  int widest = 1;
  for (const std::string& label : labels) widest = std::max(widest, viz::display_width(label));
  layout.label_size = widest * kCharWidth + kMargin;
  layout.grid_x = kMargin + layout.label_size;
  layout.grid_y = kHeadingHeight + layout.label_size;
  return layout;
}

void write_labels(std::ostream& out, const Layout& layout, const std::vector<std::string>& labels) {
  out << "<g class=\"rows\" text-anchor=\"end\">\n";
  for (int i = 0; i < layout.num_words; ++i) {
    out << "<text x=\"" << number(layout.grid_x - 6) << "\" y=\""
        << number(layout.cell_y(i) + kCellSize / 2 + 4) << "\">" << viz::escape_markup(labels[i])
        << "</text>\n";
  }
  out << "</g>\n<g class=\"columns\">\n";
  for (int j = 0; j < layout.num_words; ++j) {
    const std::string x = number(layout.cell_x(j) + kCellSize / 2 + 4);
    const std::string y = number(layout.grid_y - 6);
    out << "<text transform=\"translate(" << x << "," << y << ") rotate(-90)\">"
        << viz::escape_markup(labels[j]) << "</text>\n";
  }
  out << "</g>\n";
}

void write_cells(std::ostream& out, const Layout& layout, const AttentionMatrix& map,
                 const std::vector<std::string>& words) {
  out << "<g class=\"cells\" stroke=\"#dddddd\" stroke-width=\"0.5\">\n";
  for (int i = 0; i < layout.num_words; ++i) {
    for (int j = 0; j < layout.num_words; ++j) {
      const float weight = map.at(i, j);
      out << "<rect x=\"" << number(layout.cell_x(j)) << "\" y=\"" << number(layout.cell_y(i))
          << "\" width=\"" << number(kCellSize) << "\" height=\"" << number(kCellSize)
          << "\" fill=\"" << viz::heat_colour(weight) << "\"><title>"
          << viz::escape_markup(words[i] + " → " + words[j] + ": " + weight_text(weight))
          << "</title></rect>\n";
    }
  }
  out << "</g>\n";
}

void write_colour_bar(std::ostream& out, const Layout& layout) {
  const double y = layout.grid_y + layout.num_words * kCellSize + 14;
  const double width = std::min(160.0, std::max(60.0, layout.num_words * kCellSize));
  out << "<defs><linearGradient id=\"scale\"><stop offset=\"0\" stop-color=\""
      << viz::heat_colour(0) << "\"/><stop offset=\"1\" stop-color=\"" << viz::heat_colour(1)
      << "\"/></linearGradient></defs>\n"
      << "<text x=\"" << number(layout.grid_x - 6) << "\" y=\"" << number(y + 10)
      << "\" text-anchor=\"end\">0</text>\n"
      << "<rect x=\"" << number(layout.grid_x) << "\" y=\"" << number(y) << "\" width=\""
      << number(width) << "\" height=\"12\" fill=\"url(#scale)\" stroke=\"#999999\" "
      << "stroke-width=\"0.5\"/>\n"
      << "<text x=\"" << number(layout.grid_x + width + 4) << "\" y=\"" << number(y + 10)
      << "\">1</text>\n";
}

}  // namespace

void write_attention_svg(std::ostream& out, const TaggedSentence& sentence, MapChoice choice) {
  const AttentionMaps& maps = sentence.result->attention;
  const std::string name = viz::describe(maps, choice);
  const std::string heading = name + " (row attends to column)";
  const AttentionMatrix map = select_map(maps, choice);
  std::vector<std::string> words;  // XML allows no control characters
  std::vector<std::string> labels;
  for (const Word& word : sentence.sentence->words) {
    words.push_back(viz::printable(word.form));
    labels.push_back(viz::fit_width(words.back(), kMaxLabelColumns));
  }
  const Layout layout = make_layout(labels);
  const double heading_width = 2 * kMargin + viz::display_width(heading) * kCharWidth;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
      << number(std::max(layout.width(), heading_width)) << "\" height=\""
      << number(layout.height()) << "\" font-family=\"DejaVu Sans Mono, monospace\" "
      << "font-size=\"12\">\n"
      << "<title>sawtag attention, " << viz::escape_markup(name) << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << "<text x=\"" << number(kMargin) << "\" y=\"18\" font-weight=\"bold\">"
      << viz::escape_markup(heading) << "</text>\n";
  write_labels(out, layout, labels);
  write_cells(out, layout, map, words);
  write_colour_bar(out, layout);
  out << "</svg>\n";
}

}  // namespace sawtag
