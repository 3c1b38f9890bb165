#include "infer/head_attention.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cstddef>

#include "nn/matrix.hpp"

namespace sawtag::infer {

namespace {

// Score rows are padded to 16 floats: one AVX-512 register, two AVX ones.
constexpr int kBlock = 16;
using StridedMap = Eigen::Map<const nn::Matrix, 0, Eigen::OuterStride<>>;
using StridedMutableMap = Eigen::Map<nn::Matrix, 0, Eigen::OuterStride<>>;
// From windows of this many words on, Eigen's blocked matrix products; below, the CPU level's
// loops over 16-float blocks (kernels/row_kernels.inc), which cost less for the few dozen words of
// most sentences. Either way a window's result depends only on the window.
constexpr int kMatrixProductWords = 64;

}  // namespace

int padded_length(int n) { return (n + kBlock - 1) / kBlock * kBlock; }

bool computes_rows_alone(int n) { return n < kMatrixProductWords; }

void copy_keys_and_values(const float* keys, const float* values, int stride, int n, int head_dim,
                          int padded, float* keys_t, float* values_out) {
  // Column by column of keys_t: its rows are written whole (and vectorise, with gathers where
  // the CPU has them).
  for (int c = 0; c < head_dim; ++c) {
    float* column = keys_t + static_cast<std::size_t>(c) * padded;
    for (int j = 0; j < n; ++j) column[j] = keys[static_cast<std::size_t>(j) * stride + c];
  }
  for (int j = 0; j < n; ++j) {
    std::copy_n(values + static_cast<std::size_t>(j) * stride, head_dim,
                values_out + static_cast<std::size_t>(j) * head_dim);
  }
}

void head_scores(const Kernels& kernels, const HeadCall& call) {
  if (call.n < kMatrixProductWords) {
    kernels.code.head_scores(call);
    return;
  }
  StridedMutableMap(call.scores, call.rows, call.n, Eigen::OuterStride<>(call.padded)).noalias() =
      StridedMap(call.queries, call.rows, call.head_dim, Eigen::OuterStride<>(call.query_stride)) *
      StridedMap(call.keys_t, call.head_dim, call.n, Eigen::OuterStride<>(call.padded));
}

void weighted_values(const Kernels& kernels, const HeadCall& call) {
  if (call.n < kMatrixProductWords) {
    kernels.code.weighted_values(call);
    return;
  }
  StridedMutableMap(call.output, call.rows, call.head_dim, Eigen::OuterStride<>(call.output_stride))
      .noalias() =
      StridedMap(call.scores, call.rows, call.n, Eigen::OuterStride<>(call.padded)) *
      StridedMap(call.values, call.n, call.head_dim, Eigen::OuterStride<>(call.head_dim));
}

}  // namespace sawtag::infer
