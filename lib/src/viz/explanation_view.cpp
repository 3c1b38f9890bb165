// The terminal view of `sawtag explain`: each word's tag and probability, then a bar per other
// word, the strongest influence first. docs/cli.md ("sawtag explain") shows an example:
//   5 can  NOUN 0.914; its own form masked: drop +0.130, then NOUN
//       a    +0.800 ███████████████████▎     then AUX
//       you   0.000                          then NOUN
#include "sawtag/explanation_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "viz/display_text.hpp"

namespace sawtag {
namespace {

using viz::align_left;
using viz::display_width;
using viz::fit_width;

constexpr int kBarWidth = 24;       // columns of a bar for a drop of 1 (or -1)
constexpr int kMaxBars = 8;         // per word; the weaker others are summed up in one line
constexpr int kMaxLabelWidth = 14;  // columns for a word labelling a bar
// Eighths of a block, for a positive bar's last column: "" "▏" "▎" ... "▉".
constexpr const char* kEighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
constexpr const char* kPositiveColour = "\x1b[38;5;25m";   // blue: the word supports the tag
constexpr const char* kNegativeColour = "\x1b[38;5;160m";  // red: masking it helps the tag
constexpr const char* kResetColour = "\x1b[0m";

// "+0.610", "-0.004"; " 0.000" when it rounds to zero either way.
std::string signed_drop(float drop) {
  if (std::fabs(drop) < 0.0005f) return " 0.000";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.3f", static_cast<double>(drop));
  return buffer;
}

std::string probability(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", static_cast<double>(value));
  return buffer;
}

// A positive drop is a solid bar in eighths of a column, a negative one light shade (░) in whole
// columns, so that the sign shows without colours (NO_COLOR). Both are padded to kBarWidth + 1
// columns.
std::string bar(float drop, Shading shading) {
  const float length = std::min(1.0f, std::fabs(drop)) * kBarWidth;
  std::string text;
  int columns = 0;
  if (drop >= 0) {
    const int eighths = static_cast<int>(std::lround(length * 8.0f));
    for (; columns < eighths / 8; ++columns) text += "█";
    if (eighths % 8 != 0) {
      text += kEighths[eighths % 8];
      ++columns;
    }
  } else {
    for (; columns < static_cast<int>(std::lround(length)); ++columns) text += "░";
  }
  if (shading == Shading::colors256 && columns > 0) {
    text = (drop >= 0 ? kPositiveColour : kNegativeColour) + text + kResetColour;
  }
  return text + std::string(static_cast<std::size_t>(kBarWidth + 1 - columns), ' ');
}

struct Shown {
  ExplainedTag tag;
  bool both;  // also the other tag (XPOS) in the header and the bars' ends
};

float drop_of(const Occlusion& occlusion, ExplainedTag tag) {
  return tag == ExplainedTag::upos ? occlusion.upos_drop : occlusion.xpos_drop;
}

const std::string& tag_when_masked(const Occlusion& occlusion, ExplainedTag tag) {
  return tag == ExplainedTag::upos ? occlusion.upos_when_masked : occlusion.xpos_when_masked;
}

// "5 can  NOUN 0.914; its own form masked: drop +0.130, then NOUN"
void write_word_heading(std::ostream& out, const std::vector<std::string>& words,
                        const SentenceExplanation& explanation, int word, Shown shown) {
  const WordTags& tags = explanation.tags.words[static_cast<std::size_t>(word)];
  const Occlusion& own = explanation.at(word, word);
  std::string line = std::to_string(word + 1) + " " + words[static_cast<std::size_t>(word)] + "  ";
  if (shown.tag == ExplainedTag::upos) {
    line += viz::printable(tags.upos) + " " + probability(tags.upos_probability);
  }
  if (shown.both || shown.tag == ExplainedTag::xpos) {
    line += std::string(shown.both ? " " : "") + viz::printable(tags.xpos) + " " +
            probability(tags.xpos_probability);
  }
  line += "; its own form masked: drop " + signed_drop(drop_of(own, shown.tag)) + ", then " +
          viz::printable(tag_when_masked(own, shown.tag));
  out << line << '\n';
}

// The bars of the other words, strongest first: at most kMaxBars, then one line for the rest.
void write_bars(std::ostream& out, const std::vector<std::string>& words,
                const SentenceExplanation& explanation, int word, Shown shown, Shading shading) {
  const std::vector<int> others = strongest_first(explanation, word, shown.tag);
  const std::size_t count = std::min(others.size(), static_cast<std::size_t>(kMaxBars));
  int label_width = 0;
  for (std::size_t k = 0; k < count; ++k) {
    label_width = std::max(
        label_width,
        display_width(fit_width(words[static_cast<std::size_t>(others[k])], kMaxLabelWidth)));
  }
  for (std::size_t k = 0; k < count; ++k) {
    const Occlusion& occlusion = explanation.at(word, others[k]);
    const float drop = drop_of(occlusion, shown.tag);
    std::string line =
        "    " +
        align_left(fit_width(words[static_cast<std::size_t>(others[k])], kMaxLabelWidth),
                   label_width) +
        "  " + signed_drop(drop) + " " + bar(drop, shading) +
        "then " + viz::printable(tag_when_masked(occlusion, shown.tag));
    if (shown.both) {
      line += " " + viz::printable(occlusion.xpos_when_masked) + " (XPOS drop " +
              signed_drop(occlusion.xpos_drop) + ")";
    }
    out << line << '\n';
  }
  if (others.size() > count) {
    const float weakest = std::fabs(drop_of(explanation.at(word, others[count]), shown.tag));
    out << "    ... and " << others.size() - count
        << " more, each |drop| <= " << probability(weakest) << '\n';
  }
}

}  // namespace

void write_explanation_view(std::ostream& out, const Sentence& sentence,
                            const SentenceExplanation& explanation, int number,
                            const ExplanationViewOptions& options) {
  check_explained_word(options, explanation.num_words);
  std::vector<std::string> words;
  for (const Word& word : sentence.words) words.push_back(viz::printable(word.form));
  std::string text = viz::printable(comment_value(sentence, "text"));
  if (text.empty()) {
    for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  }
  out << "sentence " << number << ": " << text << '\n';
  const Shown shown{options.tags == TagColumns::xpos ? ExplainedTag::xpos : ExplainedTag::upos,
                    options.tags == TagColumns::both};
  std::string tagged;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const WordTags& tags = explanation.tags.words[i];
    tagged += (i > 0 ? " " : "") + words[i] + '/' +
              viz::printable(shown.tag == ExplainedTag::upos ? tags.upos : tags.xpos);
  }
  out << tagged << '\n';
  for (int i = 0; i < explanation.num_words; ++i) {
    if (options.word != kEveryWord && i != options.word) continue;
    out << '\n';
    write_word_heading(out, words, explanation, i, shown);
    write_bars(out, words, explanation, i, shown, options.shading);
  }
}

}  // namespace sawtag
