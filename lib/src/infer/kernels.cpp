#include "infer/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "sawtag/error.hpp"

namespace sawtag::infer {

namespace {

int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

std::uint16_t to_bfloat16(float value) {  // round to nearest even
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

const LevelKernels* code_of(CpuLevel level) {
  switch (level) {
    case CpuLevel::baseline:
      return levels::baseline();
    case CpuLevel::avx2:
      return levels::avx2();
    case CpuLevel::avxvnni:
      return levels::avxvnni();
    case CpuLevel::avx512:
      return levels::avx512();
    case CpuLevel::avx512vnni:
      return levels::avx512vnni();
    case CpuLevel::avx512bf16:
      return levels::avx512bf16();
    case CpuLevel::amx:
      return levels::amx();
  }
  return nullptr;
}

const char* description_of(CpuLevel level) {
  switch (level) {
    case CpuLevel::baseline:
      return "baseline (float32: generic; reduced precision: none, float32 used)";
    case CpuLevel::avx2:
      return "avx2 (float32: AVX2+FMA; reduced precision: none, float32 used)";
    case CpuLevel::avxvnni:
      return "avxvnni (float32: AVX2+FMA; reduced precision: int8, AVX-VNNI)";
    case CpuLevel::avx512:
      return "avx512 (float32: AVX-512; reduced precision: none, float32 used)";
    case CpuLevel::avx512vnni:
      return "avx512vnni (float32: AVX-512; reduced precision: int8, AVX512_VNNI)";
    case CpuLevel::avx512bf16:
      return "avx512bf16 (float32: AVX-512; reduced precision: bfloat16, AVX512_BF16)";
    case CpuLevel::amx:
      return "amx (float32: AVX-512; reduced precision: bfloat16, AMX tiles)";
  }
  return "unknown";
}

// Pair layout: element (p, c) = (W[2p][c], W[2p + 1][c]); [ceil(in / 2), stride] pairs.
std::vector<std::uint16_t> pack_pairs(const float* weight, int in, int stride) {
  const int pairs = (in + 1) / 2;
  std::vector<std::uint16_t> packed(static_cast<std::size_t>(pairs) * stride * 2, 0);
  for (int k = 0; k < in; ++k) {
    for (int c = 0; c < stride; ++c) {
      packed[(static_cast<std::size_t>(k / 2) * stride + c) * 2 + k % 2] =
          to_bfloat16(weight[static_cast<std::size_t>(k) * stride + c]);
    }
  }
  return packed;
}

// AMX tile layout (kernels/level_amx.cpp).
std::vector<std::uint16_t> pack_tiles(const float* weight, int in, int stride) {
  constexpr int kTile = 16;
  constexpr int kTileDepth = 32;
  const int depth_blocks = round_up(in, kTileDepth) / kTileDepth;
  const int column_blocks = stride / kTile;
  std::vector<std::uint16_t> packed(
      static_cast<std::size_t>(depth_blocks) * column_blocks * kTile * kTileDepth, 0);
  for (int cb = 0; cb < column_blocks; ++cb) {
    for (int kb = 0; kb < depth_blocks; ++kb) {
      std::uint16_t* tile =
          packed.data() + (static_cast<std::size_t>(cb) * depth_blocks + kb) * kTile * kTileDepth;
      for (int p = 0; p < kTile; ++p) {
        for (int n = 0; n < kTile; ++n) {
          for (int j = 0; j < 2; ++j) {
            const int k = kb * kTileDepth + 2 * p + j;
            if (k >= in) continue;
            tile[(p * kTile + n) * 2 + j] =
                to_bfloat16(weight[static_cast<std::size_t>(k) * stride + cb * kTile + n]);
          }
        }
      }
    }
  }
  return packed;
}

}  // namespace

bool has_code(CpuLevel level) { return code_of(level) != nullptr; }

Kernels kernels_for(CpuLevel level) {
  const std::vector<CpuLevel> supported = supported_cpu_levels();
  if (std::find(supported.begin(), supported.end(), level) == supported.end()) {
    throw Error(std::string("CPU level ") + cpu_level_name(level) + ": this CPU cannot run it");
  }
  const LevelKernels* code = code_of(level);
  if (code == nullptr) {
    throw Error(std::string("CPU level ") + cpu_level_name(level) +
                ": this build has no kernels for it (compiler without its flags?)");
  }
  Kernels kernels;
  kernels.level = level;
  kernels.code = *code;
  kernels.description = description_of(level);
  if (level == CpuLevel::avx512bf16) kernels.bfloat16_layout = BfloatLayout::pairs;
  if (level == CpuLevel::amx) kernels.bfloat16_layout = BfloatLayout::amx_tiles;
  return kernels;
}

const LevelChoice& level_choice() {
  // Initialised once, by the first caller; a throw leaves it for the next call to try again.
  static const LevelChoice choice = [] {
    const LayerShapes shapes;
    return choose_level(level_choice_request(shapes), [&](const std::vector<CpuLevel>& levels) {
      return time_levels(levels, shapes);
    });
  }();
  return choice;
}

const Kernels& kernels() {
  static const Kernels chosen = kernels_for(level_choice().level);
  return chosen;
}

std::vector<std::uint16_t> pack_bfloat16(const Kernels& kernels, const float* weight, int in,
                                         int stride) {
  switch (kernels.bfloat16_layout) {
    case BfloatLayout::pairs:
      return pack_pairs(weight, in, stride);
    case BfloatLayout::amx_tiles:
      return pack_tiles(weight, in, stride);
    case BfloatLayout::none:
      break;
  }
  throw Error(std::string("CPU level ") + cpu_level_name(kernels.level) +
              " has no bfloat16 kernel");
}

std::size_t bfloat16_scratch_size(int rows, int in) {
  return static_cast<std::size_t>(round_up(rows, 32)) * round_up(in, 32);
}

// Row by row, each step over all the columns at once: a column at a time would stride through W
// (a cache line a value), which made packing a tenth of loading a model. The values are the same.
PackedInt8 pack_int8(const float* weight, int in, int stride) {
  const auto columns = static_cast<std::size_t>(stride);
  const auto row_of = [&](int k) { return weight + static_cast<std::size_t>(k) * columns; };
  std::vector<float> largest(columns, 0.0f);
  for (int k = 0; k < in; ++k) {
    const float* row = row_of(k);
    for (std::size_t c = 0; c < columns; ++c) largest[c] = std::max(largest[c], std::abs(row[c]));
  }
  PackedInt8 packed;
  packed.scales.assign(columns, 1.0f);
  std::vector<float> inverse(columns, 0.0f);
  for (std::size_t c = 0; c < columns; ++c) {
    if (largest[c] > 0.0f) {
      packed.scales[c] = largest[c] / 127.0f;
      inverse[c] = 127.0f / largest[c];
    }
  }
  packed.quads.assign(static_cast<std::size_t>((in + 3) / 4) * columns, 0u);
  packed.column_sums.assign(columns, 0);
  for (int k = 0; k < in; ++k) {
    const float* row = row_of(k);
    std::uint32_t* quads = packed.quads.data() + static_cast<std::size_t>(k / 4) * columns;
    const int shift = 8 * (k % 4);
    for (std::size_t c = 0; c < columns; ++c) {
      const auto q = static_cast<std::int32_t>(std::nearbyint(row[c] * inverse[c]));
      packed.column_sums[c] += q;
      quads[c] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(static_cast<std::int8_t>(q)))
                  << shift;
    }
  }
  return packed;
}

std::size_t int8_scratch_size(int rows, int in) {
  const auto padded_rows = static_cast<std::size_t>(round_up(rows, 32));
  return padded_rows * round_up(in, 64) + padded_rows * sizeof(float);
}

}  // namespace sawtag::infer
