// The model file's writer (serialize_model): a Model as one JSON document, in the layout
// docs/model-format.md describes, at the lowest version that holds it. Every tensor is checked
// (shape, count, finite values) before anything is written. save_model (model_file.cpp) writes
// the text to a file.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "io/base64.hpp"
#include "io/float16.hpp"
#include "io/model_file_format.hpp"
#include "io/model_strings.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag {
namespace {

using model_file::first_non_finite;
using model_file::for_each_config_field;
using model_file::is_little_endian;
using model_file::kBase64Prefix;
using model_file::kEdgeCharDim;
using model_file::kFloat16;
using model_file::kFloat32;
using model_file::kInt8;
using model_file::swap_bytes;

// Written with ordered_json, so that sections keep the order of for_each_config_field and of
// the struct fields.
using OrderedJson = nlohmann::ordered_json;

// Shortest text that reads back as exactly `value`: 0.1f -> "0.1". Negative zero keeps its sign.
void append_float(float value, std::string& out) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
  if (value == 0.0f && std::signbit(value)) out += ".0";  // "-0" would read back as integer 0
}

void append_base64(const void* bytes, std::size_t size, std::string& out) {
  out += '"';
  out += kBase64Prefix;
  base64::encode_append(bytes, size, out);
  out += '"';
}

// `"scales": ..., "data": ...` of dtype "int8".
void append_int8_rows(const QuantizedRows& table, std::string& out) {
  std::vector<float> scales = table.scales;
  if (!is_little_endian()) swap_bytes(scales);
  out += "\"scales\": ";
  append_base64(scales.data(), scales.size() * sizeof(float), out);
  out += ", \"data\": ";
  append_base64(table.values.data(), table.values.size(), out);
}

void append_tensor_data(const Tensor& tensor, TensorEncoding encoding, std::string& out) {
  if (encoding == TensorEncoding::base64_float16) {
    std::vector<unsigned char> bytes(tensor.data.size() * 2);
    for (std::size_t i = 0; i < tensor.data.size(); ++i) {
      const std::uint16_t half = float16::from_float(tensor.data[i]);
      bytes[2 * i] = static_cast<unsigned char>(half & 0xFFu);
      bytes[2 * i + 1] = static_cast<unsigned char>(half >> 8);
    }
    append_base64(bytes.data(), bytes.size(), out);
    return;
  }
  if (encoding == TensorEncoding::base64) {
    if (is_little_endian()) {
      append_base64(tensor.data.data(), tensor.data.size() * sizeof(float), out);
    } else {
      TensorData swapped = tensor.data;
      swap_bytes(swapped);
      append_base64(swapped.data(), swapped.size() * sizeof(float), out);
    }
    return;
  }
  out += '[';
  for (std::size_t i = 0; i < tensor.data.size(); ++i) {
    if (i > 0) out += ", ";
    append_float(tensor.data[i], out);
  }
  out += ']';
}

OrderedJson config_json(const ModelConfig& config) {
  OrderedJson section = OrderedJson::object();
  for_each_config_field(config, [&](const char* name, const auto& field) {
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<Field, float>) {
      std::string text;
      append_float(field, text);
      section[name] = std::stod(text);  // 1e-5f is written "1e-05", not "9.99999974737875e-06"
    } else {
      section[name] = field;
    }
  });
  // Only when used, so that a model without it is written as before (and read by an older
  // sawtag).
  if (config.edge_char_dim > 0) section[kEdgeCharDim] = config.edge_char_dim;
  return section;
}

OrderedJson self_tests_json(const std::vector<SelfTest>& self_tests) {
  OrderedJson list = OrderedJson::array();
  for (const SelfTest& test : self_tests) {
    list.push_back(OrderedJson{{"words", test.words}, {"upos", test.upos}});
  }
  return list;
}

// {"notice": ..., "lemmas": {"ADJ": "able ...", ...}, "forms": [["fled", "VERB", "flee"], ...]}
OrderedJson lemma_dictionary_json(const LemmaDictionary& dictionary) {
  OrderedJson lemmas = OrderedJson::object();
  for (const auto& [upos, list] : dictionary.lemmas) {
    if (const std::string problem = model_strings::spaced_list_problem(list, "lemma");
        !problem.empty()) {
      throw ModelError("cannot save the model: lemma_dictionary.lemmas." + upos + ": " + problem);
    }
    lemmas[upos] = list;
  }
  OrderedJson forms = OrderedJson::array();
  for (const LemmaDictionaryEntry& form : dictionary.forms) {
    forms.push_back({form.form, form.upos, form.lemma});
  }
  return OrderedJson{{"notice", dictionary.notice}, {"lemmas", lemmas}, {"forms", forms}};
}

void append_section(const char* key, const OrderedJson& value, bool last, std::string& out) {
  out += " \"";
  out += key;
  out += "\": ";
  out += value.dump();
  out += last ? "\n" : ",\n";
}

// The learned tokenizer's character model, as a string holding its own model document.
void append_learned_tokenizer(const Model& character_model, TensorEncoding encoding,
                              std::string& out) {
  if (character_model.tokenizer.character_model) {
    throw ModelError(
        "cannot save the model: its learned tokenizer has a learned tokenizer of its own");
  }
  append_section("learned_tokenizer", OrderedJson(serialize_model(character_model, encoding)),
                 false, out);
}

// An ensemble's further taggers, each as a string holding its own model document: only what
// their networks need (no tokenizer tables, calibration or self-tests).
void append_ensemble(const Model& model, TensorEncoding encoding, std::string& out) {
  OrderedJson members = OrderedJson::array();
  for (std::size_t i = 0; i < model.ensemble.size(); ++i) {
    const Model& member = *model.ensemble[i];
    const std::string what =
        "cannot save the model: tagger " + std::to_string(i + 2) + " of its ensemble ";
    if (!member.ensemble.empty()) throw ModelError(what + "has an ensemble of its own");
    if (member.tokenizer.character_model) {
      throw ModelError(what + "has a learned tokenizer of its own");
    }
    if (!same_tag_sets(member, model)) throw ModelError(what + "has other tag sets");
    Model network = member;
    network.tokenizer = TokenizerData{};
    network.calibration = Calibration{};
    network.self_tests.clear();
    members.push_back(serialize_model(network, encoding));
  }
  append_section("ensemble", members, false, out);
}

// A kept int8 word embedding must fit the config as the file's would, and be the only one.
void check_kept_word_table(const Model& model, const ModelConfig& config) {
  const QuantizedRows& table = *model.word_embedding_int8;
  const std::string what = "cannot save the model: int8 tensor 'encoder.word_embedding'";
  const Shape expected_shape{config.word_vocab_size, config.word_dim};
  const Shape actual_shape{table.rows, table.cols};
  if (actual_shape != expected_shape ||
      table.values.size() != static_cast<std::size_t>(element_count(expected_shape)) ||
      table.scales.size() != static_cast<std::size_t>(config.word_vocab_size)) {
    throw ModelError(what + ": expected shape " + to_string(expected_shape) + ", got " +
                     to_string(actual_shape) + " with " + std::to_string(table.values.size()) +
                     " values and " + std::to_string(table.scales.size()) + " scales");
  }
  const std::size_t bad = first_non_finite(table.scales.data(), table.scales.size());
  if (bad < table.scales.size()) {
    throw ModelError(what + " has a non-finite scale at row " + std::to_string(bad));
  }
  if (!model.parameters.encoder.word_embedding.data.empty()) {
    throw ModelError(what + " is also held as float32: keep one of the two");
  }
}

}  // namespace

// Layout: one top-level field per line, each section as compact JSON; then one tensor per line
// in for_each_parameter order. Tensors are written by hand so their data is never copied into
// a JSON value.
std::string serialize_model(const Model& model, TensorEncoding encoding) {
  // Check against the shapes a reader will expect: sizes come from the lists, as on load.
  ModelConfig config = model.config;
  config.word_vocab_size = model.words.size();
  config.char_vocab_size = model.chars.size();
  config.num_upos = model.upos.size();
  config.num_xpos = model.xpos.size();
  config.num_feats = model.feats.size();
  config.num_lemma_rules = model.lemma_rules.size();

  // The word embedding is most of a model: it alone may be written as int8. A kept int8 table
  // is written as it is then, and widened for the other encodings.
  const Tensor* word_embedding = &model.parameters.encoder.word_embedding;
  const bool words_as_int8 = encoding == TensorEncoding::base64_float16_int8_words;
  const QuantizedRows* kept_words =
      model.word_embedding_int8 ? &*model.word_embedding_int8 : nullptr;
  Tensor widened_words;
  if (kept_words != nullptr) {
    check_kept_word_table(model, config);
    if (!words_as_int8) {
      widened_words = Tensor({config.word_vocab_size, config.word_dim});
      widen_rows(*kept_words, widened_words.data.data());
    }
  }
  // The float32 tensor written for a visited one: a kept word table's widened copy stands in
  // for the empty word embedding.
  const auto values_of = [&](const Tensor& visited) -> const Tensor& {
    return &visited == word_embedding && kept_words != nullptr ? widened_words : visited;
  };

  std::size_t total_values = 0;
  for_each_parameter(
      model.parameters, config,
      [&](const std::string& name, const Tensor& tensor, const Shape& expected_shape) {
        if (&tensor == word_embedding && kept_words != nullptr) return;  // checked above
        if (tensor.shape != expected_shape ||
            tensor.data.size() != static_cast<std::size_t>(element_count(expected_shape))) {
          throw ModelError("cannot save the model: tensor '" + name + "': expected shape " +
                           to_string(expected_shape) + ", got " + to_string(tensor.shape) +
                           " with " + std::to_string(tensor.data.size()) + " values");
        }
        const std::size_t bad = first_non_finite(tensor.data.data(), tensor.data.size());
        if (bad < tensor.data.size()) {
          throw ModelError("cannot save the model: tensor '" + name +
                           "' has a non-finite value at index " + std::to_string(bad));
        }
        total_values += tensor.data.size();
      });

  std::string out;
  out.reserve(total_values * (encoding == TensorEncoding::json_array ? 14 : 6) + 4096);
  try {
    out += "{\n";
    append_section("format", OrderedJson(kModelFormat), false, out);
    const Calibration& calibration = model.calibration;
    const bool calibrated =
        calibration.upos_temperature != 1.0f || calibration.xpos_temperature != 1.0f ||
        calibration.feats_temperature != 1.0f || calibration.lemma_temperature != 1.0f;
    const bool morphology = model.has_feats() || model.has_lemmas();
    // The lowest version that holds the model, so that older readers read what they can.
    const bool lemma_tables = !model.lemma_casing.empty() || !model.lemma_deletions.empty();
    const int version = !model.lemma_dictionary.empty() ? kModelVersion
                        : lemma_tables                  ? kModelVersionWithoutLemmaDictionary
                        : morphology                    ? kModelVersionWithoutLemmaCasing
                        : !model.ensemble.empty()       ? kModelVersionWithoutMorphology
                        : config.edge_char_dim > 0      ? kModelVersionWithoutEnsemble
                        : model.tokenizer.character_model || calibrated
                            ? kModelVersionWithoutEdgeChars
                            : kModelVersionWithoutOptionalSections;
    append_section("version", OrderedJson(version), false, out);
    append_section("config", config_json(config), false, out);
    append_section("vocabularies",
                   OrderedJson{{"words", model.words.items()}, {"chars", model.chars.items()}},
                   false, out);
    OrderedJson tag_sets{{"upos", model.upos.items()}, {"xpos", model.xpos.items()}};
    if (model.has_feats()) tag_sets["feats"] = model.feats.items();
    if (model.has_lemmas()) tag_sets["lemma_rules"] = model.lemma_rules.items();
    append_section("tag_sets", tag_sets, false, out);
    append_section("tokenizer",
                   OrderedJson{{"multiword_tokens", model.tokenizer.multiword_tokens},
                               {"abbreviations", model.tokenizer.abbreviations}},
                   false, out);
    if (model.tokenizer.character_model) {
      append_learned_tokenizer(*model.tokenizer.character_model, encoding, out);
    }
    if (!model.ensemble.empty()) append_ensemble(model, encoding, out);
    append_section("training", OrderedJson(model.training.fields), false, out);
    if (calibrated) {
      OrderedJson temperatures{{"upos_temperature", calibration.upos_temperature},
                               {"xpos_temperature", calibration.xpos_temperature}};
      if (model.has_feats()) temperatures["feats_temperature"] = calibration.feats_temperature;
      if (model.has_lemmas()) temperatures["lemma_temperature"] = calibration.lemma_temperature;
      append_section("calibration", temperatures, false, out);
    }
    append_section("self_tests", self_tests_json(model.self_tests), false, out);
    if (!model.lemma_lexicon.empty()) {
      OrderedJson lexicon = OrderedJson::array();
      for (const LemmaLexiconEntry& entry : model.lemma_lexicon) {
        lexicon.push_back({entry.form, entry.upos, entry.xpos, entry.lemma});
      }
      append_section("lemma_lexicon", lexicon, false, out);
    }
    if (!model.lemma_casing.empty()) {
      if (const std::string problem =
              model_strings::spaced_list_problem(model.lemma_casing, "spelling");
          !problem.empty()) {
        throw ModelError("cannot save the model: lemma_casing: " + problem);
      }
      append_section("lemma_casing", OrderedJson(model.lemma_casing), false, out);
    }
    if (!model.lemma_deletions.empty()) {
      OrderedJson deletions = OrderedJson::array();
      for (const LemmaDeletion& deletion : model.lemma_deletions) {
        deletions.push_back({deletion.upos, deletion.character});
      }
      append_section("lemma_deletions", deletions, false, out);
    }
    if (!model.lemma_dictionary.empty()) {
      append_section("lemma_dictionary", lemma_dictionary_json(model.lemma_dictionary), false, out);
    }
  } catch (const OrderedJson::exception& error) {
    // nlohmann refuses to write invalid UTF-8.
    throw ModelError(std::string("cannot save the model: ") + error.what());
  }
  out += " \"tensors\": {";
  bool first = true;
  for_each_parameter(
      model.parameters, config,
      [&](const std::string& name, const Tensor& visited, const Shape& expected_shape) {
        const Tensor& tensor = values_of(visited);
        out += first ? "\n  \"" : ",\n  \"";
        first = false;
        out += name;  // our own names: nothing to escape
        out += "\": {\"shape\": ";
        out += OrderedJson(expected_shape).dump();  // checked above
        const bool as_int8 = words_as_int8 && &visited == word_embedding;
        const TensorEncoding values = encoding == TensorEncoding::base64_float16_int8_words
                                          ? TensorEncoding::base64_float16
                                          : encoding;
        out += ", \"dtype\": \"";
        out += as_int8 ? kInt8 : values == TensorEncoding::base64_float16 ? kFloat16 : kFloat32;
        out += "\", ";
        if (as_int8 && kept_words != nullptr) {
          append_int8_rows(*kept_words, out);
        } else if (as_int8) {
          append_int8_rows(quantize_rows(tensor), out);
        } else {
          out += "\"data\": ";
          append_tensor_data(tensor, values, out);
        }
        out += '}';
      });
  out += "\n }\n}\n";
  return out;
}

}  // namespace sawtag
