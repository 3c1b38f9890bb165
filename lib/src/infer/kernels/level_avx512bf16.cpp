// The avx512bf16 level's kernels: AVX-512 with AVX512_BF16 (flags in lib/CMakeLists.txt), for
// CPUs that have vdpbf16ps but no AMX (AMD Zen 4/5, Intel Cooper Lake).
//
// Weights are packed as pairs along k (infer/kernels.cpp, pack_bfloat16 for this level): the
// 32-bit element (p, c) holds W[2p][c] and W[2p + 1][c]. vdpbf16ps multiplies 16 such pairs by
// one broadcast pair of x and adds both products to 16 float32 sums.
#include "infer/kernels/level_kernels.hpp"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__) && defined(__AVX512BF16__)
#include <immintrin.h>
#define SAWTAG_LEVEL_AVX512BF16 1
#endif

namespace sawtag::infer {

#ifdef SAWTAG_LEVEL_AVX512BF16

namespace {

#include "infer/kernels/bfloat16_rows.inc"
#include "infer/kernels/linear_float32.inc"
#include "infer/kernels/row_kernels.inc"

constexpr int kVectors = kTileColumns / 16;  // zmm registers across a tile's columns

// x and W as pairs of bfloat16 values along k, one 32-bit element a pair.
struct Pairs {
  const std::uint32_t* x = nullptr;  // [padded rows, x_stride]
  int x_stride = 0;
  const std::uint32_t* weight = nullptr;  // [count, stride]
  int count = 0;                          // pairs along k: in / 2 rounded up
};

// One tile: kTileRows rows from `row`, the column block at `column`; 16 sums in registers.
void bfloat16_tile(const LinearCall& call, const Pairs& pairs, int row, int column) {
  __m512 sums[kTileRows][kVectors];
  for (int r = 0; r < kTileRows; ++r) {
    for (int v = 0; v < kVectors; ++v) sums[r][v] = _mm512_setzero_ps();
  }
  for (int p = 0; p < pairs.count; ++p) {
    const std::uint32_t* w = pairs.weight + static_cast<long>(p) * call.stride + column;
    __m512bh weights[kVectors];
    for (int v = 0; v < kVectors; ++v) {
      const __m512i loaded = _mm512_loadu_si512(w + 16 * v);
      weights[v] = reinterpret_cast<const __m512bh&>(loaded);
    }
    for (int r = 0; r < kTileRows; ++r) {
      const __m512i broadcast = _mm512_set1_epi32(
          static_cast<int>(pairs.x[static_cast<long>(row + r) * pairs.x_stride + p]));
      const __m512bh x = reinterpret_cast<const __m512bh&>(broadcast);
      for (int v = 0; v < kVectors; ++v) sums[r][v] = _mm512_dpbf16_ps(sums[r][v], x, weights[v]);
    }
  }
  for (int r = 0; r < kTileRows && row + r < call.rows; ++r) {
    float* y = call.y + static_cast<long>(row + r) * call.stride + column;
    for (int v = 0; v < kVectors; ++v) {
      _mm512_storeu_ps(y + 16 * v,
                       _mm512_add_ps(sums[r][v], _mm512_loadu_ps(call.bias + column + 16 * v)));
    }
  }
}

void linear_bfloat16(const LinearCall& call, const std::uint16_t* packed, std::uint16_t* scratch) {
  const int depth = (call.in + 31) / 32 * 32;
  const int padded_rows = (call.rows + kTileRows - 1) / kTileRows * kTileRows;
  to_bfloat16_rows(call, depth, padded_rows, scratch);
  Pairs pairs;
  pairs.x = reinterpret_cast<const std::uint32_t*>(scratch);
  pairs.x_stride = depth / 2;
  pairs.weight = reinterpret_cast<const std::uint32_t*>(packed);
  pairs.count = (call.in + 1) / 2;  // the rest of depth is zero in x
  for (int column = 0; column < call.stride; column += kTileColumns) {
    for (int row = 0; row < padded_rows; row += kTileRows) bfloat16_tile(call, pairs, row, column);
  }
}

}  // namespace

const LevelKernels* levels::avx512bf16() {
  static const LevelKernels kernels{linear_float32,    linear_bfloat16, layer_norm,      gelu,
                                    attention_weights, head_scores,     weighted_values, nullptr};
  return &kernels;
}

#else

const LevelKernels* levels::avx512bf16() { return nullptr; }

#endif

}  // namespace sawtag::infer
