// The terminal view of `sawtag walkthrough`: the steps of self-attention for one layer, one head
// and one followed word, in the textbook's order and names, with a "Model:" line at each step
// where sawtag's network differs from the textbook. Every line fits 80 columns.
#include "sawtag/walkthrough_view.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "sawtag/error.hpp"
#include "viz/display_text.hpp"
#include "viz/number_table.hpp"

namespace sawtag {
namespace {

using viz::TableRow;

constexpr int kLineWidth = 80;
constexpr int kWeightRowsShown = 3;  // rows of W^q, W^k, W^v, W^o shown
constexpr int kWordLabelWidth = 20;  // a word in running text is cut to this many columns
constexpr const char* kIndent = "   ";

// "[4 × 256]", with no-break spaces, so that wrapping never splits it.
std::string shape(int rows, int cols) {
  return "[" + std::to_string(rows) + "\u00a0×\u00a0" + std::to_string(cols) + "]";
}

std::string number(float value) { return viz::number_text(value); }

// `text` wrapped at spaces into lines of at most kLineWidth columns, the first starting with
// `first_prefix`, the others with `prefix` (each followed by a space unless empty).
void write_wrapped(std::ostream& out, const std::string& text, const std::string& first_prefix,
                   const std::string& prefix) {
  std::string line = first_prefix;
  bool empty = true;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find(' ', begin);
    if (end == std::string::npos) end = text.size();
    const std::string token = text.substr(begin, end - begin);
    begin = end + 1;
    if (token.empty()) continue;
    if (!empty && viz::display_width(line) + 1 + viz::display_width(token) > kLineWidth) {
      out << line << '\n';
      line = prefix;
      empty = true;
    }
    line += (empty && line.empty() ? "" : " ") + token;
    empty = false;
  }
  out << line << '\n';
}

class ViewWriter {
 public:
  ViewWriter(std::ostream& out, const Walkthrough& walk, const WalkthroughViewOptions& options)
      : out_(out),
        walk_(walk),
        layer_(walk.layers.front()),
        head_(layer_.heads.front()),
        word_(options.word == kLastWord ? static_cast<int>(walk.words.size()) - 1 : options.word) {
    style_.shading = options.shading;
    for (const std::string& word : walk.words) words_.push_back(viz::printable(word));
  }

  void write() {
    heading();
    input_step();
    normalised_step();
    projection_step();
    score_step();
    softmax_step();
    head_output_step();
    heads_step();
    tag_step();
  }

 private:
  std::string quoted_word(int i) const {
    return "\"" + viz::fit_width(words_[static_cast<std::size_t>(i)], kWordLabelWidth) + "\"";
  }
  void paragraph(const std::string& text) { write_wrapped(out_, text, "  ", "  "); }
  void model_note(const std::string& text) { write_wrapped(out_, text, "   Model:", "    "); }
  void step(int number, const std::string& title) {
    out_ << '\n';
    write_wrapped(out_, title, std::to_string(number) + ".", "  ");
  }

  std::vector<TableRow> word_rows(const StepMatrix& matrix) const {
    std::vector<TableRow> rows;
    for (int i = 0; i < matrix.rows; ++i) {
      const auto begin = matrix.values.begin() + static_cast<std::ptrdiff_t>(i) * matrix.cols;
      rows.push_back({words_[static_cast<std::size_t>(i)],
                      std::vector<float>(begin, begin + matrix.cols), i == word_});
    }
    return rows;
  }
  std::string columns_note(int cols) const {
    return cols > viz::kTableColumns ? ", first " + std::to_string(viz::kTableColumns) + " columns"
                                     : "";
  }
  // A matrix with a row per word, cut to its first columns.
  void word_matrix(const std::string& name, const StepMatrix& matrix) {
    out_ << kIndent << name << "  " << shape(matrix.rows, matrix.cols) << columns_note(matrix.cols)
         << '\n';
    viz::write_cut_table(out_, word_rows(matrix), style_);
  }
  // A weight matrix's first rows and columns, and the bias beside it.
  void weights(const std::string& name, const StepMatrix& matrix, const std::string& bias_name,
               const StepMatrix& bias) {
    const int shown = std::min(matrix.rows, kWeightRowsShown);
    out_ << kIndent << name << "  " << shape(matrix.rows, matrix.cols) << ", rows 1-" << shown
         << columns_note(matrix.cols) << "; " << bias_name << "  [" << bias.cols << "]\n";
    std::vector<TableRow> rows;
    for (int r = 0; r < shown; ++r) {
      const auto begin = matrix.values.begin() + static_cast<std::ptrdiff_t>(r) * matrix.cols;
      rows.push_back(
          {"row " + std::to_string(r + 1), std::vector<float>(begin, begin + matrix.cols), false});
    }
    rows.push_back({bias_name, bias.values, false});
    viz::write_cut_table(out_, rows, style_);
  }
  // An n x n matrix in full, the words on both axes.
  void word_by_word(const StepMatrix& matrix, bool shaded) {
    viz::TableStyle style = style_;
    style.shade_weights = shaded;
    viz::write_full_table(out_, word_rows(matrix), words_, style);
  }

  void heading() {
    std::string sentence;
    for (const std::string& word : words_) {
      sentence += (sentence.empty() ? "" : " ") + viz::fit_width(word, kWordLabelWidth);
    }
    write_wrapped(out_, sentence, "sawtag walkthrough:", " ");
    const WalkthroughModel& model = walk_.model;
    write_wrapped(
        out_,
        "Self-attention step by step, with the model's own numbers: layer " +
            std::to_string(layer_.layer + 1) + " of " + std::to_string(model.num_layers) +
            ", head " + std::to_string(head_.head + 1) + " of " + std::to_string(model.num_heads) +
            ", following word " + std::to_string(word_ + 1) + " " + quoted_word(word_) +
            " (▸). n = " + std::to_string(walk_.words.size()) + " words, d_model = " +
            std::to_string(model.d_model) + ", d = " + std::to_string(model.head_dim) +
            " (the head size: d_model / " + std::to_string(model.num_heads) +
            " heads). Wide matrices show their first " + std::to_string(viz::kTableColumns) +
            " columns; -f json has every number, --html FILE every layer and head.",
        "", "");
  }

  void input_step() {
    step(1, "Input vectors: a_i = x_i + e_i  " + shape(walk_.a.rows, walk_.a.cols));
    paragraph(
        "x_i: word i's features (its word vector, its characters and its shape) times the "
        "input projection W_in, plus b_in; e_i: the sinusoidal position vector of word i (i from "
        "0).");
    word_matrix("x", walk_.projected);
    word_matrix("e", walk_.position);
    word_matrix("a = x + e: the input of layer 1", walk_.a);
    if (layer_.layer > 0) {
      paragraph("Layers 1-" + std::to_string(layer_.layer) + " turn it into the input of layer " +
                std::to_string(layer_.layer + 1) +
                " (each as below, then a residual connection and a feed-forward network).");
    }
  }

  void normalised_step() {
    const std::string layer = std::to_string(layer_.layer + 1);
    step(2, "The rows that enter attention in layer " + layer + ": a_i");
    model_note("pre-norm layers: attention reads a_i = LN_1(x_i), the input normalised");
    word_matrix("a = LN_1(input of layer " + layer + ")", layer_.a);
  }

  void projection_step() {
    const int d = walk_.model.head_dim;
    const int first = head_.head * d;
    step(3,
         "Queries, keys and values: q_i = a_i W^q + b^q, k_i = a_i W^k + b^k, "
         "v_i = a_i W^v + b^v. Head " +
             std::to_string(head_.head + 1) + "'s W^q is columns " + std::to_string(first + 1) +
             "-" + std::to_string(first + d) + " of the layer's " +
             std::to_string(walk_.model.d_model) + " × " + std::to_string(walk_.model.d_model) +
             " W^q (and so for W^k, W^v).");
    weights("W^q", head_.w_q, "b^q", head_.b_q);
    weights("W^k", head_.w_k, "b^k", head_.b_k);
    weights("W^v", head_.w_v, "b^v", head_.b_v);
    word_matrix("q", head_.q);
    word_matrix("k", head_.k);
    word_matrix("v", head_.v);
  }

  void score_step() {
    const int d = walk_.model.head_dim;
    step(4, "Scores: α_i,j = q_i · k_j / √d, with √" + std::to_string(d) + " = " +
                number(std::sqrt(static_cast<float>(d))) +
                " (row i: the word that asks, column j: the word asked)  " +
                shape(head_.scores.rows, head_.scores.cols));
    word_by_word(head_.scores, false);
    if (!walk_.model.relative_position) return;
    model_note("a learned bias by distance j - i (clipped to ±" +
               std::to_string(walk_.model.max_relative_distance) + ") is added to α_i,j:");
    word_by_word(head_.position_bias, false);
  }

  void softmax_step() {
    const bool biased = walk_.model.relative_position;
    step(5, std::string("Weights: α'_i,j = softmax over j of ") +
                (biased ? "α_i,j + bias_i,j" : "α_i,j") +
                ", that is exp(s_i,j) / Σ_j' exp(s_i,j'); each row sums to 1  " +
                shape(head_.weights.rows, head_.weights.cols));
    word_by_word(head_.weights, true);
    const int n = head_.weights.cols;
    int best = 0;
    for (int j = 1; j < n; ++j) {
      if (head_.weights.at(word_, j) > head_.weights.at(word_, best)) best = j;
    }
    paragraph(quoted_word(word_) + " (word " + std::to_string(word_ + 1) +
              ") gives its largest weight, " + number(head_.weights.at(word_, best)) + ", to " +
              quoted_word(best) + " (word " + std::to_string(best + 1) + ").");
  }

  void head_output_step() {
    step(6, "Head output: b_i = Σ_j α'_i,j v_j  " + shape(head_.b.rows, head_.b.cols));
    std::string sum = "b_" + std::to_string(word_ + 1) + " =";
    for (int j = 0; j < head_.weights.cols; ++j) {
      sum += std::string(j > 0 ? " +" : "") + " " + number(head_.weights.at(word_, j)) + " v_" +
             std::to_string(j + 1);
    }
    paragraph(sum);
    word_matrix("b", head_.b);
  }

  void heads_step() {
    const WalkthroughModel& model = walk_.model;
    step(7, "All heads: output_i = [b_i^1 … b_i^" + std::to_string(model.num_heads) +
                "] W^o + b^o, the heads' b side by side times W^o  " +
                shape(layer_.output.rows, layer_.output.cols));
    const int first = head_.head * model.head_dim;
    word_matrix("concat (head " + std::to_string(head_.head + 1) + "'s b in columns " +
                    std::to_string(first + 1) + "-" + std::to_string(first + model.head_dim) + ")",
                layer_.concat);
    weights("W^o", layer_.w_o, "b^o", layer_.b_o);
    word_matrix("output = concat W^o + b^o", layer_.output);
    model_note("residual connection: the layer's input x_i is added to output_i");
    model_note("then a feed-forward network, pre-norm and residual: x + FFN(LN_2(x))");
  }

  void tag_step() {
    const auto word = static_cast<std::size_t>(word_);
    step(8, "Tag of " + quoted_word(word_) + " (word " + std::to_string(word_ + 1) +
                "): " + viz::printable(walk_.tags[word]) + ", probability " +
                number(walk_.probabilities[word]));
    std::string all;
    for (std::size_t i = 0; i < words_.size(); ++i) {
      all += " " + viz::fit_width(words_[i], kWordLabelWidth) + "/" + viz::printable(walk_.tags[i]);
    }
    paragraph("All:" + all);
    model_note("after layer " + std::to_string(walk_.model.num_layers) +
               ": a final layer norm, a linear classifier, softmax");
    if (walk_.model.num_taggers > 1) {
      model_note("the tag averages " + std::to_string(walk_.model.num_taggers) +
                 " taggers' logits; the steps above are the first's");
    }
  }

  std::ostream& out_;
  const Walkthrough& walk_;
  const LayerSteps& layer_;
  const HeadSteps& head_;
  int word_;
  std::vector<std::string> words_;  // printable
  viz::TableStyle style_;
};

}  // namespace

void check_followed_word(const Walkthrough& walk, int word) {
  const auto n = static_cast<int>(walk.words.size());
  if (word == kLastWord || (word >= 0 && word < n)) return;
  throw InputError("--word " + std::to_string(word + 1) + ": the sentence has " +
                   std::to_string(n) + (n == 1 ? " word" : " words"));
}

void write_walkthrough_view(std::ostream& out, const Walkthrough& walk,
                            const WalkthroughViewOptions& options) {
  if (walk.layers.empty() || walk.layers.front().heads.empty() || walk.words.empty()) {
    throw InputError("walkthrough view: no layer, head or word to show");
  }
  check_followed_word(walk, options.word);
  ViewWriter(out, walk, options).write();
}

}  // namespace sawtag
