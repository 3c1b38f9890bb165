#include "nn/layer_norm.hpp"

#include <cmath>

namespace sawtag::nn {

Matrix layer_norm_forward(const LayerNormParameters& parameters, const Matrix& x, float epsilon,
                          LayerNormCache* cache) {
  const Eigen::Index rows = x.rows();
  const Eigen::Index dim = x.cols();
  Matrix normalized(rows, dim);
  RowVector inverse_std(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const float mean = x.row(i).mean();
    const RowVector centered = x.row(i).array() - mean;
    const float variance = centered.squaredNorm() / static_cast<float>(dim);
    inverse_std(i) = 1.0f / std::sqrt(variance + epsilon);
    normalized.row(i) = centered * inverse_std(i);
  }
  Matrix y = normalized;
  y.array().rowwise() *= as_row_vector(parameters.gamma).array();
  y.rowwise() += as_row_vector(parameters.beta);
  if (cache != nullptr) {
    cache->normalized = std::move(normalized);
    cache->inverse_std = std::move(inverse_std);
  }
  return y;
}

Matrix layer_norm_backward(const LayerNormParameters& parameters, const LayerNormCache& cache,
                           const Matrix& d_y, LayerNormParameters& gradients) {
  as_row_vector(gradients.gamma) += d_y.cwiseProduct(cache.normalized).colwise().sum();
  as_row_vector(gradients.beta) += d_y.colwise().sum();
  // With x_hat the normalized row and g = d_y * gamma:
  // d_x = inverse_std * (g - mean(g) - x_hat * mean(g * x_hat)).
  Matrix d_normalized = d_y;
  d_normalized.array().rowwise() *= as_row_vector(parameters.gamma).array();
  const float dim = static_cast<float>(d_y.cols());
  Matrix d_x(d_y.rows(), d_y.cols());
  for (Eigen::Index i = 0; i < d_y.rows(); ++i) {
    const float mean_gradient = d_normalized.row(i).sum() / dim;
    const float mean_projection = d_normalized.row(i).dot(cache.normalized.row(i)) / dim;
    d_x.row(i) = cache.inverse_std(i) *
                 (d_normalized.row(i).array() - mean_gradient -
                  cache.normalized.row(i).array() * mean_projection)
                     .matrix();
  }
  return d_x;
}

}  // namespace sawtag::nn
