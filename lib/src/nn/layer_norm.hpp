// Layer normalisation over each row: y = gamma * (x - mean) / sqrt(var + epsilon) + beta.
#pragma once

#include "nn/matrix.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::nn {

// What backward needs from forward.
struct LayerNormCache {
  Matrix normalized;   // [n, d]: (x - mean) / sqrt(var + epsilon), before gamma and beta
  RowVector inverse_std;  // [n]: 1 / sqrt(var + epsilon) of each row
};

// x: [n, d], gamma and beta: [d] -> [n, d]. The variance is the biased one (divided by d).
Matrix layer_norm_forward(const LayerNormParameters& parameters, const Matrix& x, float epsilon,
                          LayerNormCache* cache);

// d_y: [n, d] -> d_x: [n, d]; adds into gradients.gamma and gradients.beta.
Matrix layer_norm_backward(const LayerNormParameters& parameters, const LayerNormCache& cache,
                           const Matrix& d_y, LayerNormParameters& gradients);

}  // namespace sawtag::nn
