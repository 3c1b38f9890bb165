#include "nn/attention.hpp"

#include <algorithm>
#include <cmath>

#include "nn/linear.hpp"
#include "nn/softmax.hpp"

namespace sawtag::nn {

int relative_bias_index(int query, int key, int max_relative_distance) {
  return std::clamp(key - query, -max_relative_distance, max_relative_distance) +
         max_relative_distance;
}

namespace {

// Adds the relative-position bias of `head` to scores: [n, n].
void add_relative_bias(const Tensor& relative_bias, int head, int max_relative_distance,
                       Matrix& scores) {
  const ConstMatrixMap bias = as_matrix(relative_bias);
  const int n = static_cast<int>(scores.rows());
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      scores(i, j) += bias(head, relative_bias_index(i, j, max_relative_distance));
    }
  }
}

}  // namespace

Matrix attention_forward(const AttentionParameters& parameters, const ModelConfig& config,
                         const Matrix& x, const Segments& segments, AttentionCache* cache) {
  const int head_dim = config.head_dim();
  const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
  // One product each over every word of the batch.
  Matrix queries = linear_forward(parameters.query, x);
  Matrix keys = linear_forward(parameters.key, x);
  Matrix values = linear_forward(parameters.value, x);
  Matrix heads(x.rows(), x.cols());
  std::vector<Matrix> probabilities;
  probabilities.reserve(static_cast<std::size_t>(segments.count() * config.num_heads));
  for (int s = 0; s < segments.count(); ++s) {
    const Eigen::Index first_row = segments.offset(s);
    const Eigen::Index n = segments.length(s);
    for (int head = 0; head < config.num_heads; ++head) {
      const Eigen::Index first = Eigen::Index{head} * head_dim;
      // [n, d_k] x [d_k, n] -> [n, n]
      Matrix scores = scale * (queries.block(first_row, first, n, head_dim) *
                               keys.block(first_row, first, n, head_dim).transpose());
      if (config.relative_position) {
        add_relative_bias(parameters.relative_bias, head, config.max_relative_distance, scores);
      }
      Matrix head_probabilities = softmax_rows(scores);
      // [n, n] x [n, d_k] -> [n, d_k]
      heads.block(first_row, first, n, head_dim).noalias() =
          head_probabilities * values.block(first_row, first, n, head_dim);
      probabilities.push_back(std::move(head_probabilities));
    }
  }
  Matrix y = linear_forward(parameters.output, heads);
  if (cache != nullptr) {
    cache->segments = segments;
    cache->input = x;
    cache->queries = std::move(queries);
    cache->keys = std::move(keys);
    cache->values = std::move(values);
    cache->probabilities = std::move(probabilities);
    cache->heads = std::move(heads);
  }
  return y;
}

Matrix attention_forward(const AttentionParameters& parameters, const ModelConfig& config,
                         const Matrix& x, AttentionCache* cache) {
  return attention_forward(parameters, config, x, Segments::single(static_cast<int>(x.rows())),
                           cache);
}

Matrix attention_backward(const AttentionParameters& parameters, const ModelConfig& config,
                          const AttentionCache& cache, const Matrix& d_y,
                          AttentionParameters& gradients) {
  const Segments& segments = cache.segments;
  const int head_dim = config.head_dim();
  const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
  const Matrix d_heads = linear_backward(parameters.output, cache.heads, d_y, gradients.output);
  Matrix d_queries(d_y.rows(), cache.queries.cols());
  Matrix d_keys(d_y.rows(), cache.keys.cols());
  Matrix d_values(d_y.rows(), cache.values.cols());
  for (int s = 0; s < segments.count(); ++s) {
    const Eigen::Index first_row = segments.offset(s);
    const Eigen::Index n = segments.length(s);
    for (int head = 0; head < config.num_heads; ++head) {
      const Eigen::Index first = Eigen::Index{head} * head_dim;
      const Matrix& probabilities =
          cache.probabilities[static_cast<std::size_t>(s * config.num_heads + head)];
      const Matrix d_head = d_heads.block(first_row, first, n, head_dim);
      const auto head_values = cache.values.block(first_row, first, n, head_dim);
      // head = P V: d_P = d_head V^T ([n, n]), d_V = P^T d_head ([n, d_k]).
      const Matrix d_probabilities = d_head * head_values.transpose();
      d_values.block(first_row, first, n, head_dim).noalias() = probabilities.transpose() * d_head;
      const Matrix d_scores = softmax_rows_backward(probabilities, d_probabilities);
      if (config.relative_position) {
        MatrixMap d_bias = as_matrix(gradients.relative_bias);
        for (int i = 0; i < static_cast<int>(n); ++i) {
          for (int j = 0; j < static_cast<int>(n); ++j) {
            d_bias(head, relative_bias_index(i, j, config.max_relative_distance)) +=
                d_scores(i, j);
          }
        }
      }
      // scores = scale Q K^T: d_Q = scale d_S K, d_K = scale d_S^T Q.
      d_queries.block(first_row, first, n, head_dim).noalias() =
          scale * (d_scores * cache.keys.block(first_row, first, n, head_dim));
      d_keys.block(first_row, first, n, head_dim).noalias() =
          scale * (d_scores.transpose() * cache.queries.block(first_row, first, n, head_dim));
    }
  }
  Matrix d_x = linear_backward(parameters.query, cache.input, d_queries, gradients.query);
  d_x += linear_backward(parameters.key, cache.input, d_keys, gradients.key);
  d_x += linear_backward(parameters.value, cache.input, d_values, gradients.value);
  return d_x;
}

}  // namespace sawtag::nn
