// Tags words with a loaded model. The model is read-only while tagging, so one Tagger can be
// used from many threads at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sawtag/model.hpp"

namespace sawtag {

struct TagOptions {
  int top_k = 0;                   // also return the k most likely tags of each word
  bool capture_attention = false;  // fill TagResult::attention
};

struct TagCandidate {
  std::string tag;
  float probability = 0.0f;
};

struct WordTags {
  std::string upos;
  std::string xpos;
  float upos_probability = 0.0f;
  float xpos_probability = 0.0f;
  std::vector<TagCandidate> upos_top;  // top_k candidates, most likely first
  std::vector<TagCandidate> xpos_top;
};

// Attention probabilities of every layer and head: weights[((layer * num_heads + head) *
// num_words + i) * num_words + j] is how much word i attends to word j; each row sums to 1.
struct AttentionMaps {
  int num_layers = 0;
  int num_heads = 0;
  int num_words = 0;
  std::vector<float> weights;

  float at(int layer, int head, int i, int j) const {
    return weights[((static_cast<std::size_t>(layer) * num_heads + head) * num_words + i) *
                       num_words + j];
  }
};

struct TagResult {
  std::vector<WordTags> words;
  AttentionMaps attention;  // empty unless TagOptions::capture_attention
};

class Tagger {
 public:
  // Runs the model's self-tests and throws ModelError when one fails.
  explicit Tagger(std::shared_ptr<const Model> model);

  TagResult tag(const std::vector<std::string>& words, const TagOptions& options = {}) const;

  const Model& model() const { return *model_; }

 private:
  std::shared_ptr<const Model> model_;
};

}  // namespace sawtag
