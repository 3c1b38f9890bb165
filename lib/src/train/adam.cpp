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

AdamW::AdamW(const ModelConfig& config, AdamOptions options)
    : config_(config),
      options_(options),
      first_moments_(zero_parameters(config)),
      second_moments_(zero_parameters(config)) {}

void AdamW::step(Parameters& weights, const Parameters& gradients, float learning_rate,
                 const TrainableSizes& sizes) {
  ++steps_;
  const double t = static_cast<double>(steps_);
  const float first_correction = static_cast<float>(1.0 - std::pow(options_.beta1, t));
  const float second_correction = static_cast<float>(1.0 - std::pow(options_.beta2, t));
  const auto weight_list = parameter_list(weights, config_);
  const auto gradient_list = parameter_list(gradients, config_);
  const auto first_list = parameter_list(first_moments_, config_);
  const auto second_list = parameter_list(second_moments_, config_);
  using Array = Eigen::Array<float, Eigen::Dynamic, 1>;
  using ArrayMap = Eigen::Map<Array>;
  const float first_scale = 1.0f / first_correction;
  const float second_scale = 1.0f / second_correction;
  for (std::size_t i = 0; i < weight_list.size(); ++i) {
    const auto size = static_cast<Eigen::Index>(sizes[i]);
    ArrayMap w(weight_list[i].tensor->data.data(), size);
    const Eigen::Map<const Array> g(gradient_list[i].tensor->data.data(), size);
    ArrayMap m(first_list[i].tensor->data.data(), size);
    ArrayMap v(second_list[i].tensor->data.data(), size);
    const float decay = decays(weight_list[i].name) ? options_.weight_decay : 0.0f;
    // Vectorised; the same arithmetic as the formula in adam.hpp.
    m = options_.beta1 * m + (1.0f - options_.beta1) * g;
    v = options_.beta2 * v + (1.0f - options_.beta2) * g.square();
    w -= learning_rate *
         ((m * first_scale) / ((v * second_scale).sqrt() + options_.epsilon) + decay * w);
  }
}

}  // namespace sawtag::train
