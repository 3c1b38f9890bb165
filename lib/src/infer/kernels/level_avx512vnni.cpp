// The avx512vnni level's kernels: AVX-512 with AVX512_VNNI (flags in lib/CMakeLists.txt), for
// CPUs with vpdpbusd: Intel Cascade Lake and later, AMD Zen 4 and later. Its reduced-precision
// products are int8, twice as many multiply-adds an instruction as bfloat16's vdpbf16ps.
//
// Each row of x is scaled by 127 / its largest |value| and rounded to an int8 q, stored as the
// unsigned byte q + 128 (vpdpbusd multiplies unsigned bytes by signed ones); the weights are
// int8 quads along k (infer/kernels.cpp, pack_int8). vpdpbusd adds four byte products into each
// 32-bit sum, exactly; the offset comes back out with the column's sum of weights:
//   sum_k (q_x + 128) q_w = sum_k q_x q_w + 128 sum_k q_w.
#include "infer/kernels/level_kernels.hpp"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__) && defined(__AVX512VNNI__)
#include <immintrin.h>
#define SAWTAG_LEVEL_AVX512VNNI 1
#endif

namespace sawtag::infer {

#ifdef SAWTAG_LEVEL_AVX512VNNI

namespace {

#include "infer/kernels/linear_float32.inc"
#include "infer/kernels/row_kernels.inc"

constexpr int kRows = 8;     // rows of a tile: 8 x 2 sums in registers, 2 of weights
constexpr int kVectors = 2;  // zmm registers across a tile's 32 columns
constexpr int kColumns = 16 * kVectors;
static_assert(kTileColumns % kColumns == 0, "a stride is whole tiles");

// The layout of the scratch for `padded_rows` rows: the bytes, `depth` a row (in rounded up to
// 64), then one float scale a row.
struct Quantized {
  const std::uint32_t* quads = nullptr;  // [padded rows, depth / 4]
  int quads_per_row = 0;
  const float* scales = nullptr;  // [padded rows]: x[r][k] ~ scales[r] * q[r][k]
};

// x rows -> bytes q + 128 and a scale a row; padded rows and columns hold 128 (q = 0).
Quantized quantize_rows(const LinearCall& call, int depth, int padded_rows, std::uint8_t* scratch) {
  float* scales = reinterpret_cast<float*>(scratch + static_cast<long>(padded_rows) * depth);
  const __m512 sign = _mm512_set1_ps(-0.0f);
  for (int r = 0; r < padded_rows; ++r) {
    std::uint8_t* target = scratch + static_cast<long>(r) * depth;
    if (r >= call.rows) {
      for (int k = 0; k < depth; k += 64) _mm512_storeu_si512(target + k, _mm512_set1_epi8(-128));
      scales[r] = 0.0f;
      continue;
    }
    const float* row = call.x + static_cast<long>(r) * call.x_stride;
    __m512 largest = _mm512_setzero_ps();
    __mmask16 unordered = 0;
    for (int k = 0; k < call.in; k += 16) {
      const int left = call.in - k > 16 ? 16 : call.in - k;
      const __m512 values =
          _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << left) - 1u), row + k);
      largest = _mm512_max_ps(largest, _mm512_andnot_ps(sign, values));
      unordered |= _mm512_cmp_ps_mask(values, values, _CMP_UNORD_Q);
    }
    const float most = _mm512_reduce_max_ps(largest);
    // A NaN anywhere makes the scale, and so the whole output row, NaN; an infinity does too
    // (0 x infinity), as it would in float32.
    scales[r] = unordered != 0 ? __builtin_nanf("") : most / 127.0f;
    const __m512 inverse = _mm512_set1_ps(most > 0.0f ? 127.0f / most : 0.0f);
    const __m512i offset = _mm512_set1_epi32(128);
    for (int k = 0; k < depth; k += 16) {
      const int left = call.in - k < 0 ? 0 : (call.in - k > 16 ? 16 : call.in - k);
      const __m512 values =
          _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << left) - 1u), row + k);
      // Round to nearest even; |q| <= 127 by the choice of scale.
      const __m512i q =
          _mm512_add_epi32(_mm512_cvt_roundps_epi32(_mm512_mul_ps(values, inverse),
                                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC),
                           offset);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(target + k), _mm512_cvtepi32_epi8(q));
    }
  }
  Quantized quantized;
  quantized.quads = reinterpret_cast<const std::uint32_t*>(scratch);
  quantized.quads_per_row = depth / 4;
  quantized.scales = scales;
  return quantized;
}

// One tile: kRows rows from `row`, the kColumns columns at `column`.
void int8_tile(const LinearCall& call, const Int8Weights& weights, const Quantized& x, int quads,
               int row, int column) {
  __m512i sums[kRows][kVectors];
  for (int r = 0; r < kRows; ++r) {
    for (int v = 0; v < kVectors; ++v) sums[r][v] = _mm512_setzero_si512();
  }
  for (int p = 0; p < quads; ++p) {
    const std::uint32_t* w = weights.quads + static_cast<long>(p) * call.stride + column;
    __m512i weight[kVectors];
    for (int v = 0; v < kVectors; ++v) weight[v] = _mm512_loadu_si512(w + 16 * v);
    for (int r = 0; r < kRows; ++r) {
      const __m512i broadcast = _mm512_set1_epi32(
          static_cast<int>(x.quads[static_cast<long>(row + r) * x.quads_per_row + p]));
      for (int v = 0; v < kVectors; ++v) {
        sums[r][v] = _mm512_dpbusd_epi32(sums[r][v], broadcast, weight[v]);
      }
    }
  }
  for (int r = 0; r < kRows && row + r < call.rows; ++r) {
    const __m512 row_scale = _mm512_set1_ps(x.scales[row + r]);
    float* y = call.y + static_cast<long>(row + r) * call.stride + column;
    for (int v = 0; v < kVectors; ++v) {
      const int c = column + 16 * v;
      const __m512i offset_sums =
          _mm512_slli_epi32(_mm512_loadu_si512(weights.column_sums + c), 7);  // 128 sum_k q_w
      const __m512 products = _mm512_cvtepi32_ps(_mm512_sub_epi32(sums[r][v], offset_sums));
      const __m512 scale = _mm512_mul_ps(row_scale, _mm512_loadu_ps(weights.scales + c));
      _mm512_storeu_ps(y + 16 * v,
                       _mm512_fmadd_ps(products, scale, _mm512_loadu_ps(call.bias + c)));
    }
  }
}

void linear_int8(const LinearCall& call, const Int8Weights& weights, std::uint8_t* scratch) {
  const int depth = (call.in + 63) / 64 * 64;
  const int padded_rows = (call.rows + kRows - 1) / kRows * kRows;
  const Quantized x = quantize_rows(call, depth, padded_rows, scratch);
  const int quads = (call.in + 3) / 4;  // the rest of depth is q = 0 in x and zero in W
  for (int column = 0; column < call.stride; column += kColumns) {
    for (int row = 0; row < padded_rows; row += kRows) {
      int8_tile(call, weights, x, quads, row, column);
    }
  }
}

}  // namespace

const LevelKernels* levels::avx512vnni() {
  static const LevelKernels kernels{linear_float32,    nullptr,     layer_norm,      gelu,
                                    attention_weights, head_scores, weighted_values, linear_int8};
  return &kernels;
}

#else

const LevelKernels* levels::avx512vnni() { return nullptr; }

#endif

}  // namespace sawtag::infer
