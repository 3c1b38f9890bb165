#include "infer/amx.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

#if defined(__AMX_TILE__) && defined(__AMX_BF16__) && defined(__AVX512BF16__) && defined(__linux__)
#define SAWTAG_HAVE_AMX 1
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sawtag::infer::amx {

namespace {

constexpr int kTile = 16;        // rows of a tile; also output columns of a tile
constexpr int kTileDepth = 32;   // bfloat16 values along k in one tile row (64 bytes)

int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

std::uint16_t to_bfloat16(float value) {  // round to nearest even
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

}  // namespace

std::vector<std::uint16_t> pack_weights(const float* weight, int in, int out) {
  // Tile (column block cb, depth block kb) holds W[kb*32 .. +32][cb*16 .. +16] as 16 rows of
  // 16 pairs: row p, pair n = (W[kb*32 + 2p][cb*16 + n], W[kb*32 + 2p + 1][cb*16 + n]).
  const int depth_blocks = round_up(in, kTileDepth) / kTileDepth;
  const int column_blocks = out / kTile;
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
                to_bfloat16(weight[static_cast<std::size_t>(k) * out + cb * kTile + n]);
          }
        }
      }
    }
  }
  return packed;
}

#ifdef SAWTAG_HAVE_AMX

namespace {

constexpr long kRequestPermission = 0x1023;  // ARCH_REQ_XCOMP_PERM
constexpr long kTileData = 18;               // XFEATURE_XTILEDATA

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

// x rows -> bfloat16 rows of `depth` values (zero beyond `in`), `padded_rows` rows.
void to_bfloat16_rows(const float* x, int x_stride, int rows, int in, int depth,
                      int padded_rows, std::vector<std::uint16_t>& out) {
  out.resize(static_cast<std::size_t>(padded_rows) * depth);
  for (int r = 0; r < rows; ++r) {
    const float* row = x + static_cast<std::size_t>(r) * x_stride;
    std::uint16_t* target = out.data() + static_cast<std::size_t>(r) * depth;
    int k = 0;
    for (; k + 32 <= in; k += 32) {
      const __m512bh pair = _mm512_cvtne2ps_pbh(_mm512_loadu_ps(row + k + 16),
                                                _mm512_loadu_ps(row + k));
      _mm512_storeu_si512(target + k, reinterpret_cast<const __m512i&>(pair));
    }
    for (; k < in; ++k) target[k] = to_bfloat16(row[k]);
    std::fill(target + in, target + depth, std::uint16_t{0});
  }
  std::fill(out.begin() + static_cast<std::ptrdiff_t>(rows) * depth, out.end(), std::uint16_t{0});
}

}  // namespace

bool available() {
  static const bool granted =
      ::syscall(SYS_arch_prctl, kRequestPermission, kTileData) == 0;
  return granted;
}

void multiply(const float* x, int x_stride, int rows, int in,
              const std::vector<std::uint16_t>& packed, const float* bias, int out, float* y) {
  configure_this_thread();
  thread_local std::vector<std::uint16_t> a;
  const int depth = round_up(in, kTileDepth);
  const int depth_blocks = depth / kTileDepth;
  const int padded_rows = round_up(rows, 2 * kTile);
  to_bfloat16_rows(x, x_stride, rows, in, depth, padded_rows, a);
  const std::size_t tile_size = static_cast<std::size_t>(kTile) * kTileDepth;
  const int a_stride = depth * 2;  // bytes
  alignas(64) float block[2 * kTile][2 * kTile];
  for (int row = 0; row < padded_rows; row += 2 * kTile) {
    const std::uint16_t* a0 = a.data() + static_cast<std::size_t>(row) * depth;
    const std::uint16_t* a1 = a0 + static_cast<std::size_t>(kTile) * depth;
    for (int column = 0; column < out; column += 2 * kTile) {
      const std::uint16_t* b0 = packed.data() + (column / kTile) * depth_blocks * tile_size;
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
      const int block_rows = std::min(2 * kTile, rows - row);
      for (int r = 0; r < block_rows; ++r) {
        float* target = y + static_cast<std::size_t>(row + r) * out + column;
        for (int c = 0; c < 2 * kTile; ++c) target[c] = block[r][c] + bias[column + c];
      }
    }
  }
}

#else  // no AMX in this build

bool available() { return false; }

void multiply(const float*, int, int, int, const std::vector<std::uint16_t>&, const float*, int,
              float*) {}

#endif

}  // namespace sawtag::infer::amx
