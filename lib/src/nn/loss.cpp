#include "nn/loss.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "sawtag/error.hpp"

namespace sawtag::nn {

float tagging_loss(const Matrix& logits, const std::vector<int>& targets, float label_smoothing,
                   Matrix* d_logits) {
  const Eigen::Index num_tags = logits.cols();
  if (static_cast<Eigen::Index>(targets.size()) != logits.rows()) {
    throw Error("tagging_loss: " + std::to_string(targets.size()) + " targets for " +
                std::to_string(logits.rows()) + " words");
  }
  if (d_logits != nullptr) *d_logits = Matrix::Zero(logits.rows(), num_tags);
  const double uniform_share = static_cast<double>(label_smoothing) / static_cast<double>(num_tags);
  double total = 0.0;
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const int target = targets[static_cast<std::size_t>(i)];
    if (target == -1) continue;
    if (target < 0 || target >= num_tags) {
      throw Error("tagging_loss: target " + std::to_string(target) + " is outside [0, " +
                  std::to_string(num_tags) + ")");
    }
    // log softmax in double: log p_c = z_c - max - log sum exp(z - max).
    const double maximum = logits.row(i).maxCoeff();
    double sum = 0.0;
    for (Eigen::Index c = 0; c < num_tags; ++c) sum += std::exp(logits(i, c) - maximum);
    const double log_normalizer = maximum + std::log(sum);
    for (Eigen::Index c = 0; c < num_tags; ++c) {
      const double log_probability = logits(i, c) - log_normalizer;
      const double wanted = uniform_share + (c == target ? 1.0 - label_smoothing : 0.0);
      total -= wanted * log_probability;
      if (d_logits != nullptr) {
        (*d_logits)(i, c) = static_cast<float>(std::exp(log_probability) - wanted);
      }
    }
  }
  return static_cast<float>(total);
}

float distillation_loss(const Matrix& logits, const SparseDistributions& targets,
                        float temperature, Matrix* d_logits) {
  const Eigen::Index num_tags = logits.cols();
  if (static_cast<Eigen::Index>(targets.rows()) != logits.rows()) {
    throw Error("distillation_loss: " + std::to_string(targets.rows()) + " distributions for " +
                std::to_string(logits.rows()) + " words");
  }
  if (d_logits != nullptr) *d_logits = Matrix::Zero(logits.rows(), num_tags);
  const double t = static_cast<double>(temperature);
  std::vector<double> log_probabilities(static_cast<std::size_t>(num_tags));
  double total = 0.0;
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const std::size_t begin = targets.offsets[static_cast<std::size_t>(i)];
    const std::size_t end = targets.offsets[static_cast<std::size_t>(i) + 1];
    if (begin == end) continue;
    // log softmax(z / T) in double.
    const double maximum = logits.row(i).maxCoeff() / t;
    double sum = 0.0;
    for (Eigen::Index c = 0; c < num_tags; ++c) sum += std::exp(logits(i, c) / t - maximum);
    const double log_normalizer = maximum + std::log(sum);
    for (Eigen::Index c = 0; c < num_tags; ++c) {
      log_probabilities[static_cast<std::size_t>(c)] = logits(i, c) / t - log_normalizer;
    }
    if (d_logits != nullptr) {
      for (Eigen::Index c = 0; c < num_tags; ++c) {
        (*d_logits)(i, c) =
            static_cast<float>(t * std::exp(log_probabilities[static_cast<std::size_t>(c)]));
      }
    }
    for (std::size_t k = begin; k < end; ++k) {
      const int tag = targets.classes[k];
      if (tag < 0 || tag >= num_tags) {
        throw Error("distillation_loss: class " + std::to_string(tag) + " is outside [0, " +
                    std::to_string(num_tags) + ")");
      }
      const double wanted = targets.probabilities[k];
      if (wanted > 0.0) {
        total += t * t * wanted * (std::log(wanted) - log_probabilities[static_cast<std::size_t>(tag)]);
      }
      if (d_logits != nullptr) (*d_logits)(i, tag) -= static_cast<float>(t * wanted);
    }
  }
  return static_cast<float>(total);
}

}  // namespace sawtag::nn
