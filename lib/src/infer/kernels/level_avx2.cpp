// The avx2 level's kernels: AVX2 + FMA (flags in lib/CMakeLists.txt).
#include "infer/kernels/level_kernels.hpp"

namespace sawtag::infer {

#if defined(__AVX2__) && defined(__FMA__)

namespace {
#include "infer/kernels/linear_float32.inc"
#include "infer/kernels/row_kernels.inc"
}  // namespace

const LevelKernels* levels::avx2() {
  static const LevelKernels kernels{linear_float32,    nullptr,     layer_norm,     gelu,
                                    attention_weights, head_scores, weighted_values};
  return &kernels;
}

#else

const LevelKernels* levels::avx2() { return nullptr; }

#endif

}  // namespace sawtag::infer
