// The walkthrough's numbers: the encoder's forward pass for one sentence, written out step by
// step with the functions of lib/src/nn (the ones training uses and the tests hold the tagging
// network to), keeping what the textbook names: a, e, q, k, v, scores, weights, b, W^o.
#include "sawtag/walkthrough.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "nn/attention.hpp"
#include "nn/char_cnn.hpp"
#include "nn/embedding.hpp"
#include "nn/feed_forward.hpp"
#include "nn/layer_norm.hpp"
#include "nn/linear.hpp"
#include "nn/matrix.hpp"
#include "sawtag/error.hpp"
#include "sawtag/features.hpp"

namespace sawtag {
namespace {

using nn::Matrix;

StepMatrix to_step(const Matrix& matrix) {
  StepMatrix step;
  step.rows = static_cast<int>(matrix.rows());
  step.cols = static_cast<int>(matrix.cols());
  step.values.assign(matrix.data(), matrix.data() + matrix.size());
  return step;
}

// Columns [first, first + count) of a tensor seen as a matrix ([n] tensors are one row).
StepMatrix columns_of(const Tensor& tensor, int first, int count, bool as_row) {
  if (as_row) return to_step(Matrix(nn::as_row_vector(tensor).segment(first, count)));
  return to_step(Matrix(nn::as_matrix(tensor).middleCols(first, count)));
}

// [n, input_dim]: each word's [word ; characters ; shape (; first ; last character)], as
// nn/embedding.cpp assembles them. A word table kept as int8 rows (Model::word_embedding_int8)
// is widened row by row, to the floats a widened table holds.
Matrix input_features(const Model& model, const std::vector<WordFeatures>& words) {
  const ModelConfig& config = model.config;
  const EncoderParameters& encoder = model.parameters.encoder;
  const int n = static_cast<int>(words.size());
  const int shape_offset = config.word_dim + config.char_feature_dim();
  const int edge_offset = shape_offset + config.shape_dim;
  Matrix features(n, config.input_dim());
  features.middleCols(config.word_dim, config.char_feature_dim()) =
      nn::char_cnn_forward(encoder, config, words, nullptr);
  for (int i = 0; i < n; ++i) {
    const WordFeatures& word = words[static_cast<std::size_t>(i)];
    if (model.word_embedding_int8) {
      nn::RowVector row(config.word_dim);
      widen_row(*model.word_embedding_int8, word.word_id, row.data());
      features.row(i).head(config.word_dim) = row;
    } else {
      features.row(i).head(config.word_dim) =
          nn::as_matrix(encoder.word_embedding).row(word.word_id);
    }
    features.row(i).segment(shape_offset, config.shape_dim) =
        nn::as_matrix(encoder.shape_embedding).row(word.shape);
    if (config.edge_char_dim > 0) {
      const EdgeChars edges = edge_chars(word);
      features.row(i).segment(edge_offset, config.edge_char_dim) =
          nn::as_matrix(encoder.first_char_embedding).row(edges.first);
      features.row(i).segment(edge_offset + config.edge_char_dim, config.edge_char_dim) =
          nn::as_matrix(encoder.last_char_embedding).row(edges.last);
    }
  }
  return features;
}

// Head `head`'s steps, from the layer's attention cache (attention_forward of one sentence).
HeadSteps head_steps(const AttentionParameters& attention, const ModelConfig& config,
                     const nn::AttentionCache& cache, int head) {
  const int d = config.head_dim();
  const int first = head * d;
  const auto n = cache.queries.rows();
  HeadSteps steps;
  steps.head = head;
  steps.w_q = columns_of(attention.query.weight, first, d, false);
  steps.w_k = columns_of(attention.key.weight, first, d, false);
  steps.w_v = columns_of(attention.value.weight, first, d, false);
  steps.b_q = columns_of(attention.query.bias, first, d, true);
  steps.b_k = columns_of(attention.key.bias, first, d, true);
  steps.b_v = columns_of(attention.value.bias, first, d, true);
  const Matrix q = cache.queries.middleCols(first, d);
  const Matrix k = cache.keys.middleCols(first, d);
  steps.q = to_step(q);
  steps.k = to_step(k);
  steps.v = to_step(Matrix(cache.values.middleCols(first, d)));
  // As nn/attention.cpp scales them.
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  steps.scores = to_step(Matrix(scale * (q * k.transpose())));
  Matrix bias = Matrix::Zero(n, n);
  if (config.relative_position) {
    const nn::ConstMatrixMap table = nn::as_matrix(attention.relative_bias);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        bias(i, j) = table(head, nn::relative_bias_index(i, j, config.max_relative_distance));
      }
    }
  }
  steps.position_bias = to_step(bias);
  steps.weights = to_step(cache.probabilities.at(static_cast<std::size_t>(head)));
  steps.b = to_step(Matrix(cache.heads.middleCols(first, d)));
  return steps;
}

// `chosen` (counted from 0) must be one of `count`, or -1 for every one (kEveryLayer, kEveryHead).
void check_choice(const char* what, int chosen, int count, const char* counted) {
  static_assert(kEveryLayer == -1 && kEveryHead == -1, "every layer and every head are -1");
  if (chosen == -1 || (chosen >= 0 && chosen < count)) return;
  throw InputError(std::string(what) + " " + std::to_string(chosen + 1) + ": the model has " +
                   std::to_string(count) + " " + counted);
}

}  // namespace

Walkthrough walk_through(const Tagger& tagger, const std::vector<std::string>& words,
                         const WalkthroughOptions& options) {
  const Model& model = tagger.model();
  const ModelConfig& config = model.config;
  const EncoderParameters& encoder = model.parameters.encoder;
  const int n = static_cast<int>(words.size());
  if (n == 0) throw InputError("walkthrough: the sentence has no words");
  if (n > tagger.max_window()) {
    throw InputError("walkthrough: the sentence has " + std::to_string(n) +
                     " words, more than the model's window of " +
                     std::to_string(tagger.max_window()) +
                     " (a longer sentence is tagged in overlapping windows, and no single set "
                     "of steps describes it): split it");
  }
  check_choice("layer", options.layer, config.num_layers, "layers");
  check_choice("head", options.head, config.num_heads, "heads per layer");

  Walkthrough walk;
  walk.model = WalkthroughModel{config.d_model,
                                config.num_heads,
                                config.head_dim(),
                                config.num_layers,
                                config.relative_position,
                                config.max_relative_distance,
                                config.layer_norm_epsilon,
                                static_cast<int>(model.ensemble.size()) + 1};
  walk.words = words;
  const TagResult tagged = tagger.tag(words);
  for (const WordTags& word : tagged.words) {
    walk.tags.push_back(word.upos);
    walk.probabilities.push_back(word.upos_probability);
  }

  std::vector<WordFeatures> features;
  for (const std::string& word : words) features.push_back(word_features(model, word));
  const Matrix projected =
      nn::linear_forward(encoder.input_projection, input_features(model, features));
  const Matrix position = nn::sinusoidal_positions(n, config.d_model);
  Matrix x = projected + position;  // the residual stream
  walk.projected = to_step(projected);
  walk.position = to_step(position);
  walk.a = to_step(x);

  const float epsilon = config.layer_norm_epsilon;
  for (int l = 0; l < config.num_layers; ++l) {
    const EncoderLayerParameters& layer = encoder.layers.at(static_cast<std::size_t>(l));
    const Matrix a = nn::layer_norm_forward(layer.attention_norm, x, epsilon, nullptr);
    nn::AttentionCache cache;
    const Matrix output = nn::attention_forward(layer.attention, config, a, &cache);
    if (options.layer == kEveryLayer || options.layer == l) {
      LayerSteps steps;
      steps.layer = l;
      steps.a = to_step(a);
      for (int h = 0; h < config.num_heads; ++h) {
        if (options.head == kEveryHead || options.head == h) {
          steps.heads.push_back(head_steps(layer.attention, config, cache, h));
        }
      }
      steps.concat = to_step(cache.heads);
      steps.w_o = to_step(Matrix(nn::as_matrix(layer.attention.output.weight)));
      steps.b_o = columns_of(layer.attention.output.bias, 0, config.d_model, true);
      steps.output = to_step(output);
      walk.layers.push_back(std::move(steps));
    }
    // Pre-norm residual branches, as nn/network.cpp's encoder_forward.
    x += output;
    x += nn::feed_forward_forward(
        layer.feed_forward, nn::layer_norm_forward(layer.feed_forward_norm, x, epsilon, nullptr),
        nullptr);
  }
  const Matrix encoded = nn::layer_norm_forward(encoder.final_norm, x, epsilon, nullptr);
  walk.upos_logits = to_step(nn::linear_forward(model.parameters.heads.upos, encoded));
  return walk;
}

}  // namespace sawtag
