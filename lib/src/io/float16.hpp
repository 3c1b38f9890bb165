// IEEE 754 binary16 ("half") <-> float32, for the model file's compact "float16" tensors.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sawtag::float16 {

// Rounds to the nearest half (ties to even); overflow becomes +-infinity, NaN stays NaN.
// 0.1f -> 0x2E66 (0.0999755859375)
std::uint16_t from_float(float value);

// Exact: every half is a float.
float to_float(std::uint16_t half);

// out[i] = to_float(halves[i]) for i < count; 8 at a time with the CPU's F16C instructions
// where the build targets them. Front to back, each block of 8 read before it is written, so
// `halves` may be the back half of `out`'s bytes.
void to_float(const std::uint16_t* halves, std::size_t count, float* out);

}  // namespace sawtag::float16
