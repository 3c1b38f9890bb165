#include "train/adam.hpp"

#include <Eigen/Core>

#include <cmath>

#include "train/parameter_list.hpp"

namespace sawtag::train {

bool decays(const std::string& tensor_name) {
  const std::string suffix = ".weight";
  return tensor_name.size() > suffix.size() &&
         tensor_name.compare(tensor_name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void adam_update(const AdamOptions& options, std::int64_t step, float learning_rate, bool decay,
                 std::size_t size, TensorData& weights, const TensorData& gradient,
                 TensorData& first_moment, TensorData& second_moment) {
  using Array = Eigen::Array<float, Eigen::Dynamic, 1>;
  using ArrayMap = Eigen::Map<Array>;
  const double t = static_cast<double>(step);
  const float first_scale = static_cast<float>(1.0 / (1.0 - std::pow(options.beta1, t)));
  const float second_scale = static_cast<float>(1.0 / (1.0 - std::pow(options.beta2, t)));
  const auto count = static_cast<Eigen::Index>(size);
  ArrayMap w(weights.data(), count);
  const Eigen::Map<const Array> g(gradient.data(), count);
  ArrayMap m(first_moment.data(), count);
  ArrayMap v(second_moment.data(), count);
  const float weight_decay = decay ? options.weight_decay : 0.0f;
  // Vectorised; the same arithmetic as the formula in adam.hpp.
  m = options.beta1 * m + (1.0f - options.beta1) * g;
  v = options.beta2 * v + (1.0f - options.beta2) * g.square();
  w -= learning_rate *
       ((m * first_scale) / ((v * second_scale).sqrt() + options.epsilon) + weight_decay * w);
}

AdamW::AdamW(const ModelConfig& config, AdamOptions options)
    : config_(config),
      options_(options),
      first_moments_(zero_parameters(config)),
      second_moments_(zero_parameters(config)) {}

void AdamW::step(Parameters& weights, const Parameters& gradients, float learning_rate,
                 const TrainableSizes& sizes) {
  step(weights, gradients, learning_rate, sizes, LearningRateFactors(sizes.size(), 1.0f));
}

void AdamW::step(Parameters& weights, const Parameters& gradients, float learning_rate,
                 const TrainableSizes& sizes, const LearningRateFactors& factors) {
  ++steps_;
  const auto weight_list = parameter_list(weights, config_);
  const auto gradient_list = parameter_list(gradients, config_);
  const auto first_list = parameter_list(first_moments_, config_);
  const auto second_list = parameter_list(second_moments_, config_);
  for (std::size_t i = 0; i < weight_list.size(); ++i) {
    adam_update(options_, steps_, learning_rate * factors[i], decays(weight_list[i].name), sizes[i],
                weight_list[i].tensor->data, gradient_list[i].tensor->data,
                first_list[i].tensor->data, second_list[i].tensor->data);
  }
}

}  // namespace sawtag::train
