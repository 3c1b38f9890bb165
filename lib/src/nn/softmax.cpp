#include "nn/softmax.hpp"

namespace sawtag::nn {

Matrix softmax_rows(const Matrix& scores) {
  Matrix probabilities(scores.rows(), scores.cols());
  for (Eigen::Index i = 0; i < scores.rows(); ++i) {
    const float maximum = scores.row(i).maxCoeff();
    probabilities.row(i) = (scores.row(i).array() - maximum).exp().matrix();
    probabilities.row(i) /= probabilities.row(i).sum();
  }
  return probabilities;
}

Matrix softmax_rows_backward(const Matrix& probabilities, const Matrix& d_probabilities) {
  Matrix d_scores(probabilities.rows(), probabilities.cols());
  for (Eigen::Index i = 0; i < probabilities.rows(); ++i) {
    const float inner = d_probabilities.row(i).dot(probabilities.row(i));
    d_scores.row(i) =
        probabilities.row(i).cwiseProduct((d_probabilities.row(i).array() - inner).matrix());
  }
  return d_scores;
}

}  // namespace sawtag::nn
