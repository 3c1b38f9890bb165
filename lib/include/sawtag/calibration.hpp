// Honest confidences: how far the probabilities a tagger reports are from how often it is right
// (expected calibration error), and a temperature per classifier fitted on held-out gold words
// to bring them together (Guo et al. 2017, "On Calibration of Modern Neural Networks").
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {

// Words grouped by the probability reported for their chosen tag, in 10 bins of equal width
// ([0, 0.1), ..., [0.9, 1.0]).
class ReliabilityBins {
 public:
  static constexpr int kBins = 10;

  void add(double confidence, bool correct);

  // sum over bins of (words in bin / all words) * |accuracy in bin - mean confidence in bin|:
  // 0 when every reported probability is exactly as often right. 0 with no words.
  double expected_calibration_error() const;
  std::size_t words() const { return words_; }

 private:
  std::array<std::size_t, kBins> count_{};
  std::array<std::size_t, kBins> correct_{};
  std::array<double, kBins> confidence_{};
  std::size_t words_ = 0;
};

// The temperature T > 0 that minimises the negative log-likelihood of `gold` (tag indices, -1 =
// skip) under softmax(logits / T); logits: one row of num_tags scores per word, concatenated.
// Searched on log T in [0.05, 20].
float fit_temperature(const std::vector<float>& logits, const std::vector<int>& gold,
                      int num_tags);

// Tags the gold words of `gold` (with `threads` threads) and fits both temperatures. Words whose
// gold tag the model does not know are skipped. Throws InputError when there are no words.
Calibration fit_calibration(const Tagger& tagger, const std::vector<Sentence>& gold,
                            int threads = 1);

}  // namespace sawtag
