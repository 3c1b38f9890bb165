// Multi-head scaled dot-product self-attention with an optional learned relative-position bias.
//
// For head h (columns [h * d_k, (h + 1) * d_k) of Q, K, V, with d_k = d_model / num_heads):
//   scores_ij = q_i . k_j / sqrt(d_k) + relative_bias[h][clip(j - i, -R, R) + R]
//   alpha_ij  = softmax_j(scores_ij)
//   head_i    = sum_j alpha_ij v_j
// and the output is concat(heads) W_o + b_o. The bias term is present only when
// config.relative_position (R = config.max_relative_distance).
#pragma once

#include <vector>

#include "nn/matrix.hpp"
#include "nn/segments.hpp"
#include "sawtag/config.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::nn {

// Rows are the words of every sentence of a batch (nn/segments.hpp); a word attends only to
// the words of its own sentence.
struct AttentionCache {
  Segments segments;
  Matrix input;    // [rows, d_model]: x, the input of the Q, K, V projections
  Matrix queries;  // [rows, d_model]: x W_q + b_q
  Matrix keys;     // [rows, d_model]
  Matrix values;   // [rows, d_model]
  // sentences x num_heads of [n_s, n_s]: alpha of head h of sentence s at [s * num_heads + h].
  std::vector<Matrix> probabilities;
  Matrix heads;  // [rows, d_model]: concatenated head outputs (input of W_o)
};

// x: [rows, d_model] -> [rows, d_model]. With `cache`, everything backward needs is kept there
// (including the attention probabilities).
Matrix attention_forward(const AttentionParameters& parameters, const ModelConfig& config,
                         const Matrix& x, const Segments& segments, AttentionCache* cache);

// One sentence: x: [n, d_model] -> [n, d_model]; cache->probabilities[h] is head h's alpha.
Matrix attention_forward(const AttentionParameters& parameters, const ModelConfig& config,
                         const Matrix& x, AttentionCache* cache);

// d_y: [rows, d_model] -> d_x: [rows, d_model]; adds into the gradients of W_q, W_k, W_v, W_o,
// their biases and the relative bias.
Matrix attention_backward(const AttentionParameters& parameters, const ModelConfig& config,
                          const AttentionCache& cache, const Matrix& d_y,
                          AttentionParameters& gradients);

// Index into a row of relative_bias for query i and key j: clip(j - i, -R, R) + R.
int relative_bias_index(int query, int key, int max_relative_distance);

}  // namespace sawtag::nn
