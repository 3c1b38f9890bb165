#include "infer/head_attention.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cstddef>

#include "nn/matrix.hpp"

namespace sawtag::infer {

namespace {

// 16 floats summed side by side: one AVX-512 register, two AVX ones.
constexpr int kBlock = 16;
using Block = Eigen::Array<float, kBlock, 1>;
using BlockMap = Eigen::Map<const Block>;
using MutableBlockMap = Eigen::Map<Block>;
using StridedMap = Eigen::Map<const nn::Matrix, 0, Eigen::OuterStride<>>;
using StridedMutableMap = Eigen::Map<nn::Matrix, 0, Eigen::OuterStride<>>;
// From windows of this many words on, Eigen's blocked matrix products; below, loops over
// 16-float blocks, which cost less for the few dozen words of most sentences. Either way a
// window's result depends only on the window.
constexpr int kMatrixProductWords = 64;

}  // namespace

int padded_length(int n) { return (n + kBlock - 1) / kBlock * kBlock; }

void copy_keys_and_values(const float* keys, const float* values, int stride, int n, int head_dim,
                          int padded, float* keys_t, float* values_out) {
  for (int j = 0; j < n; ++j) {
    for (int c = 0; c < head_dim; ++c) {
      keys_t[static_cast<std::size_t>(c) * padded + j] =
          keys[static_cast<std::size_t>(j) * stride + c];
    }
    std::copy_n(values + static_cast<std::size_t>(j) * stride, head_dim,
                values_out + static_cast<std::size_t>(j) * head_dim);
  }
}

void head_scores(const float* queries, int stride, const float* keys_t, int n, int padded,
                 int head_dim, float* scores) {
  if (n >= kMatrixProductWords) {
    StridedMutableMap(scores, n, n, Eigen::OuterStride<>(padded)).noalias() =
        StridedMap(queries, n, head_dim, Eigen::OuterStride<>(stride)) *
        StridedMap(keys_t, head_dim, n, Eigen::OuterStride<>(padded));
    return;
  }
  for (int i = 0; i < n; ++i) {
    const float* query = queries + static_cast<std::size_t>(i) * stride;
    float* score = scores + static_cast<std::size_t>(i) * padded;
    for (int block = 0; block < padded; block += kBlock) {
      Block sums = Block::Zero();  // one vector register across the loop over c
      for (int c = 0; c < head_dim; ++c) {
        sums += query[c] * BlockMap(keys_t + static_cast<std::size_t>(c) * padded + block);
      }
      MutableBlockMap(score + block) = sums;
    }
  }
}

void weighted_values(const float* weights, int n, int padded, const float* values, int head_dim,
                     float* output, int output_stride) {
  if (n >= kMatrixProductWords) {
    StridedMutableMap(output, n, head_dim, Eigen::OuterStride<>(output_stride)).noalias() =
        StridedMap(weights, n, n, Eigen::OuterStride<>(padded)) *
        StridedMap(values, n, head_dim, Eigen::OuterStride<>(head_dim));
    return;
  }
  for (int i = 0; i < n; ++i) {
    const float* weight = weights + static_cast<std::size_t>(i) * padded;
    float* row = output + static_cast<std::size_t>(i) * output_stride;
    if (head_dim % kBlock == 0) {
      for (int block = 0; block < head_dim; block += kBlock) {
        Block sums = Block::Zero();
        for (int j = 0; j < n; ++j) {
          sums += weight[j] * BlockMap(values + static_cast<std::size_t>(j) * head_dim + block);
        }
        MutableBlockMap(row + block) = sums;
      }
    } else {  // small test models
      std::fill(row, row + head_dim, 0.0f);
      for (int j = 0; j < n; ++j) {
        for (int c = 0; c < head_dim; ++c) {
          row[c] += weight[j] * values[static_cast<std::size_t>(j) * head_dim + c];
        }
      }
    }
  }
}

}  // namespace sawtag::infer
