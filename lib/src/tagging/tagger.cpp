// Tagging with a loaded model: features -> network -> softmax -> best tags.
#include "sawtag/tagger.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "infer/network_ensemble.hpp"
#include "infer/network_probe.hpp"
#include "sawtag/error.hpp"
#include "sawtag/features.hpp"
#include "tagging/batch_tagger.hpp"
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

int most_likely_class(const float* logits, int count) {
  // Maxima of 16 lanes, independent of each other, rather than one chain of comparisons.
  constexpr int kLanes = 16;
  float lanes[kLanes];
  std::fill_n(lanes, kLanes, logits[0]);
  int c = 0;
  for (; c + kLanes <= count; c += kLanes) {
    for (int lane = 0; lane < kLanes; ++lane) lanes[lane] = std::max(lanes[lane], logits[c + lane]);
  }
  for (; c < count; ++c) lanes[0] = std::max(lanes[0], logits[c]);
  const float largest = *std::max_element(lanes, lanes + kLanes);
  return static_cast<int>(std::find(logits, logits + count, largest) - logits);
}

namespace {

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

std::vector<TagResult> Tagger::tag_batch(const std::vector<std::vector<std::string>>& sentences,
                                         const TagOptions& options) const {
  std::vector<TagResult> results(sentences.size());
  BatchTagger batch(*this, options);
  for (std::size_t s = 0; s < sentences.size(); ++s) batch.add(sentences[s], results[s]);
  batch.run();
  return results;
}

}  // namespace sawtag
