// One training sentence through the network: forward in training mode, loss, backward.
#pragma once

#include <random>
#include <vector>

#include "sawtag/features.hpp"
#include "sawtag/model.hpp"

namespace sawtag::train {

// A treebank sentence as the network sees it; tags are indices into the model's tag sets
// (-1 = a tag the model does not know, ignored by the loss).
struct Example {
  std::vector<WordFeatures> words;
  std::vector<int> upos;
  std::vector<int> xpos;
};

struct StepOptions {
  float dropout = 0.0f;
  float label_smoothing = 0.0f;
};

// Adds the gradient of the sentence's summed UPOS + XPOS loss to `gradients` and returns that
// loss. `model` is only read.
double accumulate_gradients(const Model& model, const Example& example, const StepOptions& options,
                            std::mt19937_64& rng, Parameters& gradients);

}  // namespace sawtag::train
