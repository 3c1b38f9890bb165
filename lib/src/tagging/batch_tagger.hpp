// The sentences of one batch cut into windows, run through the network about
// TagOptions::batch_words words at a time, and each word's tags taken from the logits of the
// window that owns it: the work of Tagger::tag_batch.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "infer/network_ensemble.hpp"
#include "infer/windows.hpp"
#include "sawtag/tagger.hpp"
#include "tagging/lemma_choice.hpp"

namespace sawtag {

class BatchTagger {
 public:
  // Everything given must outlive the BatchTagger; results[s] receives sentence s's tags.
  BatchTagger(const Model& model, const infer::NetworkEnsemble& network, const LemmaChooser& lemmas,
              const TagOptions& options, std::vector<TagResult>& results)
      : model_(model), network_(network), lemmas_(lemmas), options_(options), results_(results) {}

  // Adds sentence `sentence`'s windows (running those gathered so far when the batch is full).
  // `words` must outlive the next run().
  void add(const std::vector<std::string>& words, std::size_t sentence);
  // Runs the windows gathered so far and hands each word its tags.
  void run();
  void reserve(std::size_t sentences) { plans_.resize(sentences); }

 private:
  const Model& model_;
  const infer::NetworkEnsemble& network_;
  const LemmaChooser& lemmas_;
  const TagOptions& options_;
  std::vector<TagResult>& results_;
  std::vector<infer::WindowPlan> plans_;             // per sentence
  std::vector<infer::Window> windows_;               // waiting to run
  std::vector<std::pair<std::size_t, int>> owners_;  // per waiting window: sentence, window
  int rows_ = 0;
  std::vector<float> logits_;
  std::vector<float> probabilities_;
};

}  // namespace sawtag
