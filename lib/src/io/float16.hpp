// IEEE 754 binary16 ("half") <-> float32, for the model file's compact "float16" tensors.
#pragma once

#include <cstdint>

namespace sawtag::float16 {

// Rounds to the nearest half (ties to even); overflow becomes +-infinity, NaN stays NaN.
// 0.1f -> 0x2E66 (0.0999755859375)
std::uint16_t from_float(float value);

// Exact: every half is a float.
float to_float(std::uint16_t half);

}  // namespace sawtag::float16
