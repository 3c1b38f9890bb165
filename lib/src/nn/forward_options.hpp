// How a forward pass runs: inference (the default) or training with dropout.
#pragma once

#include <random>
#include <vector>

namespace sawtag::nn {

struct ForwardOptions {
  // Training only: the probability of zeroing an activation (inverted dropout: survivors are
  // scaled by 1 / (1 - dropout_rate), so inference needs no rescaling). 0 = no dropout.
  float dropout_rate = 0.0f;
  // Required when dropout_rate > 0: one generator per sentence of the batch, owned by the
  // caller. Sentence s draws its masks from random[s] only, in the same order whatever else
  // is in the batch, so a sentence gets the same masks alone or batched, and the same seed
  // gives the same masks.
  std::vector<std::mt19937_64*> random;
  // Keep every layer's and head's attention probabilities in the output.
  bool capture_attention = false;

  bool training() const { return dropout_rate > 0.0f; }
};

}  // namespace sawtag::nn
