// Tagging with a loaded model: features -> network -> softmax -> best tags.
#include "sawtag/tagger.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "infer/network_ensemble.hpp"
#include "infer/network_probe.hpp"
#include "infer/windows.hpp"
#include "sawtag/error.hpp"
#include "sawtag/features.hpp"
#include "tagging/lemma_choice.hpp"
#include "tagging/tagger_internals.hpp"

namespace sawtag {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) {
    if (!text.empty()) text += ' ';
    text += item;
  }
  return text;
}

}  // namespace

void tag_softmax(const float* logits, int num_tags, float temperature,
                 std::vector<float>& probabilities) {
  probabilities.resize(static_cast<std::size_t>(num_tags));
  const float maximum = *std::max_element(logits, logits + num_tags);
  const float inverse_temperature = 1.0f / temperature;
  float sum = 0.0f;
  for (int t = 0; t < num_tags; ++t) {
    probabilities[static_cast<std::size_t>(t)] =
        std::exp((logits[t] - maximum) * inverse_temperature);
    sum += probabilities[static_cast<std::size_t>(t)];
  }
  for (float& probability : probabilities) probability /= sum;
}

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

// The most likely class of a row of logits (the first on a tie) and, when asked, its
// calibrated probability: the morphology heads have hundreds of classes, and an exponential
// for each would cost more than their products.
int best_class(const float* logits, int count) {
  return static_cast<int>(std::max_element(logits, logits + count) - logits);
}

float class_probability(const float* logits, int count, int chosen, float temperature) {
  const float maximum = logits[best_class(logits, count)];
  const float inverse_temperature = 1.0f / temperature;
  float sum = 0.0f;
  for (int c = 0; c < count; ++c) sum += std::exp((logits[c] - maximum) * inverse_temperature);
  return std::exp((logits[chosen] - maximum) * inverse_temperature) / sum;
}

// The loader validates a model file fully; this cheap check also covers models built in
// memory, so that a wrong shape is a ModelError instead of an out-of-bounds read while tagging.
void check_shapes(const Model& model) {
  const ModelConfig& config = model.config;
  const auto require_size = [](const std::string& what, std::size_t expected, std::size_t actual) {
    if (expected != actual) {
      throw ModelError("Tagger: " + what + ": expected " + std::to_string(expected) + ", actual " +
                       std::to_string(actual));
    }
  };
  require_size("number of UPOS tags (config.num_upos)", static_cast<std::size_t>(config.num_upos),
               static_cast<std::size_t>(model.upos.size()));
  require_size("number of XPOS tags (config.num_xpos)", static_cast<std::size_t>(config.num_xpos),
               static_cast<std::size_t>(model.xpos.size()));
  require_size("number of FEATS classes (config.num_feats)",
               static_cast<std::size_t>(config.num_feats), static_cast<std::size_t>(model.feats.size()));
  require_size("number of lemma rules (config.num_lemma_rules)",
               static_cast<std::size_t>(config.num_lemma_rules),
               static_cast<std::size_t>(model.lemma_rules.size()));
  require_size("number of encoder layers", static_cast<std::size_t>(config.num_layers),
               model.parameters.encoder.layers.size());
  require_size("number of character convolutions", config.char_widths.size(),
               model.parameters.encoder.char_convolutions.size());
  const QuantizedRows* kept_words =
      model.word_embedding_int8 ? &*model.word_embedding_int8 : nullptr;
  if (kept_words != nullptr) {
    require_size("int8 word embedding rows (config.word_vocab_size)",
                 static_cast<std::size_t>(config.word_vocab_size),
                 static_cast<std::size_t>(kept_words->rows));
    require_size("int8 word embedding columns (config.word_dim)",
                 static_cast<std::size_t>(config.word_dim),
                 static_cast<std::size_t>(kept_words->cols));
    require_size(
        "int8 word embedding values",
        static_cast<std::size_t>(kept_words->rows) * static_cast<std::size_t>(kept_words->cols),
        kept_words->values.size());
    require_size("int8 word embedding scales", static_cast<std::size_t>(kept_words->rows),
                 kept_words->scales.size());
  }
  for_each_parameter(model.parameters, config,
                     [&](const std::string& name, const Tensor& tensor,
                         const Shape& expected_shape) {
                       // Kept as int8, the word embedding's float table is not read.
                       if (kept_words != nullptr &&
                           &tensor == &model.parameters.encoder.word_embedding) {
                         return;
                       }
                       if (tensor.shape != expected_shape ||
                           static_cast<std::int64_t>(tensor.data.size()) !=
                               element_count(expected_shape)) {
                         throw ModelError("Tagger: tensor " + name + " has shape " +
                                          to_string(tensor.shape) + " (" +
                                          std::to_string(tensor.data.size()) +
                                          " values), expected " + to_string(expected_shape));
                       }
                     });
}

}  // namespace

Tagger::Tagger(std::shared_ptr<const Model> model, TagPrecision precision,
               const TaskRunner& run_tasks)
    : model_(std::move(model)) {
  if (!model_) throw ModelError("Tagger: no model given");
  check_shapes(*model_);
  for (const auto& member : model_->ensemble) {
    if (!member) throw ModelError("Tagger: an empty entry in the model's ensemble");
    check_shapes(*member);
  }
  lemmas_ = std::make_shared<const LemmaChooser>(*model_);
  network_ = std::make_shared<const infer::NetworkEnsemble>(
      *model_,
      precision == TagPrecision::float32 ? infer::Precision::float32 : infer::Precision::reduced,
      run_tasks);
  infer::probe_network(*network_, *model_);  // before the self-tests: NaN is no tag to compare
  for (std::size_t t = 0; t < model_->self_tests.size(); ++t) {
    const SelfTest& test = model_->self_tests[t];
    const std::string name = "self-test " + std::to_string(t + 1) + " '" + join(test.words) + "'";
    if (test.words.size() != test.upos.size()) {
      throw ModelError(name + " has " + std::to_string(test.words.size()) + " words but " +
                       std::to_string(test.upos.size()) + " UPOS tags");
    }
    TagOptions upos_only;
    upos_only.morphology = false;  // self-tests check UPOS: no lemma or FEATS work at load
    const TagResult result = tag(test.words, upos_only);
    std::vector<std::string> actual_upos;
    for (const WordTags& word : result.words) actual_upos.push_back(word.upos);
    if (actual_upos != test.upos) {
      throw ModelError(name + " failed: expected UPOS '" + join(test.upos) + "', actual '" +
                       join(actual_upos) + "'");
    }
  }
}

int Tagger::max_window() const { return network_->max_window(); }

TagResult Tagger::tag(const std::vector<std::string>& words, const TagOptions& options) const {
  return std::move(tag_batch({words}, options).front());
}

namespace {

// The sentences of one batch cut into windows, and where each window's logits land.
class BatchTagger {
 public:
  BatchTagger(const Model& model, const infer::NetworkEnsemble& network,
              const LemmaChooser& lemmas, const TagOptions& options,
              std::vector<TagResult>& results)
      : model_(model), network_(network), lemmas_(lemmas),
        options_(options), results_(results) {}

  void add(const std::vector<std::string>& words, std::size_t sentence) {
    const auto n = static_cast<int>(words.size());
    TagResult& result = results_[sentence];
    result.words.resize(words.size());
    const int whole = infer::whole_sentence_words(network_.max_window(), options_.long_sentence,
                                                  options_.capture_attention);
    plans_[sentence] = infer::plan_windows(n, whole, options_.long_sentence_window,
                                          options_.long_sentence_step);
    const infer::WindowPlan& plan = plans_[sentence];
    const bool capture = options_.capture_attention && plan.starts.size() == 1;
    if (capture) {
      AttentionMaps& maps = result.attention;
      maps.num_layers = model_.config.num_layers;
      maps.num_heads = model_.config.num_heads;
      maps.num_words = n;
    }
    for (std::size_t w = 0; w < plan.starts.size(); ++w) {
      if (rows_ + plan.length > options_.batch_words && !windows_.empty()) run();
      windows_.push_back(infer::Window{&words, plan.starts[w], plan.length,
                                       capture ? &result.attention.weights : nullptr});
      owners_.push_back({sentence, static_cast<int>(w)});
      rows_ += plan.length;
    }
  }

  // Runs the windows gathered so far and hands each word its tags.
  void run() {
    if (windows_.empty()) return;
    network_.forward(windows_, logits_, options_.morphology);
    const int columns = network_.num_logits();
    const int num_upos = model_.config.num_upos;
    const float* row = logits_.data();
    for (std::size_t w = 0; w < windows_.size(); ++w) {
      const auto [sentence, window] = owners_[w];
      const infer::WindowPlan& plan = plans_[sentence];
      for (int i = 0; i < windows_[w].count; ++i, row += columns) {
        const int word = windows_[w].first + i;
        if (plan.owner[static_cast<std::size_t>(word)] != window) continue;
        WordTags& tags = results_[sentence].words[static_cast<std::size_t>(word)];
        infer::require_finite_scores(row, columns);
        const Calibration& calibration = model_.calibration;
        choose_tag(row, model_.upos, calibration.upos_temperature, options_.top_k, tags.upos,
                   tags.upos_probability, tags.upos_top, probabilities_);
        choose_tag(row + num_upos, model_.xpos, calibration.xpos_temperature, options_.top_k,
                   tags.xpos, tags.xpos_probability, tags.xpos_top, probabilities_);
        const int num_xpos = model_.config.num_xpos;
        if (options_.logits) {
          tags.upos_logits.assign(row, row + num_upos);
          tags.xpos_logits.assign(row + num_upos, row + num_upos + num_xpos);
        }
        if (!options_.morphology) continue;
        const float* morphology = row + num_upos + num_xpos;
        if (options_.logits) {
          tags.feats_logits.assign(morphology, morphology + model_.config.num_feats);
          tags.lemma_logits.assign(morphology + model_.config.num_feats,
                                   morphology + model_.config.num_feats +
                                       model_.config.num_lemma_rules);
        }
        if (model_.has_feats()) {
          const int num_feats = model_.config.num_feats;
          const int chosen = best_class(morphology, num_feats);
          tags.feats = model_.feats.at(chosen);
          if (options_.morphology_probabilities) {
            tags.feats_probability =
                class_probability(morphology, num_feats, chosen, calibration.feats_temperature);
          }
          morphology += num_feats;
        }
        if (model_.has_lemmas()) {
          const int num_rules = model_.config.num_lemma_rules;
          int rule = -1;
          const std::string& form = (*windows_[w].words)[static_cast<std::size_t>(word)];
          tags.lemma = lemmas_.choose(morphology, calibration.lemma_temperature, form, tags.upos,
                                      tags.xpos, rule);
          if (options_.morphology_probabilities) {
            tags.lemma_probability =
                rule < 0 ? 0.0f
                         : class_probability(morphology, num_rules, rule,
                                             calibration.lemma_temperature);
          }
        }
      }
    }
    windows_.clear();
    owners_.clear();
    rows_ = 0;
  }

  void reserve(std::size_t sentences) { plans_.resize(sentences); }

 private:
  const Model& model_;
  const infer::NetworkEnsemble& network_;
  const LemmaChooser& lemmas_;
  const TagOptions& options_;
  std::vector<TagResult>& results_;
  std::vector<infer::WindowPlan> plans_;  // per sentence
  std::vector<infer::Window> windows_;    // waiting to run
  std::vector<std::pair<std::size_t, int>> owners_;  // per waiting window: sentence, window
  int rows_ = 0;
  std::vector<float> logits_;
  std::vector<float> probabilities_;
};

}  // namespace

std::vector<TagResult> Tagger::tag_batch(const std::vector<std::vector<std::string>>& sentences,
                                         const TagOptions& options) const {
  std::vector<TagResult> results(sentences.size());
  BatchTagger batch(*model_, *network_, *lemmas_, options, results);
  batch.reserve(sentences.size());
  for (std::size_t s = 0; s < sentences.size(); ++s) batch.add(sentences[s], s);
  batch.run();
  return results;
}

}  // namespace sawtag
