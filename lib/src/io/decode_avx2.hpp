// The model file's decoding loops for CPUs with AVX2 and F16C, compiled in their own file with
// those flags (lib/CMakeLists.txt) and used only when the chosen CPU level has them
// (infer/kernels.hpp); base64.cpp and float16.cpp finish what these leave.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sawtag::decode_avx2 {

// True when this build has the AVX2 code (x86-64 and a compiler with the flags).
bool compiled();
// True when it has and the CPU level in use (infer/kernels.hpp) runs AVX2 and F16C code
// (defined in base64.cpp, compiled for every CPU).
bool usable();

// Decodes 32 base64 characters into 24 bytes at a time; stops before the first block holding
// a character outside the alphabet. Writes 32 bytes per block (8 past the 24 decoded): the
// caller keeps `chars` at least 8 bytes short of the end. Returns the characters consumed.
std::size_t base64_blocks(const unsigned char* chars, std::size_t size, unsigned char*& out);

// out[i] = halves[i] as float for i < count rounded down to 8; returns how many were done.
std::size_t float16_blocks(const std::uint16_t* halves, std::size_t count, float* out);

}  // namespace sawtag::decode_avx2
