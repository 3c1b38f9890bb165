// The sentences of one batch cut into windows, run through the network about
// TagOptions::batch_words words at a time, and each word's tags taken from the logits of the
// window that owns it: the work of Tagger::tag_batch and of tag_in_tasks's tasks.
//
// A window of a long sentence asks the network for the logits of the words it owns alone
// (infer::Window::unwanted_before): its other words only lend their keys and values to the
// last layer's attention, the floats of the owned words are the whole window's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "infer/network_ensemble.hpp"
#include "infer/windows.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {

class BatchTagger {
 public:
  // `tagger` and `options` must outlive the BatchTagger.
  BatchTagger(const Tagger& tagger, const TagOptions& options);

  // Adds the windows of a sentence (one, unless it is long), whose tags go to `result`, sized
  // here. words and result must outlive the next run(), which add() calls itself when the
  // batch is full.
  void add(const std::vector<std::string>& words, TagResult& result);
  // Adds window `window` of `plan` (plan_windows of words, as add() plans them): the tags of the
  // words it owns go to result.words, already words.size() long, and no others. Lifetimes as
  // add()'s.
  void add_window(const std::vector<std::string>& words, const infer::WindowPlan& plan, int window,
                  TagResult& result);
  // Runs the windows gathered so far and hands each owned word its tags.
  void run();

 private:
  // add_window(), the window capturing its attention into `attention` when that is set.
  void push(const std::vector<std::string>& words, const infer::WindowPlan& plan, int window,
            TagResult& result, std::vector<float>* attention);
  // The tags of word `word` of window w from its row of logits.
  void tag_word(const float* row, std::size_t w, int word);

  const Model& model_;
  const infer::NetworkEnsemble& network_;
  const LemmaChooser& lemmas_;
  const TagOptions& options_;
  std::vector<infer::Window> windows_;  // waiting to run
  std::vector<TagResult*> results_;     // per waiting window: where its words' tags go
  int rows_ = 0;
  std::vector<float> logits_;
  std::vector<float> probabilities_;
};

}  // namespace sawtag
