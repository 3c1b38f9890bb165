// Refusing a network that computes NaN or infinity. The loader checks that every weight is
// finite, but finite weights can still overflow: one attention weight of -1.5e38 in an otherwise
// valid file makes every score NaN, and the tagger would then tag every word alike with no
// probability. A Tagger probes its network once when built, and checks each word's scores.
#pragma once

#include "infer/network_ensemble.hpp"
#include "sawtag/model.hpp"

namespace sawtag::infer {

// Runs a fixed probe sentence, a few of the vocabulary's words and the model's self-test
// sentences through `network` (built from `model`); throws ModelError when any score is NaN or
// infinite, naming the tensor with the largest weight. About a millisecond.
void probe_network(const NetworkEnsemble& network, const Model& model);

// Throws ModelError when one of a word's `count` scores (logits) is NaN or infinite: a word the
// probe did not reach (its own embedding row) must not be tagged silently either.
void require_finite_scores(const float* logits, int count);

}  // namespace sawtag::infer
