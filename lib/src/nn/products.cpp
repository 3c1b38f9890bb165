#include "nn/products.hpp"

#include <cassert>

#include "infer/kernels.hpp"

namespace sawtag::nn {

namespace {

// avxvnni ranks between avx2 and avx512 (infer/cpu_level.hpp), so it trains on avx2's code.
const LevelProducts* products_for(infer::CpuLevel level) {
  const LevelProducts* chosen = nullptr;
  if (level >= infer::CpuLevel::avx512) chosen = product_levels::avx512();
  if (chosen == nullptr && level >= infer::CpuLevel::avx2) chosen = product_levels::avx2();
  if (chosen == nullptr) chosen = product_levels::baseline();
  return chosen;
}

int size(Eigen::Index value) { return static_cast<int>(value); }

}  // namespace

const LevelProducts& products() {
  static const LevelProducts* chosen = products_for(infer::kernels().level);
  return *chosen;
}

Matrix times(const Matrix& x, const ConstMatrixMap& w) {
  assert(x.cols() == w.rows());
  Matrix y(x.rows(), w.cols());
  if (y.size() == 0) return y;
  if (x.cols() == 0) {
    y.setZero();
    return y;
  }
  products().multiply(x.data(), w.data(), y.data(), size(x.rows()), size(x.cols()), size(w.cols()));
  return y;
}

void add_transposed_times(const Matrix& x, const Matrix& d_y, MatrixMap d_w) {
  assert(x.rows() == d_y.rows() && d_w.rows() == x.cols() && d_w.cols() == d_y.cols());
  if (d_w.size() == 0 || x.rows() == 0) return;
  products().add_transposed_times(x.data(), d_y.data(), d_w.data(), size(x.cols()), size(x.rows()),
                                  size(d_y.cols()));
}

Matrix times_transposed(const Matrix& d_y, const ConstMatrixMap& w) {
  assert(d_y.cols() == w.cols());
  Matrix d_x(d_y.rows(), w.rows());
  if (d_x.size() == 0) return d_x;
  if (d_y.cols() == 0) {
    d_x.setZero();
    return d_x;
  }
  products().times_transposed(d_y.data(), w.data(), d_x.data(), size(d_y.rows()), size(d_y.cols()),
                              size(w.rows()));
  return d_x;
}

}  // namespace sawtag::nn
