#include "nn/embedding.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "nn/linear.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"

namespace sawtag::nn {

namespace {

void require_index(const char* what, int index, std::int64_t size) {
  if (index < 0 || index >= size) {
    throw Error(std::string("embedding: ") + what + " " + std::to_string(index) +
                " is outside [0, " + std::to_string(size) + ")");
  }
}

}  // namespace

Matrix sinusoidal_positions(int num_words, int d_model) {
  // 10000^(2k / d_model) of each column, computed once rather than once per word.
  std::vector<double> divisors(static_cast<std::size_t>(d_model));
  for (int column = 0; column < d_model; ++column) {
    const int even = column - column % 2;  // 2k
    divisors[static_cast<std::size_t>(column)] =
        std::pow(10000.0, static_cast<double>(even) / static_cast<double>(d_model));
  }
  Matrix positions(num_words, d_model);
  for (int pos = 0; pos < num_words; ++pos) {
    for (int column = 0; column < d_model; ++column) {
      const double angle = pos / divisors[static_cast<std::size_t>(column)];
      positions(pos, column) = static_cast<float>(column % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return positions;
}

Matrix embedding_forward(const EncoderParameters& parameters, const ModelConfig& config,
                         const std::vector<WordFeatures>& words, const Segments& segments,
                         EmbeddingCache* cache) {
  const int n = static_cast<int>(words.size());
  if (segments.rows() != n) {
    throw Error("embedding: " + std::to_string(n) + " words for " +
                std::to_string(segments.rows()) + " rows");
  }
  const ConstMatrixMap word_embedding = as_matrix(parameters.word_embedding);
  const ConstMatrixMap shape_embedding = as_matrix(parameters.shape_embedding);
  const int char_offset = config.word_dim;
  const int shape_offset = config.word_dim + config.char_feature_dim();
  const int edge_offset = shape_offset + config.shape_dim;
  const int edge_dim = config.edge_char_dim;
  const ConstMatrixMap first_char_embedding = as_matrix(parameters.first_char_embedding);
  const ConstMatrixMap last_char_embedding = as_matrix(parameters.last_char_embedding);
  // [n, input_dim]
  Matrix features(n, config.input_dim());
  features.middleCols(char_offset, config.char_feature_dim()) = char_cnn_forward(
      parameters, config, words, cache != nullptr ? &cache->characters : nullptr);
  if (cache != nullptr) {
    cache->word_ids.clear();
    cache->shapes.clear();
    cache->edges.clear();
  }
  for (int i = 0; i < n; ++i) {
    const WordFeatures& word = words[static_cast<std::size_t>(i)];
    require_index("word id", word.word_id, word_embedding.rows());
    require_index("word shape", word.shape, shape_embedding.rows());
    features.row(i).head(config.word_dim) = word_embedding.row(word.word_id);
    features.row(i).segment(shape_offset, config.shape_dim) = shape_embedding.row(word.shape);
    if (cache != nullptr) {
      cache->word_ids.push_back(word.word_id);
      cache->shapes.push_back(word.shape);
    }
    if (edge_dim > 0) {
      const EdgeChars edges = edge_chars(word);
      require_index("first char id", edges.first, first_char_embedding.rows());
      require_index("last char id", edges.last, last_char_embedding.rows());
      features.row(i).segment(edge_offset, edge_dim) = first_char_embedding.row(edges.first);
      features.row(i).segment(edge_offset + edge_dim, edge_dim) =
          last_char_embedding.row(edges.last);
      if (cache != nullptr) cache->edges.push_back(edges);
    }
  }
  Matrix x = linear_forward(parameters.input_projection, features);
  const Matrix positions = sinusoidal_positions(segments.longest(), config.d_model);
  for (int s = 0; s < segments.count(); ++s) {
    x.middleRows(segments.offset(s), segments.length(s)) += positions.topRows(segments.length(s));
  }
  if (cache != nullptr) cache->features = std::move(features);
  return x;
}

Matrix embedding_forward(const EncoderParameters& parameters, const ModelConfig& config,
                         const std::vector<WordFeatures>& words, EmbeddingCache* cache) {
  return embedding_forward(parameters, config, words,
                           Segments::single(static_cast<int>(words.size())), cache);
}

void embedding_backward(const EncoderParameters& parameters, const ModelConfig& config,
                        const EmbeddingCache& cache, const Matrix& d_x,
                        EncoderParameters& gradients) {
  const Matrix d_features = linear_backward(parameters.input_projection, cache.features, d_x,
                                            gradients.input_projection);
  MatrixMap d_word_embedding = as_matrix(gradients.word_embedding);
  MatrixMap d_shape_embedding = as_matrix(gradients.shape_embedding);
  const int shape_offset = config.word_dim + config.char_feature_dim();
  for (std::size_t i = 0; i < cache.word_ids.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    d_word_embedding.row(cache.word_ids[i]) += d_features.row(row).head(config.word_dim);
    d_shape_embedding.row(cache.shapes[i]) +=
        d_features.row(row).segment(shape_offset, config.shape_dim);
  }
  const int edge_dim = config.edge_char_dim;
  if (edge_dim > 0) {
    MatrixMap d_first_char_embedding = as_matrix(gradients.first_char_embedding);
    MatrixMap d_last_char_embedding = as_matrix(gradients.last_char_embedding);
    const int edge_offset = shape_offset + config.shape_dim;
    for (std::size_t i = 0; i < cache.edges.size(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      d_first_char_embedding.row(cache.edges[i].first) +=
          d_features.row(row).segment(edge_offset, edge_dim);
      d_last_char_embedding.row(cache.edges[i].last) +=
          d_features.row(row).segment(edge_offset + edge_dim, edge_dim);
    }
  }
  char_cnn_backward(parameters, config, cache.characters,
                    d_features.middleCols(config.word_dim, config.char_feature_dim()), gradients);
}

}  // namespace sawtag::nn
