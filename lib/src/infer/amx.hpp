// Intel AMX tile multiplication in bfloat16, for PackedLinear on CPUs that have it.
//
// Built only when the compiler targets AMX (-march=native on such a CPU: SAWTAG_NATIVE); used
// only when the kernel also grants this process the tile registers. Inputs are rounded to
// bfloat16 (8 significant bits), products are summed in float32.
#pragma once

#include <cstdint>
#include <vector>

namespace sawtag::infer::amx {

// True when AMX was compiled in and the kernel lets this process use it (asked once).
bool available();

// W: [in, out] float32 row-major -> the tile layout multiply() reads. out must be a multiple
// of 32; in is padded to a multiple of 32.
std::vector<std::uint16_t> pack_weights(const float* weight, int in, int out);

// y[r][c] = bias[c] + sum_k x[r][k] W[k][c] for r < rows, c < out; y rows are `out` wide.
// Each row's result depends only on that row of x.
void multiply(const float* x, int x_stride, int rows, int in,
              const std::vector<std::uint16_t>& packed, const float* bias, int out, float* y);

}  // namespace sawtag::infer::amx
