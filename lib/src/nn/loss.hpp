// Cross-entropy of the tagging heads, with label smoothing.
#pragma once

#include <vector>

#include "nn/matrix.hpp"

namespace sawtag::nn {

// logits: [n, num_tags]; targets: [n], each a tag index or -1 (ignored: no loss, zero gradient).
// Returns the SUM over the non-ignored words of -sum_c q_c log softmax(logits)_c, where
// q = (1 - label_smoothing) one_hot(target) + label_smoothing / num_tags. With `d_logits`, also
// writes (=, not +=) its gradient [n, num_tags]: softmax(logits) - q, zero rows where ignored.
// Divide by the number of words yourself for a mean. Throws Error on a target >= num_tags.
float tagging_loss(const Matrix& logits, const std::vector<int>& targets, float label_smoothing,
                   Matrix* d_logits);

}  // namespace sawtag::nn
