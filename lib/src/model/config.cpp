#include "sawtag/config.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "sawtag/error.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag {
namespace {

// Far beyond any sensible tagger, and small enough that allocating it cannot exhaust memory.
constexpr int kMaxDimension = 16384;
constexpr int kMaxVocabulary = 5'000'000;
constexpr int kMaxLayers = 64;
constexpr int kMaxWidth = 16;
constexpr std::int64_t kMaxParameters = 1'000'000'000 / 4;  // 1 GB of float32
constexpr std::int64_t kLongestPositionTable = 1024;  // infer/inference_network.cpp's window

void require_range(const char* field, std::int64_t actual, std::int64_t low, std::int64_t high) {
  if (actual < low || actual > high) {
    throw ModelError("config." + std::string(field) + " = " + std::to_string(actual) +
                     " is out of range: expected " + std::to_string(low) + " to " +
                     std::to_string(high));
  }
}

}  // namespace

// The tables a Tagger derives from the weights when it is built (lib/src/infer/): every
// character's convolution products, [sum of char_widths, char_vocab_size, char_filters], and
// the position table, [min(max_sequence_length, 1024), d_model]. The shipped English model's
// are 0.33 M values.
std::int64_t derived_values(const ModelConfig& config) {
  std::int64_t width_sum = 0;
  for (int width : config.char_widths) width_sum += width;
  return width_sum * config.char_vocab_size * config.char_filters +
         std::min<std::int64_t>(config.max_sequence_length, kLongestPositionTable) *
             config.d_model;
}

void validate(const ModelConfig& config) {
  require_range("word_dim", config.word_dim, 1, kMaxDimension);
  require_range("char_dim", config.char_dim, 1, kMaxDimension);
  require_range("char_filters", config.char_filters, 1, kMaxDimension);
  require_range("max_word_chars", config.max_word_chars, 1, 1024);
  require_range("shape_dim", config.shape_dim, 1, kMaxDimension);
  require_range("edge_char_dim", config.edge_char_dim, 0, kMaxDimension);
  require_range("d_model", config.d_model, 1, kMaxDimension);
  require_range("num_heads", config.num_heads, 1, kMaxDimension);
  require_range("num_layers", config.num_layers, 1, kMaxLayers);
  require_range("d_ff", config.d_ff, 1, 4 * kMaxDimension);
  require_range("max_relative_distance", config.max_relative_distance, 1, 4096);
  require_range("max_sequence_length", config.max_sequence_length, 2, 1'000'000);
  require_range("word_vocab_size", config.word_vocab_size, 1, kMaxVocabulary);
  require_range("char_vocab_size", config.char_vocab_size, 4, kMaxVocabulary);
  require_range("num_upos", config.num_upos, 1, 10'000);
  require_range("num_xpos", config.num_xpos, 1, 10'000);
  require_range("num_feats", config.num_feats, 0, 100'000);
  require_range("num_lemma_rules", config.num_lemma_rules, 0, 100'000);
  require_range("char_widths (count)", static_cast<std::int64_t>(config.char_widths.size()), 1, 8);
  for (int width : config.char_widths) require_range("char_widths", width, 1, kMaxWidth);
  if (config.d_model % config.num_heads != 0) {
    throw ModelError("config.d_model = " + std::to_string(config.d_model) +
                     " is not divisible by config.num_heads = " +
                     std::to_string(config.num_heads));
  }
  if (!(config.layer_norm_epsilon > 0.0f && config.layer_norm_epsilon < 1.0f)) {
    throw ModelError("config.layer_norm_epsilon = " + std::to_string(config.layer_norm_epsilon) +
                     " is out of range: expected a value in (0, 1)");
  }
  const std::int64_t derived = derived_values(config);
  if (derived > kMaxDerivedValues) {
    throw ModelError(
        "config: the tables built from the model when it is loaded (character "
        "products: sum of char_widths x chars x char_filters, positions: "
        "max_sequence_length x d_model) would hold " +
        std::to_string(derived) + " values, more than the limit of " +
        std::to_string(kMaxDerivedValues));
  }
  const std::int64_t count = parameter_count(config);
  if (count > kMaxParameters) {
    throw ModelError("config describes " + std::to_string(count) +
                     " parameters, more than the limit of " + std::to_string(kMaxParameters));
  }
}

}  // namespace sawtag
