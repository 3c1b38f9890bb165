// What the library's own code (explain/explanation.cpp, tagging/ensemble.cpp,
// tagging/batch_tagger.cpp, train/teacher_distributions.cpp) needs of a Tagger
// beyond its public API: the network, to run a sentence's masked copies together, and the
// softmax that turns logits into the probabilities Tagger reports, so that both give the same
// floats.
#pragma once

#include <vector>

#include "infer/network_ensemble.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {

struct TaggerInternals {
  static const infer::NetworkEnsemble& network(const Tagger& tagger) { return *tagger.network_; }
  static const LemmaChooser& lemmas(const Tagger& tagger) { return *tagger.lemmas_; }
};

// softmax(logits / temperature) ([num_tags]) into `probabilities`: the probabilities of
// WordTags and TagOptions::top_k (tagger.cpp).
void tag_softmax(const float* logits, int num_tags, float temperature,
                 std::vector<float>& probabilities);

// The index of the largest of `count` > 0 finite logits (the first on a tie), found without a
// branch on each: the FEATS and lemma heads' hundreds of classes, every word.
int most_likely_class(const float* logits, int count);

// summed += tag_softmax(logits, temperature), for the mean of several models' probabilities
// (tagging/ensemble.cpp, train/teacher_distributions.cpp); scratch is working space.
inline void add_tag_probabilities(const std::vector<float>& logits, float temperature,
                                  std::vector<float>& scratch, std::vector<double>& summed) {
  if (logits.empty()) return;  // a head the model does not have
  tag_softmax(logits.data(), static_cast<int>(logits.size()), temperature, scratch);
  for (std::size_t c = 0; c < scratch.size(); ++c) summed[c] += scratch[c];
}

}  // namespace sawtag
