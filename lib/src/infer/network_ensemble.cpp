#include "infer/network_ensemble.hpp"

#include <algorithm>
#include <cstddef>

#include "sawtag/error.hpp"

namespace sawtag::infer {

NetworkEnsemble::NetworkEnsemble(const Model& model, Precision precision) {
  networks_.push_back(std::make_unique<const InferenceNetwork>(model, precision));
  for (std::size_t m = 0; m < model.ensemble.size(); ++m) {
    const Model& member = *model.ensemble[m];
    if (!same_tag_sets(member, model)) {
      throw ModelError("Tagger: tagger " + std::to_string(m + 2) +
                       " of the ensemble has other tag sets than the first");
    }
    networks_.push_back(std::make_unique<const InferenceNetwork>(member, precision));
  }
  max_window_ = networks_.front()->max_window();
  for (const auto& network : networks_) max_window_ = std::min(max_window_, network->max_window());
}

template <class RunOne>
void NetworkEnsemble::average(std::vector<float>& logits, RunOne&& one) const {
  one(*networks_.front(), logits);
  if (networks_.size() == 1) return;
  thread_local std::vector<float> more;
  for (std::size_t m = 1; m < networks_.size(); ++m) {
    one(*networks_[m], more);
    if (more.size() != logits.size()) throw Error("NetworkEnsemble: taggers gave other shapes");
    for (std::size_t i = 0; i < logits.size(); ++i) logits[i] += more[i];
  }
  const float inverse = 1.0f / static_cast<float>(networks_.size());
  for (float& logit : logits) logit *= inverse;
}

void NetworkEnsemble::forward(const std::vector<Window>& windows, std::vector<float>& logits,
                              bool morphology) const {
  if (networks_.size() == 1) {
    networks_.front()->forward(windows, logits, morphology);
    return;
  }
  // The further taggers capture no attention.
  std::vector<Window> plain = windows;
  for (Window& window : plain) window.attention = nullptr;
  bool first = true;
  average(logits, [&](const InferenceNetwork& network, std::vector<float>& out) {
    network.forward(first ? windows : plain, out, morphology);
    first = false;
  });
}

void NetworkEnsemble::forward_masked(const std::vector<std::string>& words,
                                     const MaskedCopies& copies,
                                     std::vector<float>& logits) const {
  average(logits, [&](const InferenceNetwork& network, std::vector<float>& out) {
    network.forward_masked(words, copies, out);
  });
}

}  // namespace sawtag::infer
