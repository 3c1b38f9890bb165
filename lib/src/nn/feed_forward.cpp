#include "nn/feed_forward.hpp"

#include <cmath>

#include "nn/linear.hpp"

namespace sawtag::nn {

namespace {
constexpr float kInverseSqrt2 = 0.70710678118654752f;
constexpr float kInverseSqrt2Pi = 0.39894228040143268f;  // 1 / sqrt(2 pi)
}  // namespace

Matrix gelu(const Matrix& z) {
  return z.unaryExpr([](float value) {
    return 0.5f * value * (1.0f + std::erf(value * kInverseSqrt2));
  });
}

Matrix gelu_derivative(const Matrix& z) {
  return z.unaryExpr([](float value) {
    const float cumulative = 0.5f * (1.0f + std::erf(value * kInverseSqrt2));
    const float density = kInverseSqrt2Pi * std::exp(-0.5f * value * value);
    return cumulative + value * density;
  });
}

Matrix feed_forward_forward(const FeedForwardParameters& parameters, const Matrix& x,
                            FeedForwardCache* cache) {
  Matrix hidden = linear_forward(parameters.hidden, x);
  Matrix activated = gelu(hidden);
  Matrix y = linear_forward(parameters.output, activated);
  if (cache != nullptr) {
    cache->input = x;
    cache->hidden = std::move(hidden);
    cache->activated = std::move(activated);
  }
  return y;
}

Matrix feed_forward_backward(const FeedForwardParameters& parameters,
                             const FeedForwardCache& cache, const Matrix& d_y,
                             FeedForwardParameters& gradients) {
  const Matrix d_activated =
      linear_backward(parameters.output, cache.activated, d_y, gradients.output);
  const Matrix d_hidden = d_activated.cwiseProduct(gelu_derivative(cache.hidden));
  return linear_backward(parameters.hidden, cache.input, d_hidden, gradients.hidden);
}

}  // namespace sawtag::nn
