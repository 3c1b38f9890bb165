// Tagging with a loaded model: features -> network -> softmax -> best tags.
#include "sawtag/tagger.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>

#include "nn/network.hpp"
#include "nn/softmax.hpp"
#include "sawtag/error.hpp"
#include "sawtag/features.hpp"

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

// The k most likely tags of `probabilities` ([num_tags]), most likely first; ties keep tag order.
std::vector<TagCandidate> top_candidates(const nn::Matrix& probabilities, Eigen::Index row,
                                         const Vocabulary& tags, int k) {
  const int num_tags = static_cast<int>(probabilities.cols());
  k = std::min(k, num_tags);
  std::vector<int> order(static_cast<std::size_t>(num_tags));
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
    const float pa = probabilities(row, a), pb = probabilities(row, b);
    return pa > pb || (pa == pb && a < b);
  });
  std::vector<TagCandidate> candidates;
  candidates.reserve(static_cast<std::size_t>(k));
  for (int c = 0; c < k; ++c) {
    candidates.push_back({tags.at(order[static_cast<std::size_t>(c)]),
                          probabilities(row, order[static_cast<std::size_t>(c)])});
  }
  return candidates;
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
  require_size("number of encoder layers", static_cast<std::size_t>(config.num_layers),
               model.parameters.encoder.layers.size());
  require_size("number of character convolutions", config.char_widths.size(),
               model.parameters.encoder.char_convolutions.size());
  for_each_parameter(model.parameters, config,
                     [](const std::string& name, const Tensor& tensor, const Shape& expected_shape) {
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

Tagger::Tagger(std::shared_ptr<const Model> model) : model_(std::move(model)) {
  if (!model_) throw ModelError("Tagger: no model given");
  check_shapes(*model_);
  for (std::size_t t = 0; t < model_->self_tests.size(); ++t) {
    const SelfTest& test = model_->self_tests[t];
    const std::string name = "self-test " + std::to_string(t + 1) + " '" + join(test.words) + "'";
    if (test.words.size() != test.upos.size()) {
      throw ModelError(name + " has " + std::to_string(test.words.size()) + " words but " +
                       std::to_string(test.upos.size()) + " UPOS tags");
    }
    const TagResult result = tag(test.words);
    std::vector<std::string> actual_upos;
    for (const WordTags& word : result.words) actual_upos.push_back(word.upos);
    if (actual_upos != test.upos) {
      throw ModelError(name + " failed: expected UPOS '" + join(test.upos) + "', actual '" +
                       join(actual_upos) + "'");
    }
  }
}

TagResult Tagger::tag(const std::vector<std::string>& words, const TagOptions& options) const {
  TagResult result;
  if (words.empty()) return result;
  const Model& model = *model_;
  std::vector<WordFeatures> features;
  features.reserve(words.size());
  for (const std::string& word : words) features.push_back(word_features(model, word));

  // TODO(windowing): sentences longer than config.max_sequence_length are tagged in one pass
  // for now (the sinusoidal positions extend to any length); bounding memory by tagging
  // overlapping windows of max_sequence_length words is a separate issue.
  nn::ForwardOptions forward_options;
  forward_options.capture_attention = options.capture_attention;
  const nn::NetworkOutput output =
      nn::network_forward(model.parameters, model.config, features, forward_options, nullptr);
  const nn::Matrix upos_probabilities = nn::softmax_rows(output.upos_logits);
  const nn::Matrix xpos_probabilities = nn::softmax_rows(output.xpos_logits);

  result.words.resize(words.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    WordTags& tags = result.words[i];
    Eigen::Index best_upos = 0, best_xpos = 0;
    tags.upos_probability = upos_probabilities.row(row).maxCoeff(&best_upos);
    tags.xpos_probability = xpos_probabilities.row(row).maxCoeff(&best_xpos);
    tags.upos = model.upos.at(static_cast<int>(best_upos));
    tags.xpos = model.xpos.at(static_cast<int>(best_xpos));
    if (options.top_k > 0) {
      tags.upos_top = top_candidates(upos_probabilities, row, model.upos, options.top_k);
      tags.xpos_top = top_candidates(xpos_probabilities, row, model.xpos, options.top_k);
    }
  }

  if (options.capture_attention) {
    AttentionMaps& maps = result.attention;
    maps.num_layers = model.config.num_layers;
    maps.num_heads = model.config.num_heads;
    maps.num_words = static_cast<int>(words.size());
    const std::size_t map_size = words.size() * words.size();
    maps.weights.reserve(output.attention.size() * map_size);
    // output.attention[layer * num_heads + head] is row-major [n, n]: the layout AttentionMaps
    // documents, so the maps are laid end to end.
    for (const nn::Matrix& map : output.attention) {
      maps.weights.insert(maps.weights.end(), map.data(), map.data() + map.size());
    }
  }
  return result;
}

}  // namespace sawtag
