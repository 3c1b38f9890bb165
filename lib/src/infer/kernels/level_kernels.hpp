// The matrix kernels one CPU level provides; see infer/kernels.hpp for how one is chosen.
//
// Each level's kernels live in their own file (kernels/level_<name>.cpp), compiled with that
// level's instruction-set flags and nothing else of the program, so no instruction of a level
// can run unless that level was chosen. Those files therefore include no C++ library header
// with templates or inline functions: the linker keeps one copy of such a function for the
// whole program, and it might be the copy compiled for AVX-512.
#pragma once

#include <cstdint>

namespace sawtag::infer {

// The float32 kernel computes output tiles of kTileRows rows and kTileColumns columns.
constexpr int kTileRows = 4;
constexpr int kTileColumns = 64;

// y = x W + b for `rows` rows. x: rows x in, row r at x + r * x_stride -> y: rows x stride, row
// r at y + r * stride. stride is a multiple of kTileColumns; bias has stride floats.
struct LinearCall {
  const float* x = nullptr;
  int x_stride = 0;
  int rows = 0;
  int in = 0;
  const float* bias = nullptr;
  int stride = 0;
  float* y = nullptr;
};

// W as int8 for linear_int8 (infer/kernels.hpp, pack_int8): W[k][c] ~ scales[c] * q[k][c], each
// column scaled so that its largest |W| becomes 127.
struct Int8Weights {
  // [ceil(in / 4), stride]: element (p, c) holds q[4p + j][c] in byte j (zero past `in`).
  const std::uint32_t* quads = nullptr;
  const float* scales = nullptr;              // [stride]
  const std::int32_t* column_sums = nullptr;  // [stride]: sum over k of q[k][c]
};

// out = (x - mean) / sqrt(variance + epsilon) * gamma + beta, for `rows` rows of `dim` floats,
// `stride` floats apart in x and out (nn/layer_norm.cpp's function).
struct LayerNormCall {
  const float* x = nullptr;
  float* out = nullptr;
  int rows = 0;
  int dim = 0;
  int stride = 0;
  const float* gamma = nullptr;
  const float* beta = nullptr;
  float epsilon = 0.0f;
};

// The longest window attention_weights takes (InferenceNetwork caps windows at this length).
constexpr int kMaxAttentionWords = 1024;

// One head's attention weights, in place, for `rows` of the window's n queries from query
// first_row on: scores [rows, padded] (row r, query i = first_row + r, at scores + r * padded)
// -> softmax(scale * scores + relative bias) over the first n columns of each row; columns
// from n to padded become 0. bias: [2 reach + 1], bias[clamp(j - i, -reach, reach) + reach]
// added to score (i, j); null for none.
struct SoftmaxCall {
  float* scores = nullptr;
  int n = 0;
  int padded = 0;
  int first_row = 0;
  int rows = 0;
  float scale = 1.0f;
  const float* bias = nullptr;
  int reach = 0;
};

// One head of attention over a window of n words, for `rows` of its queries (all n, or some),
// for windows under 64 words (longer ones use Eigen's blocked products, head_attention.cpp).
// Score rows are `padded` floats apart (n rounded up to 16).
struct HeadCall {
  const float* queries = nullptr;  // [rows, head_dim], rows query_stride apart
  int query_stride = 0;
  int rows = 0;
  const float* keys_t = nullptr;  // [head_dim, padded]: keys transposed, zero beyond n
  const float* values = nullptr;  // [n, head_dim]
  int n = 0;
  int padded = 0;
  int head_dim = 0;
  float* scores = nullptr;  // [rows, padded]
  float* output = nullptr;  // [rows, head_dim], rows output_stride apart
  int output_stride = 0;
};

struct LevelKernels {
  // weight: [in, stride] row-major. rows must be a multiple of kTileRows. Every output element
  // is bias + x_0 w_0 + x_1 w_1 + ... in this order (with or without fused multiply-adds,
  // depending on the level), so a row's result never depends on the other rows.
  void (*linear_float32)(const LinearCall& call, const float* weight);
  // Null where the level has no bfloat16 products. x is rounded to bfloat16 into `scratch`
  // (bfloat16_scratch_size(rows, in) values); products are summed in float32. `packed` is
  // the weight in the level's layout (pack_bfloat16). Any number of rows.
  void (*linear_bfloat16)(const LinearCall& call, const std::uint16_t* packed,
                          std::uint16_t* scratch);
  void (*layer_norm)(const LayerNormCall& call);
  // GELU(z) = z Phi(z) in place on the first `columns` floats of `rows` rows `stride` apart,
  // with erf computed as Eigen does (the training code's function).
  void (*gelu)(float* values, int stride, int rows, int columns);
  void (*attention_weights)(const SoftmaxCall& call);
  // scores[i][j] = q_i . k_j for i < rows, j < padded.
  void (*head_scores)(const HeadCall& call);
  // output[i] = sum_j scores[i][j] values[j] for i < rows, j < n.
  void (*weighted_values)(const HeadCall& call);
  // Null where the level has no int8 products. Each row of x is scaled so that its largest
  // |value| becomes 127 and rounded to int8 into `scratch` (int8_scratch_size(rows, in)
  // bytes); the products are summed exactly in int32, then scaled back to float32 with the
  // row's and the column's scales. A row with a NaN gives NaN. Any number of rows.
  void (*linear_int8)(const LinearCall& call, const Int8Weights& weights, std::uint8_t* scratch);
};

// Each returns null where this build has no code for the level (not x86-64, or a compiler
// that lacks its flags).
namespace levels {
const LevelKernels* baseline();
const LevelKernels* avx2();
const LevelKernels* avxvnni();
const LevelKernels* avx512();
const LevelKernels* avx512vnni();
const LevelKernels* avx512bf16();
const LevelKernels* amx();
}  // namespace levels

}  // namespace sawtag::infer
