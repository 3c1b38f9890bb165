#include "nn/linear.hpp"

namespace sawtag::nn {

Matrix linear_forward(const LinearParameters& parameters, const Matrix& x) {
  Matrix y = x * as_matrix(parameters.weight);
  y.rowwise() += as_row_vector(parameters.bias);
  return y;
}

Matrix linear_backward(const LinearParameters& parameters, const Matrix& x, const Matrix& d_y,
                       LinearParameters& gradients) {
  as_matrix(gradients.weight).noalias() += x.transpose() * d_y;
  as_row_vector(gradients.bias) += d_y.colwise().sum();
  return d_y * as_matrix(parameters.weight).transpose();
}

}  // namespace sawtag::nn
