#include "infer/network_ensemble.hpp"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <utility>

#include "infer/kernels.hpp"
#include "sawtag/error.hpp"
#include "threads/independent_tasks.hpp"

namespace sawtag::infer {

NetworkEnsemble::NetworkEnsemble(const Model& model, Precision precision,
                                 const TaskRunner& run_tasks) {
  // Each network is built by a task of its own, which first checks its tagger's tag sets; the
  // errors are reported in the order a build in turn meets them.
  const std::size_t count = 1 + model.ensemble.size();
  std::vector<std::unique_ptr<const InferenceNetwork>> built(count);
  std::vector<std::function<void()>> tasks;
  for (std::size_t m = 0; m < count; ++m) {
    tasks.push_back([&, m] {
      const Model& tagger = m == 0 ? model : *model.ensemble[m - 1];
      if (m > 0 && !same_tag_sets(tagger, model)) {
        throw ModelError("Tagger: tagger " + std::to_string(m + 1) +
                         " of the ensemble has other tag sets than the first");
      }
      built[m] = std::make_unique<const InferenceNetwork>(tagger, precision);
    });
  }
  // The CPU level may be chosen by timing its kernels on first use: chosen before the tasks,
  // so that they cannot disturb the timing.
  if (run_tasks) kernels();
  const std::vector<std::exception_ptr> errors = run_independent(run_tasks, std::move(tasks));
  for (std::size_t m = 0; m < count; ++m) {
    rethrow_if_failed(errors, m);
    networks_.push_back(std::move(built[m]));
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
