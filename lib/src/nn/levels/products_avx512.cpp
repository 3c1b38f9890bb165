// Training's products at the avx512 level (and above: avx512bf16 and amx train in float32 on
// AVX-512): AVX-512 F/BW/DQ/VL, 512-bit vectors (flags in lib/CMakeLists.txt).
#include "nn/levels/level_products.hpp"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && defined(__AVX512VL__)
#define SAWTAG_PRODUCTS_AVX512 1
#define Eigen sawtag_eigen_avx512
#include <Eigen/Core>
#endif

namespace sawtag::nn {

#ifdef SAWTAG_PRODUCTS_AVX512

namespace {
#include "nn/levels/eigen_products.inc"
}  // namespace

const LevelProducts* product_levels::avx512() { return &kProducts; }

#else

const LevelProducts* product_levels::avx512() { return nullptr; }

#endif

}  // namespace sawtag::nn
