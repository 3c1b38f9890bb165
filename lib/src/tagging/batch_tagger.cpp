#include "tagging/batch_tagger.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "infer/network_probe.hpp"
#include "tagging/lemma_choice.hpp"
#include "tagging/tagger_internals.hpp"

namespace sawtag {

namespace {

// The k most likely tags, most likely first; ties keep tag order.
std::vector<TagCandidate> top_candidates(const std::vector<float>& probabilities,
                                         const Vocabulary& tags, int k) {
  const int num_tags = static_cast<int>(probabilities.size());
  k = std::min(k, num_tags);
  std::vector<int> order(static_cast<std::size_t>(num_tags));
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
    const float pa = probabilities[static_cast<std::size_t>(a)];
    const float pb = probabilities[static_cast<std::size_t>(b)];
    return pa > pb || (pa == pb && a < b);
  });
  std::vector<TagCandidate> candidates;
  candidates.reserve(static_cast<std::size_t>(k));
  for (int c = 0; c < k; ++c) {
    const int tag = order[static_cast<std::size_t>(c)];
    candidates.push_back({tags.at(tag), probabilities[static_cast<std::size_t>(tag)]});
  }
  return candidates;
}

// The most likely tag (the first on a tie), its calibrated probability, and the top k if asked.
void choose_tag(const float* logits, const Vocabulary& tags, float temperature, int top_k,
                std::string& tag, float& probability, std::vector<TagCandidate>& top,
                std::vector<float>& probabilities) {
  const int num_tags = static_cast<int>(tags.size());
  tag_softmax(logits, num_tags, temperature, probabilities);
  const auto best = std::max_element(probabilities.begin(), probabilities.end());
  tag = tags.at(static_cast<int>(best - probabilities.begin()));
  probability = *best;
  if (top_k > 0) top = top_candidates(probabilities, tags, top_k);
}

// The calibrated probability of class `chosen` of a row of logits, computed only when asked:
// the morphology heads have hundreds of classes, and an exponential for each would cost more
// than their products.
float class_probability(const float* logits, int count, int chosen, float temperature) {
  const float maximum = logits[most_likely_class(logits, count)];
  const float inverse_temperature = 1.0f / temperature;
  float sum = 0.0f;
  for (int c = 0; c < count; ++c) sum += std::exp((logits[c] - maximum) * inverse_temperature);
  return std::exp((logits[chosen] - maximum) * inverse_temperature) / sum;
}

}  // namespace

BatchTagger::BatchTagger(const Tagger& tagger, const TagOptions& options)
    : model_(tagger.model()),
      network_(TaggerInternals::network(tagger)),
      lemmas_(TaggerInternals::lemmas(tagger)),
      options_(options) {}

void BatchTagger::add(const std::vector<std::string>& words, TagResult& result) {
  const auto n = static_cast<int>(words.size());
  result.words.resize(words.size());
  const int whole = infer::whole_sentence_words(network_.max_window(), options_.long_sentence,
                                                options_.capture_attention);
  const infer::WindowPlan plan =
      infer::plan_windows(n, whole, options_.long_sentence_window, options_.long_sentence_step);
  const bool capture = options_.capture_attention && plan.starts.size() == 1;
  if (capture) {
    AttentionMaps& maps = result.attention;
    maps.num_layers = model_.config.num_layers;
    maps.num_heads = model_.config.num_heads;
    maps.num_words = n;
  }
  for (std::size_t w = 0; w < plan.starts.size(); ++w) {
    push(words, plan, static_cast<int>(w), result, capture ? &result.attention.weights : nullptr);
  }
}

void BatchTagger::add_window(const std::vector<std::string>& words, const infer::WindowPlan& plan,
                             int window, TagResult& result) {
  push(words, plan, window, result, nullptr);
}

void BatchTagger::push(const std::vector<std::string>& words, const infer::WindowPlan& plan,
                       int window, TagResult& result, std::vector<float>* attention) {
  if (rows_ + plan.length > options_.batch_words && !windows_.empty()) run();
  const int start = plan.starts[static_cast<std::size_t>(window)];
  const infer::WordRange owned = infer::owned_words(plan, window);
  infer::Window batch_window{&words, start, plan.length, attention};
  batch_window.unwanted_before = owned.first - start;
  batch_window.unwanted_after = start + plan.length - owned.last;
  windows_.push_back(batch_window);
  results_.push_back(&result);
  rows_ += plan.length;
}

void BatchTagger::run() {
  if (windows_.empty()) return;
  network_.forward(windows_, logits_, options_.morphology);
  // The lemma tables' memory for all the batch's words is asked for at once: the fetches
  // overlap, where each word's would otherwise wait on its own (LemmaChooser::prefetch).
  if (options_.morphology && model_.has_lemmas()) {
    for (const infer::Window& window : windows_) {
      for (int i = window.unwanted_before; i < window.count - window.unwanted_after; ++i) {
        lemmas_.prefetch((*window.words)[static_cast<std::size_t>(window.first + i)]);
      }
    }
  }
  const int columns = network_.num_logits();
  const float* row = logits_.data();
  for (std::size_t w = 0; w < windows_.size(); ++w) {
    const infer::Window& window = windows_[w];
    for (int i = window.unwanted_before; i < window.count - window.unwanted_after;
         ++i, row += columns) {
      tag_word(row, w, window.first + i);
    }
  }
  windows_.clear();
  results_.clear();
  rows_ = 0;
}

void BatchTagger::tag_word(const float* row, std::size_t w, int word) {
  WordTags& tags = results_[w]->words[static_cast<std::size_t>(word)];
  const int columns = network_.num_logits();
  const int num_upos = model_.config.num_upos;
  infer::require_finite_scores(row, columns);
  const Calibration& calibration = model_.calibration;
  choose_tag(row, model_.upos, calibration.upos_temperature, options_.top_k, tags.upos,
             tags.upos_probability, tags.upos_top, probabilities_);
  choose_tag(row + num_upos, model_.xpos, calibration.xpos_temperature, options_.top_k, tags.xpos,
             tags.xpos_probability, tags.xpos_top, probabilities_);
  const int num_xpos = model_.config.num_xpos;
  if (options_.logits) {
    tags.upos_logits.assign(row, row + num_upos);
    tags.xpos_logits.assign(row + num_upos, row + num_upos + num_xpos);
  }
  if (!options_.morphology) return;
  const float* morphology = row + num_upos + num_xpos;
  if (options_.logits) {
    tags.feats_logits.assign(morphology, morphology + model_.config.num_feats);
    tags.lemma_logits.assign(morphology + model_.config.num_feats,
                             morphology + model_.config.num_feats + model_.config.num_lemma_rules);
  }
  if (model_.has_feats()) {
    const int num_feats = model_.config.num_feats;
    const int chosen = most_likely_class(morphology, num_feats);
    tags.feats = model_.feats.at(chosen);
    if (options_.morphology_probabilities) {
      tags.feats_probability =
          class_probability(morphology, num_feats, chosen, calibration.feats_temperature);
    }
    morphology += num_feats;
  }
  if (model_.has_lemmas()) {
    const int num_rules = model_.config.num_lemma_rules;
    const std::string& form = (*windows_[w].words)[static_cast<std::size_t>(word)];
    const float temperature = calibration.lemma_temperature;
    if (options_.morphology_probabilities) {
      int rule = -1;
      tags.lemma = lemmas_.choose(morphology, temperature, form, tags.upos, tags.xpos, rule);
      tags.lemma_probability =
          rule < 0 ? 0.0f : class_probability(morphology, num_rules, rule, temperature);
    } else {
      tags.lemma = lemmas_.choose(morphology, temperature, form, tags.upos, tags.xpos);
    }
  }
}

}  // namespace sawtag
