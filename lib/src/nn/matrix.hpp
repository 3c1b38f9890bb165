// Eigen aliases for the math in nn/, and views of a Tensor's floats as Eigen objects.
//
// Storage order: every matrix here is ROW-MAJOR, like Tensor (element (r, c) is data[r * cols + c]),
// so a [rows, cols] Tensor maps onto a Matrix without a copy, and row i of an activation matrix is
// word i of the sentence.
#pragma once

#include <Eigen/Core>

#include "sawtag/tensor.hpp"

namespace sawtag::nn {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

using MatrixMap = Eigen::Map<Matrix>;
using ConstMatrixMap = Eigen::Map<const Matrix>;
using RowVectorMap = Eigen::Map<RowVector>;
using ConstRowVectorMap = Eigen::Map<const RowVector>;

// A [rows, cols] tensor as a matrix (a [n] tensor is [n, 1]). The view lives as long as the
// tensor's data is neither resized nor moved.
inline ConstMatrixMap as_matrix(const Tensor& tensor) {
  return ConstMatrixMap(tensor.data.data(), tensor.rows(), tensor.cols());
}
inline MatrixMap as_matrix(Tensor& tensor) {
  return MatrixMap(tensor.data.data(), tensor.rows(), tensor.cols());
}

// Any tensor's elements as one row vector (used for biases and layer-norm gains: [n] -> [1, n]).
inline ConstRowVectorMap as_row_vector(const Tensor& tensor) {
  return ConstRowVectorMap(tensor.data.data(), static_cast<Eigen::Index>(tensor.data.size()));
}
inline RowVectorMap as_row_vector(Tensor& tensor) {
  return RowVectorMap(tensor.data.data(), static_cast<Eigen::Index>(tensor.data.size()));
}

}  // namespace sawtag::nn
