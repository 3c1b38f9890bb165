// The avxvnni level's kernels: AVX2 + FMA + F16C + AVX-VNNI (flags in lib/CMakeLists.txt), for
// CPUs with the VEX-encoded, 256-bit vpdpbusd but no AVX-512: Intel Alder Lake and its
// successors, Sierra Forest; AMD Zen 5 has both. Its float32 kernels are the avx2 level's
// (linear_float32_avx2.inc); its int8 product is level_avx512vnni.cpp's in ymm registers.
//
// Each row of x is scaled by 127 / its largest |value| and rounded to an int8 q, stored as the
// unsigned byte q + 128 (vpdpbusd multiplies unsigned bytes by signed ones); the weights are
// int8 quads along k (infer/kernels.cpp, pack_int8). vpdpbusd adds four byte products into each
// 32-bit sum, exactly; the offset comes back out with the column's sum of weights:
//   sum_k (q_x + 128) q_w = sum_k q_x q_w + 128 sum_k q_w.
// The rounding, the int32 sums and the scaling back are avx512vnni's, so both levels give the
// same bits for the same inputs.
#include "infer/kernels/level_kernels.hpp"

#if defined(__AVX2__) && defined(__FMA__) && defined(__AVXVNNI__)
#include <immintrin.h>
#define SAWTAG_LEVEL_AVXVNNI 1
#endif

namespace sawtag::infer {

#ifdef SAWTAG_LEVEL_AVXVNNI

namespace {

#include "infer/kernels/linear_float32_avx2.inc"
#include "infer/kernels/row_kernels.inc"

// A tile: 5 x 2 sums in registers, 2 of weights, 1 broadcast row, of AVX2's 16 ymm registers:
// 10 sums in flight cover vpdpbusd's latency (5 cycles on Golden Cove) at 2 a cycle. 6 x 2
// measured slower in a portable build (gcc 12 then moves sums through the stack every step).
constexpr int kRows = 5;
constexpr int kVectors = 2;  // ymm registers across a tile's 16 columns
constexpr int kColumns = 8 * kVectors;
static_assert(kTileColumns % kColumns == 0, "a stride is whole tiles");

// The layout of the scratch for x's rows: the bytes, `depth` a row (in rounded up to 64), then
// one float scale a row.
struct Quantized {
  const std::uint32_t* quads = nullptr;  // [rows, depth / 4]
  int quads_per_row = 0;
  const float* scales = nullptr;  // [rows]: x[r][k] ~ scales[r] * q[r][k]
};

// The mask of _mm256_maskload_ps for the first `left` of 8 floats (0 <= left <= 8).
__m256i first_lanes(int left) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(left), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// x rows -> bytes q + 128 and a scale a row; padded columns hold 128 (q = 0).
Quantized quantize_rows(const LinearCall& call, int depth, std::uint8_t* scratch) {
  float* scales = reinterpret_cast<float*>(scratch + static_cast<long>(call.rows) * depth);
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int r = 0; r < call.rows; ++r) {
    std::uint8_t* target = scratch + static_cast<long>(r) * depth;
    const float* row = call.x + static_cast<long>(r) * call.x_stride;
    __m256 largest = _mm256_setzero_ps();
    __m256 unordered = _mm256_setzero_ps();
    for (int k = 0; k < call.in; k += 8) {
      const __m256 values = _mm256_maskload_ps(row + k, first_lanes(call.in - k));
      largest = _mm256_max_ps(largest, _mm256_andnot_ps(sign, values));
      unordered = _mm256_or_ps(unordered, _mm256_cmp_ps(values, values, _CMP_UNORD_Q));
    }
    // The largest of the 8 lanes: the maximum of numbers is exact in any order, as
    // avx512vnni's _mm512_reduce_max_ps.
    __m128 half = _mm_max_ps(_mm256_castps256_ps128(largest), _mm256_extractf128_ps(largest, 1));
    half = _mm_max_ps(half, _mm_movehl_ps(half, half));
    half = _mm_max_ss(half, _mm_movehdup_ps(half));
    const float most = _mm_cvtss_f32(half);
    // A NaN anywhere makes the scale, and so the whole output row, NaN; an infinity does too
    // (0 x infinity), as it would in float32.
    scales[r] = _mm256_movemask_ps(unordered) != 0 ? __builtin_nanf("") : most / 127.0f;
    const __m256 inverse = _mm256_set1_ps(most > 0.0f ? 127.0f / most : 0.0f);
    const __m256i offset = _mm256_set1_epi32(128);
    const __m256i low_byte = _mm256_set1_epi32(0xFF);
    // 32 values at a time: four vectors of int32 packed to bytes. The packs work within each
    // 128-bit lane, leaving the groups of four in the order 0 2 4 6 1 3 5 7; the permute puts
    // them back.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (int k = 0; k < depth; k += 32) {
      __m256i q[4];
      for (int part = 0; part < 4; ++part) {
        const int start = k + 8 * part;
        const int left = call.in - start < 0 ? 0 : (call.in - start > 8 ? 8 : call.in - start);
        const __m256 values = _mm256_maskload_ps(row + start, first_lanes(left));
        // Round to nearest even (MXCSR's default); |q| <= 127 by the choice of scale. The low
        // byte is kept as _mm512_cvtepi32_epi8 keeps it, also for the NaN of 0 x infinity.
        q[part] = _mm256_and_si256(
            _mm256_add_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(values, inverse)), offset), low_byte);
      }
      const __m256i bytes =
          _mm256_packus_epi16(_mm256_packus_epi32(q[0], q[1]), _mm256_packus_epi32(q[2], q[3]));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(target + k),
                          _mm256_permutevar8x32_epi32(bytes, order));
    }
  }
  Quantized quantized;
  quantized.quads = reinterpret_cast<const std::uint32_t*>(scratch);
  quantized.quads_per_row = depth / 4;
  quantized.scales = scales;
  return quantized;
}

// One tile: kRows rows from `row`, the kColumns columns at `column`. Rows past the last (of
// the last tile) repeat the last row's sums, and are not stored.
void int8_tile(const LinearCall& call, const Int8Weights& weights, const Quantized& x, int quads,
               int row, int column) {
  __m256i sums[kRows][kVectors];
  const std::uint32_t* x_rows[kRows];
  for (int r = 0; r < kRows; ++r) {
    for (int v = 0; v < kVectors; ++v) sums[r][v] = _mm256_setzero_si256();
    const int source = row + r < call.rows ? row + r : call.rows - 1;
    x_rows[r] = x.quads + static_cast<long>(source) * x.quads_per_row;
  }
  for (int p = 0; p < quads; ++p) {
    const std::uint32_t* w = weights.quads + static_cast<long>(p) * call.stride + column;
    __m256i weight[kVectors];
    for (int v = 0; v < kVectors; ++v) {
      weight[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 8 * v));
    }
    for (int r = 0; r < kRows; ++r) {
      const __m256i broadcast = _mm256_set1_epi32(static_cast<int>(x_rows[r][p]));
      for (int v = 0; v < kVectors; ++v) {
        sums[r][v] = _mm256_dpbusd_avx_epi32(sums[r][v], broadcast, weight[v]);
      }
    }
  }
  for (int r = 0; r < kRows && row + r < call.rows; ++r) {
    const __m256 row_scale = _mm256_set1_ps(x.scales[row + r]);
    float* y = call.y + static_cast<long>(row + r) * call.stride + column;
    for (int v = 0; v < kVectors; ++v) {
      const int c = column + 8 * v;
      const __m256i offset_sums = _mm256_slli_epi32(  // 128 sum_k q_w
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(weights.column_sums + c)), 7);
      const __m256 products = _mm256_cvtepi32_ps(_mm256_sub_epi32(sums[r][v], offset_sums));
      const __m256 scale = _mm256_mul_ps(row_scale, _mm256_loadu_ps(weights.scales + c));
      _mm256_storeu_ps(y + 8 * v, _mm256_fmadd_ps(products, scale, _mm256_loadu_ps(call.bias + c)));
    }
  }
}

void linear_int8(const LinearCall& call, const Int8Weights& weights, std::uint8_t* scratch) {
  const int depth = (call.in + 63) / 64 * 64;
  const Quantized x = quantize_rows(call, depth, scratch);
  const int quads = (call.in + 3) / 4;  // the rest of depth is q = 0 in x and zero in W
  for (int column = 0; column < call.stride; column += kColumns) {
    for (int row = 0; row < call.rows; row += kRows) {
      int8_tile(call, weights, x, quads, row, column);
    }
  }
}

}  // namespace

const LevelKernels* levels::avxvnni() {
  static const LevelKernels kernels{linear_float32,    nullptr,     layer_norm,      gelu,
                                    attention_weights, head_scores, weighted_values, linear_int8};
  return &kernels;
}

#else

const LevelKernels* levels::avxvnni() { return nullptr; }

#endif

}  // namespace sawtag::infer
