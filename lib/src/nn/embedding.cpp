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

int widest_convolution(const ModelConfig& config) {
  return config.char_widths.empty()
             ? 1
             : *std::max_element(config.char_widths.begin(), config.char_widths.end());
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

RowVector char_encoder_forward(const EncoderParameters& parameters, const ModelConfig& config,
                               const std::vector<int>& char_ids, WordCharactersCache* cache) {
  const ConstMatrixMap char_embedding = as_matrix(parameters.char_embedding);
  std::vector<int> ids = char_ids;
  if (static_cast<int>(ids.size()) < widest_convolution(config)) {
    ids.resize(static_cast<std::size_t>(widest_convolution(config)), kPaddingChar);
  }
  for (int id : ids) require_index("char id", id, char_embedding.rows());
  const int char_dim = config.char_dim;
  const int filters = config.char_filters;
  RowVector output(config.char_feature_dim());
  std::vector<CharConvolutionCache> convolutions;
  for (std::size_t c = 0; c < config.char_widths.size(); ++c) {
    const int width = config.char_widths[c];
    const int positions = static_cast<int>(ids.size()) - width + 1;
    CharConvolutionCache convolution;
    // [positions, width * char_dim]
    convolution.windows.resize(positions, Eigen::Index{width} * char_dim);
    for (int p = 0; p < positions; ++p) {
      for (int k = 0; k < width; ++k) {
        convolution.windows.row(p).segment(Eigen::Index{k} * char_dim, char_dim) =
            char_embedding.row(ids[static_cast<std::size_t>(p + k)]);
      }
    }
    // [positions, width * char_dim] x [width * char_dim, filters] -> [positions, filters]
    const Matrix responses = linear_forward(parameters.char_convolutions[c], convolution.windows);
    convolution.best_position.resize(static_cast<std::size_t>(filters));
    convolution.pooled.resize(filters);
    for (int f = 0; f < filters; ++f) {
      Eigen::Index best = 0;
      convolution.pooled(f) = responses.col(f).maxCoeff(&best);
      convolution.best_position[static_cast<std::size_t>(f)] = static_cast<int>(best);
    }
    output.segment(static_cast<Eigen::Index>(c) * filters, filters) =
        convolution.pooled.cwiseMax(0.0f);
    if (cache != nullptr) convolutions.push_back(std::move(convolution));
  }
  if (cache != nullptr) {
    cache->char_ids = std::move(ids);
    cache->convolutions = std::move(convolutions);
  }
  return output;
}

void char_encoder_backward(const EncoderParameters& parameters, const ModelConfig& config,
                           const WordCharactersCache& cache, const RowVector& d_output,
                           EncoderParameters& gradients) {
  MatrixMap d_char_embedding = as_matrix(gradients.char_embedding);
  const int char_dim = config.char_dim;
  const int filters = config.char_filters;
  for (std::size_t c = 0; c < config.char_widths.size(); ++c) {
    const int width = config.char_widths[c];
    const CharConvolutionCache& convolution = cache.convolutions[c];
    // Only each filter's best position receives gradient, and only where ReLU let it through.
    Matrix d_responses = Matrix::Zero(convolution.windows.rows(), filters);
    for (int f = 0; f < filters; ++f) {
      if (convolution.pooled(f) > 0.0f) {
        d_responses(convolution.best_position[static_cast<std::size_t>(f)], f) =
            d_output(static_cast<Eigen::Index>(c) * filters + f);
      }
    }
    const Matrix d_windows = linear_backward(parameters.char_convolutions[c], convolution.windows,
                                             d_responses, gradients.char_convolutions[c]);
    for (Eigen::Index p = 0; p < d_windows.rows(); ++p) {
      for (int k = 0; k < width; ++k) {
        d_char_embedding.row(cache.char_ids[static_cast<std::size_t>(p + k)]) +=
            d_windows.row(p).segment(Eigen::Index{k} * char_dim, char_dim);
      }
    }
  }
}

Matrix embedding_forward(const EncoderParameters& parameters, const ModelConfig& config,
                         const std::vector<WordFeatures>& words, EmbeddingCache* cache) {
  const int n = static_cast<int>(words.size());
  const ConstMatrixMap word_embedding = as_matrix(parameters.word_embedding);
  const ConstMatrixMap shape_embedding = as_matrix(parameters.shape_embedding);
  const int char_offset = config.word_dim;
  const int shape_offset = config.word_dim + config.char_feature_dim();
  // [n, input_dim]
  Matrix features(n, config.input_dim());
  if (cache != nullptr) {
    cache->word_ids.clear();
    cache->shapes.clear();
    cache->characters.assign(static_cast<std::size_t>(n), WordCharactersCache{});
  }
  for (int i = 0; i < n; ++i) {
    const WordFeatures& word = words[static_cast<std::size_t>(i)];
    require_index("word id", word.word_id, word_embedding.rows());
    require_index("word shape", word.shape, shape_embedding.rows());
    features.row(i).head(config.word_dim) = word_embedding.row(word.word_id);
    features.row(i).segment(char_offset, config.char_feature_dim()) = char_encoder_forward(
        parameters, config, word.char_ids,
        cache != nullptr ? &cache->characters[static_cast<std::size_t>(i)] : nullptr);
    features.row(i).segment(shape_offset, config.shape_dim) = shape_embedding.row(word.shape);
    if (cache != nullptr) {
      cache->word_ids.push_back(word.word_id);
      cache->shapes.push_back(word.shape);
    }
  }
  Matrix x = linear_forward(parameters.input_projection, features);
  x += sinusoidal_positions(n, config.d_model);
  if (cache != nullptr) cache->features = std::move(features);
  return x;
}

void embedding_backward(const EncoderParameters& parameters, const ModelConfig& config,
                        const EmbeddingCache& cache, const Matrix& d_x,
                        EncoderParameters& gradients) {
  const Matrix d_features = linear_backward(parameters.input_projection, cache.features, d_x,
                                            gradients.input_projection);
  MatrixMap d_word_embedding = as_matrix(gradients.word_embedding);
  MatrixMap d_shape_embedding = as_matrix(gradients.shape_embedding);
  const int char_offset = config.word_dim;
  const int shape_offset = config.word_dim + config.char_feature_dim();
  for (std::size_t i = 0; i < cache.word_ids.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    d_word_embedding.row(cache.word_ids[i]) += d_features.row(row).head(config.word_dim);
    d_shape_embedding.row(cache.shapes[i]) +=
        d_features.row(row).segment(shape_offset, config.shape_dim);
    const RowVector d_chars = d_features.row(row).segment(char_offset, config.char_feature_dim());
    char_encoder_backward(parameters, config, cache.characters[i], d_chars, gradients);
  }
}

}  // namespace sawtag::nn
