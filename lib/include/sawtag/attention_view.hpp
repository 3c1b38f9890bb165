// Pictures of the attention weights the Tagger captures (TagOptions::capture_attention): a heat
// map for the terminal, one self-contained HTML page, and a standalone SVG heat map. These only
// format; the caller tags and decides things like colour (NO_COLOR, is stdout a terminal).
// What each shows is described in docs/cli.md ("sawtag attention") and docs/attention-format.md.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "sawtag/explanation.hpp"
#include "sawtag/output.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {

inline constexpr int kLastLayer = -1;       // MapChoice::layer: the layer nearest the output
inline constexpr int kAverageOfHeads = -1;  // MapChoice::head: the mean of the layer's heads

// Which n x n map to draw. Layers and heads are counted from 0 here (as in the attention file);
// the CLI and the pictures count them from 1.
struct MapChoice {
  int layer = kLastLayer;
  int head = kAverageOfHeads;
};

// One n x n attention map: at(i, j) is how much word i attends to word j; each row sums to 1.
struct AttentionMatrix {
  int num_words = 0;
  std::vector<float> weights;  // row-major [num_words, num_words]

  float at(int i, int j) const {
    return weights[static_cast<std::size_t>(i) * static_cast<std::size_t>(num_words) +
                   static_cast<std::size_t>(j)];
  }
};

// The map `choice` names, resolved against `maps` (kLastLayer, kAverageOfHeads). Throws
// InputError naming the layer or head when it does not exist.
AttentionMatrix select_map(const AttentionMaps& maps, MapChoice choice);

// The word each word attends to most in `map`: result[i] = argmax_j map.at(i, j) (the first
// such j on a tie).
std::vector<int> most_attended(const AttentionMatrix& map);

enum class Shading {
  blocks,     // ░ ▒ ▓ █: plain text, for NO_COLOR, files and pipes
  colors256,  // background colours of the 256-colour palette (ANSI escapes)
};

struct TerminalViewOptions {
  MapChoice map;
  Shading shading = Shading::blocks;
  // The heat map shows words [first_word, first_word + max_words) on both axes: a longer
  // sentence is windowed, with a line saying which words are shown and how to see others.
  int first_word = 0;
  int max_words = 40;
  std::string window_hint;  // appended to that line, e.g. how the caller's user picks a window
};

// Writes one sentence's view (`number` counts sentences from 1, for its heading): the words with
// their tags, the heat map `options.map` picks with the words as row and column labels, and, for
// every word, the word it attends to most in each head of that layer. Throws InputError when the
// map does not exist.
void write_terminal_view(std::ostream& out, const TaggedSentence& sentence, int number,
                         const TerminalViewOptions& options);

struct HtmlPageOptions {
  std::string title = "sawtag attention";
  MapChoice first_shown{kLastLayer, 0};  // the map selected when the page opens (a real head)
  // When set, one per sentence (explain_tags of its words; num_words 0 for none): clicking a
  // word of a sentence with maps shows its explanation beside the maps, as `sawtag explain`
  // does. Must outlive the call.
  const std::vector<SentenceExplanation>* explanations = nullptr;
};

// Writes one self-contained HTML page (no network, no external file) with a section per
// sentence: the words with their tags, a thumbnail of every layer and head, a heat map per
// layer and head with a selector (hovering a cell shows the two words and the weight), and
// lines from each word to the words it attends to, line strength = weight; with
// options.explanations, a panel with the explanation of the word clicked (the page's address
// may name one: "page.html#explain=1-4" opens word 4 of sentence 1). Every word is escaped; the
// weights travel inside the page as the attention file's JSON (docs/attention-format.md), the
// explanations as `sawtag explain -f json --tags both` writes them (docs/explain-format.md).
// Sentences without words are left out.
void write_attention_page(std::ostream& out, const std::vector<TaggedSentence>& sentences,
                          const HtmlPageOptions& options);

// Writes the heat map `choice` picks for `sentence` as a standalone SVG document, with the words
// as row and column labels and the weight of each cell in its <title>. Throws InputError when
// the map does not exist.
void write_attention_svg(std::ostream& out, const TaggedSentence& sentence, MapChoice choice);

}  // namespace sawtag
