// The avx2 level's kernels: AVX2 + FMA + F16C (flags in lib/CMakeLists.txt).
//
// The float32 product is written with intrinsics here: the plain loops of linear_float32.inc
// keep a 4 x 64 tile of sums, 32 ymm registers where AVX2 has 16, and spill. This computes the
// tile in passes of 16 columns (8 registers of sums), each output element still bias + x_0 w_0
// + x_1 w_1 + ... in this order, with fused multiply-adds.
#include "infer/kernels/level_kernels.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define SAWTAG_LEVEL_AVX2 1
#endif

namespace sawtag::infer {

#ifdef SAWTAG_LEVEL_AVX2

namespace {

#include "infer/kernels/row_kernels.inc"

constexpr int kPassColumns = 16;  // two ymm registers

// y[r][c] = bias[c] + sum_k x[r][k] w[k][c] for kTileRows rows from `row` and the 16 columns
// at `column`.
void multiply_pass(const LinearCall& call, int row, const float* weight, int column) {
  const __m256 bias_low = _mm256_loadu_ps(call.bias + column);
  const __m256 bias_high = _mm256_loadu_ps(call.bias + column + 8);
  __m256 low[kTileRows], high[kTileRows];
  for (int r = 0; r < kTileRows; ++r) {
    low[r] = bias_low;
    high[r] = bias_high;
  }
  const float* x = call.x + static_cast<long>(row) * call.x_stride;
  for (int k = 0; k < call.in; ++k) {
    const float* w = weight + static_cast<long>(k) * call.stride + column;
    const __m256 w_low = _mm256_loadu_ps(w);
    const __m256 w_high = _mm256_loadu_ps(w + 8);
    for (int r = 0; r < kTileRows; ++r) {
      const __m256 value = _mm256_broadcast_ss(x + static_cast<long>(r) * call.x_stride + k);
      low[r] = _mm256_fmadd_ps(value, w_low, low[r]);
      high[r] = _mm256_fmadd_ps(value, w_high, high[r]);
    }
  }
  for (int r = 0; r < kTileRows; ++r) {
    float* y = call.y + static_cast<long>(row + r) * call.stride + column;
    _mm256_storeu_ps(y, low[r]);
    _mm256_storeu_ps(y + 8, high[r]);
  }
}

void linear_float32(const LinearCall& call, const float* weight) {
  // Column blocks outside, rows inside: a block of weights stays in cache across all rows.
  for (int column = 0; column < call.stride; column += kTileColumns) {
    for (int row = 0; row < call.rows; row += kTileRows) {
      for (int pass = column; pass < column + kTileColumns; pass += kPassColumns) {
        multiply_pass(call, row, weight, pass);
      }
    }
  }
}

}  // namespace

const LevelKernels* levels::avx2() {
  static const LevelKernels kernels{linear_float32,    nullptr,     layer_norm,      gelu,
                                    attention_weights, head_scores, weighted_values, nullptr};
  return &kernels;
}

#else

const LevelKernels* levels::avx2() { return nullptr; }

#endif

}  // namespace sawtag::infer
