// Inverted dropout, applied while training on the embeddings and on every residual branch.
#pragma once

#include "nn/forward_options.hpp"
#include "nn/matrix.hpp"
#include "nn/segments.hpp"

namespace sawtag::nn {

// x: [rows, d] -> [rows, d]. When options.training(), each element is zeroed with probability
// options.dropout_rate and the others are divided by (1 - rate); the rows of sentence s are
// drawn from options.random[s], row by row. The mask of factors is kept in *mask when given.
// Otherwise x is returned unchanged and *mask is left empty.
Matrix dropout_forward(const Matrix& x, const Segments& segments, const ForwardOptions& options,
                       Matrix* mask);

// d_y: [rows, d] -> d_x: [rows, d]. An empty mask means no dropout was applied.
Matrix dropout_backward(const Matrix& d_y, const Matrix& mask);

}  // namespace sawtag::nn
