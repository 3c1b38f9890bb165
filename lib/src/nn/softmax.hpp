// Softmax over each row, used by attention and by the tagging heads.
#pragma once

#include "nn/matrix.hpp"

namespace sawtag::nn {

// scores: [n, m] -> probabilities: [n, m], each row summing to 1. The row maximum is subtracted
// first, so large scores do not overflow.
Matrix softmax_rows(const Matrix& scores);

// Given the forward output p: [n, m] and d_p: [n, m], returns d_scores = p * (d_p - rowsum(d_p * p)).
Matrix softmax_rows_backward(const Matrix& probabilities, const Matrix& d_probabilities);

}  // namespace sawtag::nn
