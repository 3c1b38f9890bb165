// The character CNN of the embedding (nn/embedding.hpp), for every word of a batch at once.
//
// A width-w convolution at position p of a word is b + sum_k E[c_{p+k}] W[k], with W[k] the
// char_dim rows of the convolution's weight for offset k. E[c] W[k] depends only on the
// character and the offset, so the products for the whole character vocabulary are computed
// first, T_k = E W[k] ([char_vocab, filters], one matrix product per offset), and each position
// is a sum of w rows of those tables. Backward mirrors it: the gradient reaching a table row is
// summed per character (d_T_k), then d_E += d_T_k W[k]^T and d_W[k] += E^T d_T_k. Only the
// position where a filter peaked, and only where ReLU lets it through, gets gradient.
#pragma once

#include <vector>

#include "nn/matrix.hpp"
#include "sawtag/config.hpp"
#include "sawtag/features.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::nn {

struct CharCnnCache {
  std::vector<int> char_ids;    // every word's ids, padded to the widest convolution, in order
  std::vector<int> word_start;  // [words + 1]: word i's ids are [word_start[i], word_start[i+1])
  // Per width: [words * char_filters], the position (from the word's start) where each filter
  // peaked, or -1 where the maximum was not above 0 (ReLU: no gradient).
  std::vector<std::vector<int>> best_position;
};

// words: n words -> [n, char_feature_dim] (widths in config order, char_filters values each).
// Throws Error when a character id is outside the character table.
Matrix char_cnn_forward(const EncoderParameters& parameters, const ModelConfig& config,
                        const std::vector<WordFeatures>& words, CharCnnCache* cache);

// d_output: [n, char_feature_dim]; adds into char_embedding and the convolutions.
void char_cnn_backward(const EncoderParameters& parameters, const ModelConfig& config,
                       const CharCnnCache& cache, const Matrix& d_output,
                       EncoderParameters& gradients);

}  // namespace sawtag::nn
