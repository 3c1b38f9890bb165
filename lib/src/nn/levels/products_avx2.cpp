// Training's products at the avx2 level: AVX2 + FMA (flags in lib/CMakeLists.txt).
#include "nn/levels/level_products.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#define SAWTAG_PRODUCTS_AVX2 1
#define Eigen sawtag_eigen_avx2
#include <Eigen/Core>
#endif

namespace sawtag::nn {

#ifdef SAWTAG_PRODUCTS_AVX2

namespace {
#include "nn/levels/eigen_products.inc"
}  // namespace

const LevelProducts* product_levels::avx2() { return &kProducts; }

#else

const LevelProducts* product_levels::avx2() { return nullptr; }

#endif

}  // namespace sawtag::nn
