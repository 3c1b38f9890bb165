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

namespace {

// The hidden words' encoder rows, [hidden, d_model].
nn::Matrix hidden_rows(const nn::Matrix& encoded, const std::vector<int>& rows) {
  nn::Matrix inputs(static_cast<Eigen::Index>(rows.size()), encoded.cols());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    inputs.row(static_cast<Eigen::Index>(k)) = encoded.row(rows[k]);
  }
  return inputs;
}

// Adds the head's gradient into d_head and the inputs' into the hidden words' rows of d_encoded.
void backward_into(const LinearParameters& head, const nn::Matrix& inputs,
                   const nn::Matrix& d_predicted, const std::vector<int>& rows,
                   nn::Matrix& d_encoded, LinearParameters& d_head) {
  const nn::Matrix d_inputs = nn::linear_backward(head, inputs, d_predicted, d_head);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    d_encoded.row(rows[k]) += d_inputs.row(static_cast<Eigen::Index>(k));
  }
}

}  // namespace

double masked_vector_loss(const LinearParameters& head, const nn::Matrix& encoded,
                          const std::vector<int>& rows, const nn::Matrix& targets, float scale,
                          nn::Matrix* d_encoded, LinearParameters* d_head) {
  const auto hidden = static_cast<Eigen::Index>(rows.size());
  if (hidden == 0) return 0.0;
  const nn::Matrix inputs = hidden_rows(encoded, rows);  // [hidden, d_model]
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
  if (d_encoded != nullptr) backward_into(head, inputs, d_predicted, rows, *d_encoded, *d_head);
  return loss;
}

double masked_word_loss(const LinearParameters& head, const nn::Matrix& encoded,
                        const std::vector<int>& rows, const std::vector<int>& columns,
                        const nn::Matrix& candidates, float scale, nn::Matrix* d_encoded,
                        LinearParameters* d_head) {
  if (rows.empty()) return 0.0;
  const nn::Matrix inputs = hidden_rows(encoded, rows);             // [hidden, d_model]
  const nn::Matrix predicted = nn::linear_forward(head, inputs);      // [hidden, word_dim]
  nn::Matrix logits = predicted * candidates.transpose();            // [hidden, candidates]
  double loss = 0.0;
  for (Eigen::Index k = 0; k < logits.rows(); ++k) {
    auto row = logits.row(k);
    const float highest = row.maxCoeff();
    row.array() = (row.array() - highest).exp();
    const double sum = static_cast<double>(row.sum());
    const int column = columns[static_cast<std::size_t>(k)];
    loss -= std::log(std::max(1e-30, static_cast<double>(row(column)) / sum));
    // d loss / d logits = softmax - one-hot
    row /= static_cast<float>(sum);
    row(column) -= 1.0f;
  }
  if (d_encoded != nullptr) {
    const nn::Matrix d_predicted = (logits * candidates) * scale;
    backward_into(head, inputs, d_predicted, rows, *d_encoded, *d_head);
  }
  return loss;
}

}  // namespace sawtag::train
