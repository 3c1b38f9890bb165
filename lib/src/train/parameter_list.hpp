// The tensors of a Parameters as a flat list, in for_each_parameter's order, so that several
// Parameters of the same config (weights, gradients, Adam moments) can be walked side by side.
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "sawtag/parameters.hpp"

namespace sawtag::train {

// `T` is Tensor or const Tensor.
template <class T>
struct NamedTensor {
  std::string name;
  T* tensor;
};

// P is Parameters or const Parameters.
template <class P>
auto parameter_list(P& parameters, const ModelConfig& config) {
  using TensorType = std::conditional_t<std::is_const_v<P>, const Tensor, Tensor>;
  std::vector<NamedTensor<TensorType>> list;
  for_each_parameter(parameters, config, [&list](const std::string& name, TensorType& tensor,
                                                 const Shape&) { list.push_back({name, &tensor}); });
  return list;
}

// For each tensor of parameter_list, in its order: how many leading elements training changes.
// All of them, except the word embedding's rows from `first_frozen_word_row` on (pre-trained
// vectors kept as they are). The optimiser, the moving average, gradient clipping and the
// zeroing and summing of gradients read and write only these elements, so a frozen table of
// 100,000 vectors costs nothing per step; the gradient's elements past them are scratch.
using TrainableSizes = std::vector<std::size_t>;

inline TrainableSizes trainable_sizes(const Parameters& parameters, const ModelConfig& config,
                                      std::size_t first_frozen_word_row) {
  TrainableSizes sizes;
  for (const auto& entry : parameter_list(parameters, config)) {
    std::size_t size = entry.tensor->data.size();
    if (entry.tensor == &parameters.encoder.word_embedding) {
      size = std::min(size, first_frozen_word_row * static_cast<std::size_t>(config.word_dim));
    }
    sizes.push_back(size);
  }
  return sizes;
}

// For each tensor of parameter_list, in its order: the factor of the learning rate it trains
// with. `encoder_factor` for the encoder's tensors (embeddings, character CNN, layers), 1 for the
// tagging heads: fine-tuning a pre-trained encoder more gently than the fresh heads
// (`sawtag train --encoder-lr-scale`).
using LearningRateFactors = std::vector<float>;

inline LearningRateFactors learning_rate_factors(const Parameters& parameters,
                                                 const ModelConfig& config, float encoder_factor) {
  LearningRateFactors factors;
  for (const auto& entry : parameter_list(parameters, config)) {
    const bool head = entry.name.compare(0, 6, "heads.") == 0;
    factors.push_back(head ? 1.0f : encoder_factor);
  }
  return factors;
}

// Sets the trainable elements to zero, keeping the shapes.
inline void zero(Parameters& parameters, const ModelConfig& config, const TrainableSizes& sizes) {
  const auto list = parameter_list(parameters, config);
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::fill_n(list[i].tensor->data.begin(), sizes[i], 0.0f);
  }
}

// The sum of the squares of the trainable elements, in double (for the global gradient norm).
inline double squared_norm(const Parameters& parameters, const ModelConfig& config,
                           const TrainableSizes& sizes) {
  double sum = 0.0;
  const auto list = parameter_list(parameters, config);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const TensorData& data = list[i].tensor->data;
    for (std::size_t k = 0; k < sizes[i]; ++k) sum += static_cast<double>(data[k]) * data[k];
  }
  return sum;
}

// Multiplies the trainable elements by `factor`.
inline void scale(Parameters& parameters, const ModelConfig& config, const TrainableSizes& sizes,
                  float factor) {
  const auto list = parameter_list(parameters, config);
  for (std::size_t i = 0; i < list.size(); ++i) {
    TensorData& data = list[i].tensor->data;
    for (std::size_t k = 0; k < sizes[i]; ++k) data[k] *= factor;
  }
}

// target += source, trainable elements only.
inline void add_into(Parameters& target, const Parameters& source, const ModelConfig& config,
                     const TrainableSizes& sizes) {
  const auto target_list = parameter_list(target, config);
  const auto source_list = parameter_list(source, config);
  for (std::size_t i = 0; i < target_list.size(); ++i) {
    TensorData& to = target_list[i].tensor->data;
    const TensorData& from = source_list[i].tensor->data;
    for (std::size_t k = 0; k < sizes[i]; ++k) to[k] += from[k];
  }
}

}  // namespace sawtag::train
