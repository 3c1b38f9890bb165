#include "nn/feed_forward.hpp"

#include <unsupported/Eigen/SpecialFunctions>

#include <cmath>

#include "nn/linear.hpp"

namespace sawtag::nn {

namespace {
constexpr float kInverseSqrt2 = 0.70710678118654752f;
constexpr float kInverseSqrt2Pi = 0.39894228040143268f;  // 1 / sqrt(2 pi)
}  // namespace

// Eigen's vectorised erf and exp, as the inference path (infer/inference_network.cpp) uses.
Matrix normal_cumulative(const Matrix& z) {
  return (0.5f * (1.0f + (z.array() * kInverseSqrt2).erf())).matrix();
}

Matrix gelu(const Matrix& z) { return z.cwiseProduct(normal_cumulative(z)); }

Matrix gelu_derivative(const Matrix& z, const Matrix& cumulative) {
  const Eigen::ArrayXXf density = kInverseSqrt2Pi * (-0.5f * z.array().square()).exp();
  return (cumulative.array() + z.array() * density).matrix();
}

Matrix feed_forward_forward(const FeedForwardParameters& parameters, const Matrix& x,
                            FeedForwardCache* cache) {
  Matrix hidden = linear_forward(parameters.hidden, x);
  Matrix cumulative = normal_cumulative(hidden);
  Matrix activated = hidden.cwiseProduct(cumulative);
  Matrix y = linear_forward(parameters.output, activated);
  if (cache != nullptr) {
    cache->input = x;
    cache->hidden = std::move(hidden);
    cache->cumulative = std::move(cumulative);
    cache->activated = std::move(activated);
  }
  return y;
}

Matrix feed_forward_backward(const FeedForwardParameters& parameters,
                             const FeedForwardCache& cache, const Matrix& d_y,
                             FeedForwardParameters& gradients) {
  const Matrix d_activated =
      linear_backward(parameters.output, cache.activated, d_y, gradients.output);
  const Matrix d_hidden = d_activated.cwiseProduct(gelu_derivative(cache.hidden, cache.cumulative));
  return linear_backward(parameters.hidden, cache.input, d_hidden, gradients.hidden);
}

}  // namespace sawtag::nn
