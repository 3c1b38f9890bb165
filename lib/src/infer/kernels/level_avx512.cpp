// The avx512 level's kernels: AVX-512 F/BW/DQ/VL, 512-bit vectors (flags in lib/CMakeLists.txt).
#include "infer/kernels/level_kernels.hpp"

namespace sawtag::infer {

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && defined(__AVX512VL__)

namespace {
#include "infer/kernels/linear_float32.inc"
#include "infer/kernels/row_kernels.inc"
}  // namespace

const LevelKernels* levels::avx512() {
  static const LevelKernels kernels{linear_float32,    nullptr,     layer_norm,      gelu,
                                    attention_weights, head_scores, weighted_values, nullptr};
  return &kernels;
}

#else

const LevelKernels* levels::avx512() { return nullptr; }

#endif

}  // namespace sawtag::infer
