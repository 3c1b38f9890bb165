#include "nn/dropout.hpp"

#include <random>
#include "sawtag/error.hpp"

namespace sawtag::nn {

Matrix dropout_forward(const Matrix& x, const ForwardOptions& options, Matrix* mask) {
  if (!options.training()) {
    if (mask != nullptr) mask->resize(0, 0);
    return x;
  }
  if (options.random == nullptr) {
    throw Error("dropout_forward: dropout_rate > 0 needs a random generator");
  }
  if (!(options.dropout_rate < 1.0f)) {
    throw Error("dropout_forward: dropout_rate must be below 1");
  }
  const float keep_scale = 1.0f / (1.0f - options.dropout_rate);
  std::bernoulli_distribution drop(options.dropout_rate);
  Matrix factors(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < factors.size(); ++i) {
    factors.data()[i] = drop(*options.random) ? 0.0f : keep_scale;
  }
  Matrix y = x.cwiseProduct(factors);
  if (mask != nullptr) *mask = std::move(factors);
  return y;
}

Matrix dropout_backward(const Matrix& d_y, const Matrix& mask) {
  if (mask.size() == 0) return d_y;
  return d_y.cwiseProduct(mask);
}

}  // namespace sawtag::nn
