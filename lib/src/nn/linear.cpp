#include "nn/linear.hpp"

#include "nn/products.hpp"

namespace sawtag::nn {

Matrix linear_forward(const LinearParameters& parameters, const Matrix& x) {
  Matrix y = times(x, as_matrix(parameters.weight));
  y.rowwise() += as_row_vector(parameters.bias);
  return y;
}

Matrix linear_backward(const LinearParameters& parameters, const Matrix& x, const Matrix& d_y,
                       LinearParameters& gradients) {
  add_transposed_times(x, d_y, as_matrix(gradients.weight));
  as_row_vector(gradients.bias) += d_y.colwise().sum();
  return times_transposed(d_y, as_matrix(parameters.weight));
}

}  // namespace sawtag::nn
