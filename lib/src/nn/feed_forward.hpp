// Position-wise feed-forward network: y = GELU(x W_1 + b_1) W_2 + b_2, GELU in its exact form
// GELU(z) = z * Phi(z) = 0.5 z (1 + erf(z / sqrt(2))).
#pragma once

#include "nn/matrix.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::nn {

struct FeedForwardCache {
  Matrix input;      // [n, d_model]
  Matrix hidden;      // [n, d_ff]: x W_1 + b_1, before GELU
  Matrix cumulative;  // [n, d_ff]: Phi(hidden), kept for GELU's derivative
  Matrix activated;   // [n, d_ff]: GELU(hidden) = hidden * Phi(hidden)
};

// x: [n, d_model] -> [n, d_model].
Matrix feed_forward_forward(const FeedForwardParameters& parameters, const Matrix& x,
                            FeedForwardCache* cache);

// d_y: [n, d_model] -> d_x: [n, d_model]; adds into the gradients of both linear maps.
Matrix feed_forward_backward(const FeedForwardParameters& parameters,
                             const FeedForwardCache& cache, const Matrix& d_y,
                             FeedForwardParameters& gradients);

// Elementwise, any shape: Phi(z), the standard normal's cumulative distribution; GELU(z) =
// z Phi(z); and GELU's derivative Phi(z) + z phi(z), given Phi(z).
Matrix normal_cumulative(const Matrix& z);
Matrix gelu(const Matrix& z);
Matrix gelu_derivative(const Matrix& z, const Matrix& cumulative);

}  // namespace sawtag::nn
