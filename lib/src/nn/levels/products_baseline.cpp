// Training's products at the baseline level: the build's own flags (SSE2 in a portable x86-64
// build, everything the CPU has in a native one).
#include "nn/levels/level_products.hpp"

#define Eigen sawtag_eigen_baseline
#include <Eigen/Core>

namespace sawtag::nn {

namespace {
#include "nn/levels/eigen_products.inc"
}  // namespace

const LevelProducts* product_levels::baseline() { return &kProducts; }

}  // namespace sawtag::nn
