// Occlusion: the sentence and its n copies with one word masked, run through the network
// together (InferenceNetwork::forward_masked), split over threads.
#include "sawtag/explanation.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "infer/inference_network.hpp"
#include "sawtag/error.hpp"
#include "tagger_internals.hpp"

namespace sawtag {

namespace {

// The sentence ("window" 0) and its masked copies (window j + 1 masks word j), each n rows of
// probabilities: both tag sets' softmax side by side, and each row's most likely tags.
struct Probabilities {
  int columns = 0;             // num_upos + num_xpos
  std::vector<float> values;   // [(n + 1) n, columns]
  std::vector<int> best_upos;  // [(n + 1) n]: index into the model's UPOS tags
  std::vector<int> best_xpos;

  const float* row(std::size_t r) const { return values.data() + r * columns; }
};

// Runs windows [first_window, last_window) through the network and fills their rows of
// `probabilities` as Tagger does (tag_softmax, then the first most likely tag).
void run_windows(const Tagger& tagger, const std::vector<std::string>& words, int first_window,
                 int last_window, Probabilities& probabilities) {
  if (first_window >= last_window) return;
  const Model& model = tagger.model();
  const int num_upos = model.config.num_upos;
  const int num_xpos = model.config.num_xpos;
  const auto n = static_cast<int>(words.size());
  infer::MaskedCopies copies;
  copies.with_sentence = first_window == 0;
  copies.first = std::max(first_window, 1) - 1;
  copies.last = last_window - 1;
  std::vector<float> logits;
  TaggerInternals::network(tagger).forward_masked(words, copies, logits);
  const int columns = num_upos + num_xpos;  // the network's logit columns too
  std::vector<float> softmax;
  const auto first_row = static_cast<std::size_t>(first_window) * static_cast<std::size_t>(n);
  const std::size_t rows = static_cast<std::size_t>(last_window - first_window) * n;
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row_logits = logits.data() + r * columns;
    float* out = probabilities.values.data() + (first_row + r) * columns;
    tag_softmax(row_logits, num_upos, model.calibration.upos_temperature, softmax);
    std::copy(softmax.begin(), softmax.end(), out);
    probabilities.best_upos[first_row + r] =
        static_cast<int>(std::max_element(softmax.begin(), softmax.end()) - softmax.begin());
    tag_softmax(row_logits + num_upos, num_xpos, model.calibration.xpos_temperature, softmax);
    std::copy(softmax.begin(), softmax.end(), out + num_upos);
    probabilities.best_xpos[first_row + r] =
        static_cast<int>(std::max_element(softmax.begin(), softmax.end()) - softmax.begin());
  }
}

}  // namespace

SentenceExplanation explain_tags(const Tagger& tagger, const std::vector<std::string>& words,
                                 const ExplainOptions& options) {
  const auto n = static_cast<int>(words.size());
  if (n > tagger.max_window()) {
    throw InputError("explain: a sentence of " + std::to_string(n) +
                     " words is longer than the model's window of " +
                     std::to_string(tagger.max_window()) + " words; explain it in shorter parts");
  }
  SentenceExplanation explanation;
  explanation.num_words = n;
  if (n == 0) return explanation;
  const Model& model = tagger.model();
  const int num_upos = model.config.num_upos;
  Probabilities probabilities;
  probabilities.columns = num_upos + model.config.num_xpos;
  const std::size_t rows = static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n);
  probabilities.values.resize(rows * probabilities.columns);
  probabilities.best_upos.resize(rows);
  probabilities.best_xpos.resize(rows);

  // Thread t runs windows [(n + 1) t / T, (n + 1) (t + 1) / T); the calling thread runs the first.
  const int windows = n + 1;
  const int threads = std::clamp(options.threads, 1, windows);
  const auto boundary = [&](int t) { return windows * t / threads; };
  std::vector<std::thread> helpers;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  for (int t = 1; t < threads; ++t) {
    helpers.emplace_back([&, t] {
      try {
        run_windows(tagger, words, boundary(t), boundary(t + 1), probabilities);
      } catch (...) {
        errors[static_cast<std::size_t>(t)] = std::current_exception();
      }
    });
  }
  try {
    run_windows(tagger, words, boundary(0), boundary(1), probabilities);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }

  // Window 0: the sentence's tags, as Tagger::tag gives them.
  explanation.tags.words.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    WordTags& tags = explanation.tags.words[static_cast<std::size_t>(i)];
    const auto r = static_cast<std::size_t>(i);
    tags.upos = model.upos.at(probabilities.best_upos[r]);
    tags.xpos = model.xpos.at(probabilities.best_xpos[r]);
    tags.upos_probability = probabilities.row(r)[probabilities.best_upos[r]];
    tags.xpos_probability = probabilities.row(r)[num_upos + probabilities.best_xpos[r]];
  }
  explanation.occlusions.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const auto plain = static_cast<std::size_t>(i);
      const std::size_t masked = static_cast<std::size_t>(j + 1) * n + i;
      const WordTags& original = explanation.tags.words[plain];
      const float* row = probabilities.row(masked);
      Occlusion& occlusion = explanation.occlusions[plain * n + j];
      occlusion.upos_drop = original.upos_probability - row[probabilities.best_upos[plain]];
      occlusion.xpos_drop =
          original.xpos_probability - row[num_upos + probabilities.best_xpos[plain]];
      occlusion.upos_when_masked = model.upos.at(probabilities.best_upos[masked]);
      occlusion.xpos_when_masked = model.xpos.at(probabilities.best_xpos[masked]);
    }
  }
  return explanation;
}

std::vector<int> strongest_first(const SentenceExplanation& explanation, int word,
                                 ExplainedTag tag) {
  const auto strength = [&](int masked) {
    const Occlusion& occlusion = explanation.at(word, masked);
    return std::fabs(tag == ExplainedTag::upos ? occlusion.upos_drop : occlusion.xpos_drop);
  };
  std::vector<int> others;
  for (int j = 0; j < explanation.num_words; ++j) {
    if (j != word) others.push_back(j);
  }
  std::stable_sort(others.begin(), others.end(),
                   [&](int a, int b) { return strength(a) > strength(b); });
  return others;
}

}  // namespace sawtag
