// Affine map y = x W + b, the building block of every projection.
#pragma once

#include "nn/matrix.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::nn {

// x: [n, in], W: [in, out], b: [out] -> [n, out]. The input is all backward needs, so the
// caller keeps it (there is no separate cache).
Matrix linear_forward(const LinearParameters& parameters, const Matrix& x);

// Given the forward input x: [n, in] and d_y: [n, out], adds d_W += x^T d_y and
// d_b += column sums of d_y into `gradients`, and returns d_x = d_y W^T: [n, in].
Matrix linear_backward(const LinearParameters& parameters, const Matrix& x, const Matrix& d_y,
                       LinearParameters& gradients);

}  // namespace sawtag::nn
