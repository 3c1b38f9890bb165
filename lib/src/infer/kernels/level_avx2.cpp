// The avx2 level's kernels: AVX2 + FMA + F16C (flags in lib/CMakeLists.txt). The float32
// product is written with intrinsics (linear_float32_avx2.inc).
#include "infer/kernels/level_kernels.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define SAWTAG_LEVEL_AVX2 1
#endif

namespace sawtag::infer {

#ifdef SAWTAG_LEVEL_AVX2

namespace {

#include "infer/kernels/linear_float32_avx2.inc"
#include "infer/kernels/row_kernels.inc"

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
