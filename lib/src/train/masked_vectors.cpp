#include "train/masked_vectors.hpp"

#include <algorithm>
#include <cmath>

#include "nn/linear.hpp"
#include "sawtag/model.hpp"

namespace sawtag::train {

WordFeatures masked_word() {
  WordFeatures word;
  word.word_id = kUnknownWord;
  word.char_ids = {kWordStartChar, kWordEndChar};
  word.shape = static_cast<int>(WordShape::other);
  return word;
}

std::vector<int> mask_words(std::vector<WordFeatures>& words, float rate, std::mt19937_64& random,
                            std::vector<int>& hidden_ids) {
  std::vector<int> eligible;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].word_id != kUnknownWord) eligible.push_back(static_cast<int>(i));
  }
  std::vector<int> hidden;
  hidden_ids.clear();
  if (eligible.empty()) return hidden;
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (int position : eligible) {
    if (uniform(random) < rate) hidden.push_back(position);
  }
  if (hidden.empty()) {
    std::uniform_int_distribution<std::size_t> pick(0, eligible.size() - 1);
    hidden.push_back(eligible[pick(random)]);
  }
  for (int position : hidden) {
    hidden_ids.push_back(words[static_cast<std::size_t>(position)].word_id);
    words[static_cast<std::size_t>(position)] = masked_word();
  }
  return hidden;
}

double masked_vector_loss(const LinearParameters& head, const nn::Matrix& encoded,
                          const std::vector<int>& rows, const nn::Matrix& targets, float scale,
                          nn::Matrix* d_encoded, LinearParameters* d_head) {
  const auto hidden = static_cast<Eigen::Index>(rows.size());
  if (hidden == 0) return 0.0;
  nn::Matrix inputs(hidden, encoded.cols());  // [hidden, d_model]
  for (Eigen::Index k = 0; k < hidden; ++k) inputs.row(k) = encoded.row(rows[static_cast<std::size_t>(k)]);
  const nn::Matrix predicted = nn::linear_forward(head, inputs);  // [hidden, word_dim]
  double loss = 0.0;
  nn::Matrix d_predicted(hidden, predicted.cols());
  for (Eigen::Index k = 0; k < hidden; ++k) {
    const double y_norm = std::max(1e-6, static_cast<double>(predicted.row(k).norm()));
    const double v_norm = std::max(1e-6, static_cast<double>(targets.row(k).norm()));
    const double dot = static_cast<double>(predicted.row(k).dot(targets.row(k)));
    const double cosine = dot / (y_norm * v_norm);
    loss += 1.0 - cosine;
    // d(1 - cos)/dy = -(v / (|y||v|) - cos * y / |y|^2)
    d_predicted.row(k) =
        (-(targets.row(k).array() / static_cast<float>(y_norm * v_norm)) +
         predicted.row(k).array() * static_cast<float>(cosine / (y_norm * y_norm)))
            .matrix() *
        scale;
  }
  if (d_encoded != nullptr) {
    const nn::Matrix d_inputs = nn::linear_backward(head, inputs, d_predicted, *d_head);
    for (Eigen::Index k = 0; k < hidden; ++k) {
      d_encoded->row(rows[static_cast<std::size_t>(k)]) += d_inputs.row(k);
    }
  }
  return loss;
}

}  // namespace sawtag::train
