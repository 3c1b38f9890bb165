// The baseline level's kernels: the compiler's default target for every file: SSE2 on x86-64, and
// the only level elsewhere.
#include "infer/kernels/level_kernels.hpp"

namespace sawtag::infer {

namespace {
#include "infer/kernels/linear_float32.inc"
#include "infer/kernels/row_kernels.inc"
}  // namespace

const LevelKernels* levels::baseline() {
  static const LevelKernels kernels{linear_float32,    nullptr,     layer_norm,      gelu,
                                    attention_weights, head_scores, weighted_values, nullptr};
  return &kernels;
}

}  // namespace sawtag::infer
