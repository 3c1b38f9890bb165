// How a forward pass runs: inference (the default) or training with dropout.
#pragma once

#include <random>

namespace sawtag::nn {

struct ForwardOptions {
  // Training only: the probability of zeroing an activation (inverted dropout: survivors are
  // scaled by 1 / (1 - dropout_rate), so inference needs no rescaling). 0 = no dropout.
  float dropout_rate = 0.0f;
  // Required when dropout_rate > 0; the forward pass draws its masks from it, so the same seed
  // gives the same masks. Owned by the caller (one per thread).
  std::mt19937_64* random = nullptr;
  // Keep every layer's and head's attention probabilities in the output.
  bool capture_attention = false;

  bool training() const { return dropout_rate > 0.0f; }
};

}  // namespace sawtag::nn
