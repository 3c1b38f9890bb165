// Small models for tests, built in memory with random weights.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sawtag/model.hpp"

namespace sawtag::testing {

// The 17 UPOS tags of Universal Dependencies.
inline std::vector<std::string> upos_tags() {
  return {"ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM",
          "PART", "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X"};
}

// A small config: every feature switched on, sizes tiny so tests run fast.
inline ModelConfig tiny_config() {
  ModelConfig config;
  config.word_dim = 6;
  config.char_dim = 4;
  config.char_widths = {2, 3};
  config.char_filters = 3;
  config.max_word_chars = 8;
  config.shape_dim = 3;
  config.d_model = 8;
  config.num_heads = 2;
  config.num_layers = 2;
  config.d_ff = 12;
  config.relative_position = true;
  config.max_relative_distance = 3;
  config.max_sequence_length = 64;
  return config;
}

// Sizes `model`'s parameters for its vocabularies and fills them with weights uniform in
// [-scale, scale] (layer-norm gains around 1). The same seed gives the same weights.
inline void randomize_parameters(Model& model, std::uint64_t seed = 1, float scale = 0.5f) {
  sync_vocabulary_sizes(model);
  model.parameters = zero_parameters(model.config);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(-scale, scale);
  for_each_parameter(model.parameters, model.config,
                     [&](const std::string& name, Tensor& tensor, const Shape&) {
                       const bool is_gain = name.size() > 6 &&
                                            name.compare(name.size() - 6, 6, ".gamma") == 0;
                       for (float& value : tensor.data) value = (is_gain ? 1.0f : 0.0f) + uniform(rng);
                     });
}

// A model over a tiny English vocabulary with weights uniform in [-scale, scale] (layer-norm
// gains around 1). The same seed gives the same model.
inline Model make_random_model(ModelConfig config = tiny_config(), std::uint64_t seed = 1,
                               float scale = 0.5f) {
  Model model;
  model.config = config;
  model.words = Vocabulary({"<unk>", "i", "saw", "a", ".", "the", "dog", "do", "n't", "see",
                            "it", ","},
                           "words");
  std::vector<std::string> chars = {"<pad>", "<unk>", "<w>", "</w>"};
  for (char c = 'a'; c <= 'z'; ++c) chars.emplace_back(1, c);
  for (const char* c : {"I", "S", "T", ".", ",", "'"}) chars.emplace_back(c);
  model.chars = Vocabulary(chars, "chars");
  model.upos = Vocabulary(upos_tags(), "upos");
  model.xpos = Vocabulary({"PRP", "VBD", "DT", "NN", ".", "VBP", "RB", ",", "VB"}, "xpos");
  model.training.fields["corpus"] = "random test model";
  randomize_parameters(model, seed, scale);
  return model;
}

// A model file's text with its top-level section `key`, written as serialize_model writes it
// ("key": and the value on one line), replaced by `value`, a JSON text.
inline std::string with_section(std::string text, const std::string& key,
                                const std::string& value) {
  const std::string name = "\"" + key + "\": ";
  const std::string saved = name + nlohmann::ordered_json::parse(text).at(key).dump();
  const std::size_t at = text.find(saved);
  if (at == std::string::npos) throw std::logic_error("with_section: no section " + name);
  return text.replace(at, saved.size(), name + value);
}

}  // namespace sawtag::testing
