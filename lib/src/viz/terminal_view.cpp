// The terminal view of `sawtag attention`: the sentence with its tags, a heat map of one layer
// and head (or the mean of a layer's heads) with the words on both axes, and each word's most
// attended word in every head of that layer. docs/cli.md ("sawtag attention") shows an example.
#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "sawtag/attention_view.hpp"
#include "sawtag/sentence.hpp"
#include "viz/attention_map.hpp"
#include "viz/display_text.hpp"

namespace sawtag {
namespace {

using viz::align_left;
using viz::align_right;
using viz::display_width;
using viz::fit_width;

constexpr int kMaxLabelWidth = 12;  // columns for a word labelling a row
constexpr int kMaxColumnLabelWidth = 20;
constexpr int kMaxTableWordWidth = 10;  // in the most-attended table
constexpr const char* kCellGap = " ";   // between two cells of two columns each

// Block shading: weights below the first bound are blank.
struct Shade {
  float from;
  const char* cell;
};
constexpr Shade kShades[] = {{0.6f, "██"}, {0.4f, "▓▓"}, {0.2f, "▒▒"}, {0.05f, "░░"}};
constexpr const char* kShadingLegend =
    "shading: blank < 0.05 ≤ ░ < 0.2 ≤ ▒ < 0.4 ≤ ▓ < 0.6 ≤ █ (weights from 0 to 1)";

// 256-colour palette, white to dark blue in nine steps of 1/9; weights below 0.05 are blank.
constexpr int kColours[] = {189, 153, 117, 75, 33, 27, 26, 19, 17};
constexpr float kBlankBelow = 0.05f;

std::string colour_cell(int colour) { return "\x1b[48;5;" + std::to_string(colour) + "m  \x1b[0m"; }

std::string cell(float weight, Shading shading) {
  if (shading == Shading::blocks) {
    for (const Shade& shade : kShades) {
      if (weight >= shade.from) return shade.cell;
    }
    return "  ";
  }
  if (weight < kBlankBelow) return "  ";
  const int step = std::min(8, static_cast<int>(weight * 9.0f));
  return colour_cell(kColours[step]);
}

std::string legend(Shading shading) {
  if (shading == Shading::blocks) return kShadingLegend;
  std::string line = "colours: blank < 0.05, then 0 ";
  for (const int colour : kColours) line += colour_cell(colour);
  return line + " 1 (weights from 0 to 1)";
}

std::string trim_right(std::string line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

// The words [first, last) of the heat map, as a terminal may print them.
struct Window {
  int first = 0;
  int last = 0;
  std::vector<std::string> words;  // all of the sentence's words, printable
  int label_width = 0;             // of the row labels

  std::string row_label(int i) const {
    return align_right(fit_width(words[i], kMaxLabelWidth), label_width);
  }
};

Window make_window(const Sentence& sentence, const TerminalViewOptions& options) {
  Window window;
  for (const Word& word : sentence.words) window.words.push_back(viz::printable(word.form));
  const int num_words = static_cast<int>(window.words.size());
  window.first = std::clamp(options.first_word, 0, std::max(0, num_words - 1));
  window.last = std::min(num_words, window.first + std::max(1, options.max_words));
  for (int i = window.first; i < window.last; ++i) {
    window.label_width =
        std::max(window.label_width, display_width(fit_width(window.words[i], kMaxLabelWidth)));
  }
  return window;
}

void write_heading(std::ostream& out, const TaggedSentence& tagged, int number,
                   const Window& window) {
  std::string text = viz::printable(comment_value(*tagged.sentence, "text"));
  if (text.empty()) {
    for (const std::string& word : window.words) text += (text.empty() ? "" : " ") + word;
  }
  out << "sentence " << number << ": " << text << '\n';
  std::string tagged_line;
  for (std::size_t i = 0; i < window.words.size(); ++i) {
    if (i > 0) tagged_line += ' ';
    tagged_line += window.words[i] + '/' + viz::printable(tagged.result->words[i].upos);
  }
  out << tagged_line << "\n\n";
}

void write_window_note(std::ostream& out, const Window& window,
                       const TerminalViewOptions& options) {
  const int num_words = static_cast<int>(window.words.size());
  if (window.first == 0 && window.last == num_words) return;
  out << "words " << window.first + 1 << "-" << window.last << " of " << num_words
      << " shown (attention to the others is left out)";
  if (!options.window_hint.empty()) out << "; " << options.window_hint;
  out << '\n';
}

// Column j's label, drawn as a staircase above the grid:
//          ┌ I
//          │  ┌ saw
void write_column_labels(std::ostream& out, const Window& window) {
  const std::string indent(static_cast<std::size_t>(window.label_width) + 2, ' ');
  for (int j = window.first; j < window.last; ++j) {
    std::string line = indent;
    for (int k = window.first; k < j; ++k) line += "│  ";
    line += "┌ " + fit_width(window.words[j], kMaxColumnLabelWidth);
    out << line << '\n';
  }
}

void write_grid(std::ostream& out, const Window& window, const AttentionMatrix& map,
                Shading shading) {
  write_column_labels(out, window);
  for (int i = window.first; i < window.last; ++i) {
    std::string line = window.row_label(i) + "  ";
    for (int j = window.first; j < window.last; ++j) {
      if (j > window.first) line += kCellGap;
      line += cell(map.at(i, j), shading);
    }
    out << trim_right(line) << '\n';
  }
  out << legend(shading) << '\n';
}

// For each word of the window, the word it attends to most in each head of `layer`:
//           head 1  head 2
//       I   saw     I
void write_most_attended(std::ostream& out, const Window& window, const AttentionMaps& maps,
                         int layer) {
  out << "\nmost attended word in each head of layer " << layer + 1 << ":\n";
  std::vector<std::vector<int>> targets;  // [head][word]
  int column_width = static_cast<int>(std::string("head ").size()) +
                     static_cast<int>(std::to_string(maps.num_heads).size());
  for (int head = 0; head < maps.num_heads; ++head) {
    targets.push_back(most_attended(select_map(maps, MapChoice{layer, head})));
  }
  for (const std::string& word : window.words) {
    column_width = std::max(column_width, display_width(fit_width(word, kMaxTableWordWidth)));
  }
  std::string header(static_cast<std::size_t>(window.label_width) + 2, ' ');
  for (int head = 0; head < maps.num_heads; ++head) {
    header += align_left("head " + std::to_string(head + 1), column_width + 2);
  }
  out << trim_right(header) << '\n';
  for (int i = window.first; i < window.last; ++i) {
    std::string line = window.row_label(i) + "  ";
    for (int head = 0; head < maps.num_heads; ++head) {
      const std::string& target = window.words[static_cast<std::size_t>(targets[head][i])];
      line += align_left(fit_width(target, kMaxTableWordWidth), column_width + 2);
    }
    out << trim_right(line) << '\n';
  }
}

}  // namespace

void write_terminal_view(std::ostream& out, const TaggedSentence& sentence, int number,
                         const TerminalViewOptions& options) {
  const Window window = make_window(*sentence.sentence, options);
  write_heading(out, sentence, number, window);
  if (window.words.empty()) return;
  const AttentionMaps& maps = sentence.result->attention;
  if (!viz::has_maps(maps)) {
    out << viz::kNoMapsNote << '\n';
    return;
  }
  const MapChoice choice = viz::resolve(maps, options.map);
  out << viz::describe(maps, choice)
      << " (row: the word attending, column: the word attended to)\n";
  write_window_note(out, window, options);
  write_grid(out, window, select_map(maps, choice), options.shading);
  write_most_attended(out, window, maps, choice.layer);
}

}  // namespace sawtag
