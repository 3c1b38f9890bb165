// The networks of a model's taggers (Model::ensemble) run as one: each window through every
// tagger's network, their logits averaged. What a Tagger and an explanation run, so that tags,
// probabilities, top-k and occlusion all read the mean. A model of one tagger runs its one
// network, and gives its logits unchanged.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "infer/inference_network.hpp"
#include "sawtag/model.hpp"
#include "sawtag/task_runner.hpp"

namespace sawtag::infer {

class NetworkEnsemble {
 public:
  // The networks of `model` and of each of model.ensemble, which must outlive this. Throws
  // ModelError for a tagger whose tag sets differ from the model's. With `run_tasks`, the
  // networks are built as tasks of it (sawtag/task_runner.hpp).
  NetworkEnsemble(const Model& model, Precision precision, const TaskRunner& run_tasks = {});

  // The shortest of the taggers' windows.
  int max_window() const { return max_window_; }
  // Logit columns per word: UPOS tags, then XPOS tags (the same for every tagger).
  int num_logits() const { return networks_.front()->num_logits(); }
  int size() const { return static_cast<int>(networks_.size()); }

  // InferenceNetwork::forward of every tagger, averaged. A window's attention is the first
  // tagger's. Thread-safe.
  void forward(const std::vector<Window>& windows, std::vector<float>& logits,
               bool morphology = true) const;
  // InferenceNetwork::forward_masked of every tagger, averaged. Thread-safe.
  void forward_masked(const std::vector<std::string>& words, const MaskedCopies& copies,
                      std::vector<float>& logits) const;

 private:
  // Runs `one(network, logits)` for every network; logits = the mean of what they wrote.
  template <class RunOne>
  void average(std::vector<float>& logits, RunOne&& one) const;

  std::vector<std::unique_ptr<const InferenceNetwork>> networks_;
  int max_window_ = 0;
};

}  // namespace sawtag::infer
