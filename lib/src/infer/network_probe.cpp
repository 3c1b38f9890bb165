#include "infer/network_probe.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "sawtag/error.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::infer {

namespace {

// Words of every kind the input layer distinguishes: capitals, digits, punctuation, a word no
// vocabulary has, and a long one.
const std::vector<std::string> kProbeWords = {"The", "probe", "saw",          "1,000", "words",
                                              "--",  "zzqxj", "unbelievably", "."};
constexpr int kVocabularyWords = 23;  // the first rows of the word embedding: 32 words in all

// "encoder.layers.0.attention.w_q (-1.5e+38)": the tensor holding the weight of largest
// magnitude among every tagger's, or "" when all are 0.
std::string largest_weight(const Model& model) {
  std::string name_of_largest;
  float largest = 0.0f, signed_largest = 0.0f;
  const auto scan = [&](const Model& tagger, const std::string& prefix) {
    for_each_parameter(tagger.parameters, tagger.config,
                       [&](const std::string& name, const Tensor& tensor, const Shape&) {
                         for (const float value : tensor.data) {
                           if (std::fabs(value) > largest) {
                             largest = std::fabs(value);
                             signed_largest = value;
                             name_of_largest = prefix + name;
                           }
                         }
                       });
  };
  scan(model, "");
  for (std::size_t t = 0; t < model.ensemble.size(); ++t) {
    if (model.ensemble[t]) scan(*model.ensemble[t], "tagger " + std::to_string(t + 2) + ": ");
  }
  if (name_of_largest.empty()) return "";
  std::ostringstream text;
  text << name_of_largest << " (" << signed_largest << ")";
  return text.str();
}

}  // namespace

void probe_network(const NetworkEnsemble& network, const Model& model) {
  // One window: the probe words, then the first rows of the word embedding.
  std::vector<std::string> words = kProbeWords;
  for (int w = 0; w < std::min(kVocabularyWords, model.words.size()); ++w) {
    words.push_back(model.words.at(w));
  }
  const int count = std::min(static_cast<int>(words.size()), network.max_window());
  const std::vector<Window> windows{Window{&words, 0, count, nullptr}};
  std::vector<float> logits;
  network.forward(windows, logits);
  if (std::all_of(logits.begin(), logits.end(), [](float x) { return std::isfinite(x); })) return;
  const std::string largest = largest_weight(model);
  throw ModelError(
      "the model's network computes NaN or infinite scores from finite input (a "
      "probe sentence), so it cannot tag: its weights are unusable" +
      (largest.empty() ? std::string() : "; the largest weight is in " + largest));
}

void require_finite_scores(const float* logits, int count) {
  // A count of the scores that are not finite (NaN fails the comparison too) rather than a
  // branch on each: GCC 12 compares many at once.
  int unusable = 0;
  for (int c = 0; c < count; ++c) {
    unusable += std::abs(logits[c]) <= std::numeric_limits<float>::max() ? 0 : 1;
  }
  if (unusable > 0) {
    throw ModelError(
        "the model's network computed a NaN or infinite score for a word, so it "
        "cannot tag it: its weights are unusable");
  }
}

}  // namespace sawtag::infer
