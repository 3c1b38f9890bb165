#include "io/float16.hpp"

#include <cstring>

#include "io/decode_avx2.hpp"

namespace sawtag::float16 {

std::uint16_t from_float(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const std::uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude >= 0x7F800000u) {  // infinity or NaN
    return static_cast<std::uint16_t>(sign | 0x7C00u | (magnitude > 0x7F800000u ? 0x200u : 0u));
  }
  if (magnitude >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds to inf
  if (magnitude < 0x38800000u) {  // below the smallest normal half: a subnormal or zero
    if (magnitude < 0x33000000u) return static_cast<std::uint16_t>(sign);  // rounds to zero
    const std::uint32_t exponent = magnitude >> 23;
    const std::uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
    const std::uint32_t shift = 126 - exponent;  // 14..24 bits dropped
    std::uint32_t half = mantissa >> shift;
    const std::uint32_t remainder = mantissa & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (half & 1u))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  // Normal: rebias the exponent (127 -> 15) and round the mantissa from 23 to 10 bits.
  std::uint32_t half = ((magnitude - 0x38000000u) >> 13);
  const std::uint32_t remainder = magnitude & 0x1FFFu;
  if (remainder > 0x1000u || (remainder == 0x1000u && (half & 1u))) ++half;
  return static_cast<std::uint16_t>(sign | half);
}

float to_float(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
  const std::uint32_t exponent = (half >> 10) & 0x1Fu;
  std::uint32_t mantissa = half & 0x3FFu;
  std::uint32_t bits = 0;
  if (exponent == 0x1Fu) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal half: normalise
    std::uint32_t shifted_exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --shifted_exponent;
    }
    bits = sign | (shifted_exponent << 23) | ((mantissa & 0x3FFu) << 13);
  }
  float value = 0.0f;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

void to_float(const std::uint16_t* halves, std::size_t count, float* out) {
  std::size_t i = decode_avx2::usable() ? decode_avx2::float16_blocks(halves, count, out) : 0;
  for (; i < count; ++i) out[i] = to_float(halves[i]);
}

}  // namespace sawtag::float16
