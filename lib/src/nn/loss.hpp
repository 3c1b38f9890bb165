// Cross-entropy of the tagging heads: to gold tags with label smoothing, and to a teacher's
// distributions (distillation).
#pragma once

#include <cstddef>
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

// A target distribution for each of n words, sparse: word i's are the classes
// classes[k] with probabilities[k] for k in [offsets[i], offsets[i + 1]). A word without
// entries is ignored. The probabilities of a word should sum to 1.
struct SparseDistributions {
  std::vector<std::size_t> offsets{0};
  std::vector<int> classes;
  std::vector<float> probabilities;

  std::size_t rows() const { return offsets.size() - 1; }
  void add(int tag, float probability) {
    classes.push_back(tag);
    probabilities.push_back(probability);
  }
  void end_row() { offsets.push_back(classes.size()); }
};

// Knowledge distillation (Hinton et al. 2015): the SUM over the words with a distribution q of
//   T^2 KL(q || softmax(logits / T)) = T^2 sum_c q_c (log q_c - log softmax(logits / T)_c),
// q already at temperature T (the caller softens the teacher's probabilities). T^2 keeps the
// gradient's scale as T changes. With `d_logits`, also writes (=, not +=) its gradient
// [n, num_tags]: T (softmax(logits / T) - q), zero rows for words without a distribution.
// Throws Error on a class outside [0, num_tags) or a row count other than logits' rows.
float distillation_loss(const Matrix& logits, const SparseDistributions& targets,
                        float temperature, Matrix* d_logits);

}  // namespace sawtag::nn
