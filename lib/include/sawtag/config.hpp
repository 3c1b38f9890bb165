// Every size and option needed to rebuild the network. Travels inside the model file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sawtag {

struct ModelConfig {
  // Input features of each word.
  int word_dim = 128;                    // lower-cased word embedding
  int char_dim = 48;                     // character embedding
  std::vector<int> char_widths{2, 3, 4}; // character convolution widths
  int char_filters = 64;                 // filters per width; max-pooled over the word
  int max_word_chars = 32;               // longer words keep their first and last halves
  int shape_dim = 16;                    // word-shape embedding (kNumWordShapes classes)
  // Embeddings of a word's first and of its last character, each of this size, over the
  // character vocabulary; 0 = none (the file then has no such field, and no such tensors).
  // For Chinese, whose words' tags follow their first and last characters.
  int edge_char_dim = 0;

  // Encoder.
  int d_model = 256;
  int num_heads = 8;
  int num_layers = 3;
  int d_ff = 512;                     // feed-forward hidden size (GELU)
  bool relative_position = true;      // learned per-head bias on clip(j - i) inside attention
  int max_relative_distance = 16;     // clip for the relative-position bias
  float layer_norm_epsilon = 1e-5f;
  int max_sequence_length = 256;      // longer sentences: TagOptions::long_sentence_window

  // Sizes of the vocabularies and tag sets. Derived from the model's lists when a file is
  // loaded (they are not stored in the config section), set by the trainer when it builds them.
  int word_vocab_size = 0;
  int char_vocab_size = 0;
  int num_upos = 0;
  int num_xpos = 0;
  // Classes of the optional morphology heads: whole FEATS strings and lemma rules (Model::feats,
  // Model::lemma_rules); 0 = the model has no such head (and no such tensors).
  int num_feats = 0;
  int num_lemma_rules = 0;

  int head_dim() const { return d_model / num_heads; }
  int char_feature_dim() const { return char_filters * static_cast<int>(char_widths.size()); }
  int input_dim() const { return word_dim + char_feature_dim() + shape_dim + 2 * edge_char_dim; }
};

// Throws ModelError naming the first bad field: zero or negative sizes, d_model not divisible
// by num_heads, sizes so large they would exhaust memory.
void validate(const ModelConfig& config);

// The values of the tables a Tagger derives from a model of this config when it is built (not
// stored in the file, so the file's size cannot bound them): every character's convolution
// products and the position table. validate() refuses a config whose tables pass
// kMaxDerivedValues; a file of several taggers (Model::ensemble) is held to it for all of them
// together.
std::int64_t derived_values(const ModelConfig& config);
inline constexpr std::int64_t kMaxDerivedValues = std::int64_t{1} << 26;  // 256 MiB of float32

}  // namespace sawtag
