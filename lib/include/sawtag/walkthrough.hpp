// Every step of self-attention for one sentence, with the model's own numbers: the textbook's
// a_i, e_i, q_i = a_i W^q, k_i, v_i, the scores alpha_ij = q_i . k_j / sqrt(d), the weights
// alpha'_ij = softmax_j, the head outputs b_i = sum_j alpha'_ij v_j, and the heads
// concatenated times W^o, layer by layer and head by head, as the tagger computes them.
// `sawtag walkthrough` shows them (walkthrough_view.hpp); docs/walkthrough-format.md defines
// the JSON and docs/walkthrough.md says where this model differs from the textbook.
#pragma once

#include <string>
#include <vector>

#include "sawtag/tagger.hpp"

namespace sawtag {

// A matrix of numbers, row-major: at(r, c) = values[r * cols + c]. A vector is one row.
struct StepMatrix {
  int rows = 0;
  int cols = 0;
  std::vector<float> values;

  float at(int row, int column) const {
    return values[static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) +
                  static_cast<std::size_t>(column)];
  }
};

// One head of one layer; n words, d_model, d = d_model / num_heads (the head size).
struct HeadSteps {
  int head = 0;              // counted from 0
  StepMatrix w_q, w_k, w_v;  // [d_model, d]: the head's columns of the layer's W^q, W^k, W^v
  StepMatrix b_q, b_k, b_v;  // [1, d]
  StepMatrix q, k, v;        // [n, d]: a W^q + b^q, ...
  StepMatrix scores;         // [n, n]: q k^T / sqrt(d)
  // [n, n]: the learned relative-position bias added to scores[i][j] (bias of clip(j - i, -R,
  // R)); zeros for a model without one.
  StepMatrix position_bias;
  StepMatrix weights;  // [n, n]: softmax of each row of scores + position_bias (alpha')
  StepMatrix b;        // [n, d]: weights v
};

// One encoder layer (pre-norm: x + attention(LN_1(x)), then x + FFN(LN_2(x))).
struct LayerSteps {
  int layer = 0;  // counted from 0
  StepMatrix a;   // [n, d_model]: LN_1 of the layer's input, the rows that enter attention
  std::vector<HeadSteps> heads;  // those asked for (WalkthroughOptions::head), in order
  StepMatrix concat;             // [n, d_model]: every head's b side by side, head 1 first
  StepMatrix w_o;                // [d_model, d_model]
  StepMatrix b_o;                // [1, d_model]
  StepMatrix output;             // [n, d_model]: concat W^o + b^o, before the residual
};

// The sizes and options that decide what the steps are.
struct WalkthroughModel {
  int d_model = 0;
  int num_heads = 0;
  int head_dim = 0;  // d
  int num_layers = 0;
  bool relative_position = false;
  int max_relative_distance = 0;  // R, when relative_position
  float layer_norm_epsilon = 0.0f;
  int num_taggers = 1;  // more than 1: the tags average several taggers' logits; steps: the first's
};

struct Walkthrough {
  WalkthroughModel model;
  std::vector<std::string> words;
  // What Tagger::tag gives the sentence (all taggers of an ensemble): UPOS and its probability.
  std::vector<std::string> tags;
  std::vector<float> probabilities;
  StepMatrix projected;  // [n, d_model]: the word features times the input projection, + bias
  StepMatrix position;   // [n, d_model]: e_i, the sinusoidal position vectors
  StepMatrix a;          // [n, d_model]: projected + position, the input of layer 1
  std::vector<LayerSteps> layers;  // those asked for (WalkthroughOptions::layer), in order
  // [n, num_upos]: the first tagger's UPOS logits from these steps (final norm, classifier):
  // what its network gives, to float32 rounding.
  StepMatrix upos_logits;
};

inline constexpr int kEveryLayer = -1;  // WalkthroughOptions::layer
inline constexpr int kEveryHead = -1;   // WalkthroughOptions::head

struct WalkthroughOptions {
  int layer = kEveryLayer;  // only this layer's steps, counted from 0
  int head = kEveryHead;    // only this head's steps in each layer, counted from 0
};

// Runs the sentence through the tagger's first network in float32, keeping every step, and
// tags it with the tagger. The steps are computed from the model's float32 weights by the
// same functions training uses (lib/src/nn), which the tests hold to the tagging network. Throws
// InputError when the sentence is empty or longer than tagger.max_window() (a longer one is
// tagged in overlapping windows, and no single set of steps describes it), and when
// options.layer or options.head is not one of the model's.
Walkthrough walk_through(const Tagger& tagger, const std::vector<std::string>& words,
                         const WalkthroughOptions& options = {});

}  // namespace sawtag
