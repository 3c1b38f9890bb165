// What the model file's reader and writer share (docs/model-format.md): the names of the
// document's fields and of the tensors' dtypes, the one list of config fields, and the byte
// order and finiteness of the floats of a tensor's data.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>

namespace sawtag::model_file {

// The document's fields. Each may appear once, as may every key of every object.
inline const std::initializer_list<std::string_view> kDocumentFields = {
    "format",       "version",     "config",     "vocabularies", "tag_sets",          "tokenizer",
    "training",     "calibration", "self_tests", "tensors",      "learned_tokenizer", "ensemble",
    "lemma_lexicon", "lemma_casing", "lemma_deletions", "lemma_dictionary"};
inline constexpr std::string_view kBase64Prefix = "base64:";
inline constexpr std::string_view kFloat32 = "float32";
inline constexpr std::string_view kFloat16 = "float16";
inline constexpr std::string_view kInt8 = "int8";

// The one list of config fields, used by both the reader and the writer. The four vocabulary
// sizes are not stored: they are derived from the lists.
template <class Config, class Visit>
void for_each_config_field(Config& config, Visit&& visit) {
  visit("word_dim", config.word_dim);
  visit("char_dim", config.char_dim);
  visit("char_widths", config.char_widths);
  visit("char_filters", config.char_filters);
  visit("max_word_chars", config.max_word_chars);
  visit("shape_dim", config.shape_dim);
  visit("d_model", config.d_model);
  visit("num_heads", config.num_heads);
  visit("num_layers", config.num_layers);
  visit("d_ff", config.d_ff);
  visit("relative_position", config.relative_position);
  visit("max_relative_distance", config.max_relative_distance);
  visit("layer_norm_epsilon", config.layer_norm_epsilon);
  visit("max_sequence_length", config.max_sequence_length);
}
// The one optional config field, written only when above 0 (ModelConfig::edge_char_dim).
inline constexpr const char* kEdgeCharDim = "edge_char_dim";

// The file's floats are little-endian.
inline bool is_little_endian() {
  const std::uint32_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

template <class Floats>
void swap_bytes(Floats& values) {
  for (float& value : values) {
    unsigned char bytes[sizeof(float)];
    std::memcpy(bytes, &value, sizeof(float));
    std::reverse(bytes, bytes + sizeof(float));
    std::memcpy(&value, bytes, sizeof(float));
  }
}

// Index of the first NaN or Inf among `size` values, or `size`. The first pass has no branch,
// so it vectorises: this runs over every weight of every model loaded.
inline std::size_t first_non_finite(const float* values, std::size_t size) {
  constexpr std::uint32_t kExponent = 0x7f800000u;  // all ones for Inf and NaN
  std::uint32_t any = 0;
  for (std::size_t i = 0; i < size; ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, values + i, sizeof(bits));
    any |= static_cast<std::uint32_t>((bits & kExponent) == kExponent);
  }
  if (any == 0) return size;
  for (std::size_t i = 0; i < size; ++i) {
    if (!std::isfinite(values[i])) return i;
  }
  return size;
}

}  // namespace sawtag::model_file
