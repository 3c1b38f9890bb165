// One batch of training sentences through the network at once: forward in training mode, loss,
// backward. All sentences' words are the rows of one matrix (nn/segments.hpp), so every linear
// map of the step is a single matrix product.
#pragma once

#include <array>
#include <random>
#include <vector>

#include "nn/loss.hpp"
#include "sawtag/features.hpp"
#include "sawtag/model.hpp"

namespace sawtag::train {

// A treebank sentence as the network sees it; tags are indices into the model's tag sets
// (-1 = a tag the model does not know, ignored by the loss).
struct Example {
  std::vector<WordFeatures> words;
  std::vector<int> upos;
  std::vector<int> xpos;
  // Indices into Model::feats and Model::lemma_rules (-1: unknown or no gold, ignored); empty
  // when the model has no such head.
  std::vector<int> feats;
  std::vector<int> lemma;
  // A teacher's distributions (distillation: train --silver with a soft-targets file), one per
  // head in the order UPOS, XPOS, FEATS, lemma rule, with the student's class indices and
  // already at the distillation temperature. A head with a row for every word is learnt from
  // them (its hard targets above are then all -1); one without rows (rows() == 0) is not.
  std::array<nn::SparseDistributions, 4> soft;
};

struct StepOptions {
  float dropout = 0.0f;
  float label_smoothing = 0.0f;
  float distillation_temperature = 1.0f;  // of Example::soft (nn::distillation_loss)
  float lemma_weight = 1.0f;  // the lemma-rule head's loss counts this many times
  // Only the morphology heads train (sawtag train --base): the gradient stops at the heads,
  // and the encoder's and the UPOS/XPOS heads' gradients are left as they are.
  bool morphology_heads_only = false;
};

// Adds the gradient of the summed UPOS + XPOS (+ FEATS + lemma_weight x lemma rule, where the
// model has those heads) loss of every example (cross-entropy to the gold tags, or the distillation loss to the
// teacher's distributions) to `gradients` and returns
// that loss. random[i] draws example i's dropout masks (one generator per example; unused
// without dropout), so each sentence gets the masks it would get alone. `model` is only read.
double accumulate_gradients(const Model& model, const std::vector<const Example*>& examples,
                            const StepOptions& options,
                            const std::vector<std::mt19937_64*>& random, Parameters& gradients);

}  // namespace sawtag::train
