// Training's large matrix products (every Linear's forward and backward), computed by Eigen
// compiled for the CPU level that tagging runs at (infer/kernels.hpp: measured, cached or
// SAWTAG_CPU), not for the build's flags: a portable build (-DSAWTAG_NATIVE=OFF, the .deb)
// trains as fast as a native one. avx512vnni, avx512bf16 and amx train on the avx512 code,
// avxvnni on the avx2 code (training is float32). The same level gives the same floats, run after
// run, so the same seed and the same level give the same model; another level may differ in the
// last bits.
#pragma once

#include "nn/levels/level_products.hpp"
#include "nn/matrix.hpp"

namespace sawtag::nn {

// The products of the level chosen for this process (chosen once; throws Error as
// infer::kernels() does for a bad SAWTAG_CPU).
const LevelProducts& products();

// x: [n, k], w: [k, m] -> x w: [n, m]
Matrix times(const Matrix& x, const ConstMatrixMap& w);

// d_w: [k, m] += x^T d_y, with x: [n, k], d_y: [n, m]
void add_transposed_times(const Matrix& x, const Matrix& d_y, MatrixMap d_w);

// d_y: [n, m], w: [k, m] -> d_y w^T: [n, k]
Matrix times_transposed(const Matrix& d_y, const ConstMatrixMap& w);

}  // namespace sawtag::nn
