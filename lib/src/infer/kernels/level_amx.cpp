// The amx level's kernels: Intel AMX tiles in bfloat16 (Sapphire Rapids and later; flags in
// lib/CMakeLists.txt). The level is chosen only when the OS has granted this process the tile
// registers (infer/cpu_level.cpp asks).
//
// Weights are packed in tiles (infer/kernels.cpp, pack_bfloat16 for this level): tile (column
// block cb, depth block kb) holds W[kb*32 .. +32][cb*16 .. +16] as 16 rows of 16 pairs: row p,
// pair n = (W[kb*32 + 2p][cb*16 + n], W[kb*32 + 2p + 1][cb*16 + n]).
#include "infer/kernels/level_kernels.hpp"

#if defined(__AMX_TILE__) && defined(__AMX_BF16__) && defined(__AVX512BF16__) && \
    defined(__AVX512BW__)
#include <immintrin.h>
#define SAWTAG_LEVEL_AMX 1
#endif

namespace sawtag::infer {

#ifdef SAWTAG_LEVEL_AMX

namespace {

#include "infer/kernels/bfloat16_rows.inc"
#include "infer/kernels/linear_float32.inc"
#include "infer/kernels/row_kernels.inc"

constexpr int kTile = 16;       // rows of a tile; also output columns of a tile
constexpr int kTileDepth = 32;  // bfloat16 values along k in one tile row (64 bytes)

struct TileConfig {
  std::uint8_t palette = 1;
  std::uint8_t start_row = 0;
  std::uint8_t reserved[14] = {};
  std::uint16_t bytes_per_row[16] = {};
  std::uint8_t rows[16] = {};
};

// Tile registers: 0-3 accumulate a 32 x 32 block of y, 4-5 hold x, 6-7 hold W.
void configure_this_thread() {
  thread_local bool configured = false;
  if (configured) return;
  TileConfig config;
  for (int t = 0; t < 8; ++t) {
    config.rows[t] = kTile;
    config.bytes_per_row[t] = 64;
  }
  _tile_loadconfig(&config);
  configured = true;
}

void linear_bfloat16(const LinearCall& call, const std::uint16_t* packed, std::uint16_t* scratch) {
  configure_this_thread();
  const int depth = (call.in + kTileDepth - 1) / kTileDepth * kTileDepth;
  const int depth_blocks = depth / kTileDepth;
  const int padded_rows = (call.rows + 2 * kTile - 1) / (2 * kTile) * (2 * kTile);
  to_bfloat16_rows(call, depth, padded_rows, scratch);
  const long tile_size = static_cast<long>(kTile) * kTileDepth;
  const int a_stride = depth * 2;  // bytes
  alignas(64) float block[2 * kTile][2 * kTile];
  for (int row = 0; row < padded_rows; row += 2 * kTile) {
    const std::uint16_t* a0 = scratch + static_cast<long>(row) * depth;
    const std::uint16_t* a1 = a0 + static_cast<long>(kTile) * depth;
    for (int column = 0; column < call.stride; column += 2 * kTile) {
      const std::uint16_t* b0 = packed + (column / kTile) * depth_blocks * tile_size;
      const std::uint16_t* b1 = b0 + depth_blocks * tile_size;
      _tile_zero(0);
      _tile_zero(1);
      _tile_zero(2);
      _tile_zero(3);
      for (int kb = 0; kb < depth_blocks; ++kb) {
        _tile_loadd(4, a0 + kb * kTileDepth, a_stride);
        _tile_loadd(5, a1 + kb * kTileDepth, a_stride);
        _tile_loadd(6, b0 + kb * tile_size, 64);
        _tile_loadd(7, b1 + kb * tile_size, 64);
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
      }
      constexpr int kBlockStride = 2 * kTile * sizeof(float);
      _tile_stored(0, &block[0][0], kBlockStride);
      _tile_stored(1, &block[0][kTile], kBlockStride);
      _tile_stored(2, &block[kTile][0], kBlockStride);
      _tile_stored(3, &block[kTile][kTile], kBlockStride);
      const int block_rows = call.rows - row < 2 * kTile ? call.rows - row : 2 * kTile;
      for (int r = 0; r < block_rows; ++r) {
        float* target = call.y + static_cast<long>(row + r) * call.stride + column;
        for (int c = 0; c < 2 * kTile; ++c) target[c] = block[r][c] + call.bias[column + c];
      }
    }
  }
}

}  // namespace

const LevelKernels* levels::amx() {
  static const LevelKernels kernels{linear_float32,    linear_bfloat16, layer_norm,      gelu,
                                    attention_weights, head_scores,     weighted_values, nullptr};
  return &kernels;
}

#else

const LevelKernels* levels::amx() { return nullptr; }

#endif

}  // namespace sawtag::infer
