// Training's matrix products at one CPU level: Eigen's GEMM compiled once per level, each in its
// own file with that level's flags (lib/CMakeLists.txt), so that a portable build trains at the
// speed of the CPU it lands on (nn/products.hpp chooses).
//
// Each level file renames Eigen's namespace (#define Eigen sawtag_eigen_<level>) before
// including it: Eigen is templates and inline functions, and the linker keeps one copy of each
// for the whole program, which could otherwise be the AVX-512 copy called from baseline code.
// tests/avx_only_in_kernels.sh checks that no AVX instruction escaped these files.
#pragma once

namespace sawtag::nn {

// All matrices row-major float32, dimensions in elements.
struct LevelProducts {
  // c[m, n] = a[m, k] b[k, n]
  void (*multiply)(const float* a, const float* b, float* c, int m, int k, int n);
  // c[m, n] += a[k, m]^T b[k, n]
  void (*add_transposed_times)(const float* a, const float* b, float* c, int m, int k, int n);
  // c[m, n] = a[m, k] b[n, k]^T
  void (*times_transposed)(const float* a, const float* b, float* c, int m, int k, int n);
};

// Null where this build has no code for the level.
namespace product_levels {
const LevelProducts* baseline();
const LevelProducts* avx2();
const LevelProducts* avx512();
}  // namespace product_levels

}  // namespace sawtag::nn
