// y = x W + b for inference, with W copied once into a layout the kernel reads fast, computed
// by the kernels of the CPU level chosen at start (infer/kernels.hpp).
//
// Each output row depends on its input row alone, always computed by the same instructions in
// the same order: whatever rows share a call (batch size, thread, chunk), row i's result is
// bit-identical. That is what makes `sawtag tag` print the same bytes for any -j. (Different
// CPU levels may differ in the last bits: fused multiply-adds, bfloat16 kernels.)
#pragma once

#include <cstdint>
#include <vector>

#include "infer/kernels.hpp"
#include "sawtag/parameters.hpp"
#include "sawtag/tensor.hpp"

namespace sawtag::infer {

enum class Precision {
  float32,  // float32 products everywhere
  // The CPU level's reduced-precision products where it has them: bfloat16 summed in float32
  // (avx512bf16, amx) or int8 summed in int32 (avxvnni, avx512vnni); float32 elsewhere.
  reduced,
};

class PackedLinear {
 public:
  PackedLinear() = default;
  // One or more Linears reading the same input, side by side: [in, out_1 + out_2 + ...].
  // Precision::reduced falls back to float32 where the level has no such kernel.
  // `kernels` must outlive this object (the process's kernels() do).
  PackedLinear(const std::vector<const LinearParameters*>& parts, Precision precision,
               const Kernels& kernels = infer::kernels());

  int in() const { return in_; }
  int out() const { return out_; }
  // Output rows are this wide: out() rounded up to the kernel's column block.
  int stride() const { return stride_; }

  // x: rows x in(), row r at x + r * x_stride -> y: rows x stride(), row r at y + r * stride().
  // Columns past out() are zero.
  void apply(const float* x, int x_stride, int rows, float* y) const;

 private:
  int in_ = 0;
  const Kernels* kernels_ = nullptr;
  int out_ = 0;
  int stride_ = 0;
  TensorData weight_;  // [in, stride], zero-padded; empty when a reduced-precision W is used
  TensorData bias_;    // [stride], zero-padded
  std::vector<std::uint16_t> bfloat16_;  // W for the bfloat16 kernel (pack_bfloat16), or empty
  PackedInt8 int8_;                      // W for the int8 kernel (pack_int8), or empty
};

}  // namespace sawtag::infer
