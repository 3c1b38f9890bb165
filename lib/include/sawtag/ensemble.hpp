// Several models tagging as one, to make silver training data for a smaller student
// (`sawtag silver`, then `sawtag train --silver`): each word gets the tag with the highest
// mean probability over the models, each model's probabilities softmax(logits / T) with its
// own calibration.
#pragma once

#include <vector>

#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {

struct EnsembleOptions {
  // A word whose winning mean probability is below this gets "_" for that tag set, which
  // `sawtag train` leaves out of the loss. 0 = every word gets a tag.
  float min_probability = 0.0f;
  int threads = 2;  // sentences are split between threads; the result does not depend on it
};

// What ensemble_tag did, for the caller to report.
struct EnsembleReport {
  std::size_t words = 0;
  std::size_t upos_kept = 0;  // words with a UPOS tag (mean probability >= min_probability)
  std::size_t xpos_kept = 0;
};

// Writes the ensemble's UPOS and XPOS into every word of `sentences` (the other columns stay).
// Every model must have the same UPOS and XPOS tag sets, in the same order; throws InputError
// naming the first that differs. An empty `models` is an InputError too.
EnsembleReport ensemble_tag(const std::vector<const Tagger*>& models,
                            std::vector<Sentence>& sentences, const EnsembleOptions& options);

}  // namespace sawtag
