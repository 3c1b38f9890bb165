// Refusing a network that computes NaN or infinity. The loader checks that every weight is
// finite, but finite weights can still overflow: one attention weight of -1.5e38 in an otherwise
// valid file makes every score NaN, and the tagger would then tag every word alike with no
// probability. A Tagger probes its network once when built, and checks each word's scores.
#pragma once

#include "infer/network_ensemble.hpp"
#include "sawtag/model.hpp"

namespace sawtag::infer {

// Runs 32 words through `network` (built from `model`): a fixed probe sentence and the first
// words of the vocabulary, as one window; throws ModelError when any score is NaN or infinite,
// naming the tensor with the largest weight. About 1 ms for the shipped English model (the
// self-tests, which the Tagger runs next, are checked word by word: require_finite_scores).
void probe_network(const NetworkEnsemble& network, const Model& model);

// Throws ModelError when one of a word's `count` scores (logits) is NaN or infinite: a word the
// probe did not reach (its own embedding row) must not be tagged silently either.
void require_finite_scores(const float* logits, int count);

}  // namespace sawtag::infer
