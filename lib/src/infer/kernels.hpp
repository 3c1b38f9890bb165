// The matrix kernels of this process, chosen once at start for the CPU it runs on.
//
// One portable binary carries the kernels of every x86-64 level (infer/cpu_level.hpp), each
// compiled with its own flags (kernels/level_kernels.hpp); of the levels the CPU and OS
// support, the one SAWTAG_CPU names runs, else the fastest on the encoder's products
// (level_choice()). PackedLinear (y = x W + b with W packed once) is the way to use them; this
// header is for code that needs the level itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "infer/cpu_level.hpp"
#include "infer/kernels/level_kernels.hpp"
#include "infer/level_choice.hpp"

namespace sawtag::infer {

// How a level wants bfloat16 weights laid out (kernels/level_*.cpp describe each layout).
enum class BfloatLayout { none, pairs, amx_tiles };

struct Kernels {
  CpuLevel level = CpuLevel::baseline;
  // The float32 kernel of the level, and the bfloat16 one (null: none at this level).
  LevelKernels code{};
  BfloatLayout bfloat16_layout = BfloatLayout::none;
  // What `sawtag info` prints, e.g. "avx512bf16 (float32: AVX-512, bfloat16: AVX512_BF16)".
  const char* description = "";
};

// The kernels of SAWTAG_CPU's level, or of the level that ran the encoder's products fastest
// on this CPU (level_choice()). Chosen on the first call; throws Error (each call) when
// SAWTAG_CPU names an unknown level or one this CPU lacks.
const Kernels& kernels();

// How kernels() chose its level: SAWTAG_CPU, else the cache's entry for this CPU model and
// sawtag version, else a measurement of each level on the default model shape (d_model 256,
// d_ff 512, the shipped models'), a few milliseconds at the first run on a machine.
const LevelChoice& level_choice();

// The kernels of `level`. Throws Error when this CPU or this build cannot run it.
Kernels kernels_for(CpuLevel level);

// Whether this build has code for `level` (not x86-64, or a compiler without its flags: no).
bool has_code(CpuLevel level);

// W: [in, stride] row-major float32, stride a multiple of kTileColumns -> the layout of
// kernels.code.linear_bfloat16, rounded to bfloat16 (nearest even).
std::vector<std::uint16_t> pack_bfloat16(const Kernels& kernels, const float* weight, int in,
                                         int stride);

// The scratch linear_bfloat16 needs for `rows` rows of `in` values, in bfloat16 values.
std::size_t bfloat16_scratch_size(int rows, int in);

// W as int8 for kernels.code.linear_int8, owning what Int8Weights points to.
struct PackedInt8 {
  std::vector<std::uint32_t> quads;
  std::vector<float> scales;
  std::vector<std::int32_t> column_sums;

  Int8Weights view() const { return {quads.data(), scales.data(), column_sums.data()}; }
};

// W: [in, stride] row-major float32 -> int8, each column scaled by 127 / its largest |value|
// and rounded to nearest even (a zero column keeps scale 1).
PackedInt8 pack_int8(const float* weight, int in, int stride);

// The scratch linear_int8 needs for `rows` rows of `in` values, in bytes.
std::size_t int8_scratch_size(int rows, int in);

}  // namespace sawtag::infer
