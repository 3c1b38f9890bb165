// The character CNN of nn/embedding.hpp for inference, as table lookups.
//
// A width-w convolution at position p is b + sum_k E[c_{p+k}] W[k] (W[k]: the rows of the
// convolution's weight for offset k). E[c] W[k] depends only on the character and the offset,
// so it is computed once for every character of the vocabulary at load, and a word's
// convolution becomes a few vector additions per position.
#pragma once

#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/tensor.hpp"

namespace sawtag::infer {

class CharEncoder {
 public:
  explicit CharEncoder(const Model& model);

  // char_ids (as word_features gives them) -> out[0, char_feature_dim): per width, the ReLU of
  // each filter's maximum over positions.
  void encode(const std::vector<int>& char_ids, float* out) const;

 private:
  const float* product(int width_index, int offset, int char_id) const;

  std::vector<int> widths_;
  std::vector<int> first_offset_;  // per width: its first row of products in table_
  int filters_ = 0;
  int vocabulary_ = 0;
  std::vector<const float*> biases_;
  TensorData table_;  // [sum of widths][char vocabulary][filters]
};

}  // namespace sawtag::infer
