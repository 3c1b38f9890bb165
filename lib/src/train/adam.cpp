#include "train/adam.hpp"

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

void AdamW::step(Parameters& weights, const Parameters& gradients, float learning_rate) {
  ++steps_;
  const double t = static_cast<double>(steps_);
  const float first_correction = static_cast<float>(1.0 - std::pow(options_.beta1, t));
  const float second_correction = static_cast<float>(1.0 - std::pow(options_.beta2, t));
  const auto weight_list = parameter_list(weights, config_);
  const auto gradient_list = parameter_list(gradients, config_);
  const auto first_list = parameter_list(first_moments_, config_);
  const auto second_list = parameter_list(second_moments_, config_);
  for (std::size_t i = 0; i < weight_list.size(); ++i) {
    TensorData& w = weight_list[i].tensor->data;
    const TensorData& g = gradient_list[i].tensor->data;
    TensorData& m = first_list[i].tensor->data;
    TensorData& v = second_list[i].tensor->data;
    const float decay = decays(weight_list[i].name) ? options_.weight_decay : 0.0f;
    for (std::size_t k = 0; k < w.size(); ++k) {
      m[k] = options_.beta1 * m[k] + (1.0f - options_.beta1) * g[k];
      v[k] = options_.beta2 * v[k] + (1.0f - options_.beta2) * g[k] * g[k];
      const float m_hat = m[k] / first_correction;
      const float v_hat = v[k] / second_correction;
      w[k] -= learning_rate * (m_hat / (std::sqrt(v_hat) + options_.epsilon) + decay * w[k]);
    }
  }
}

}  // namespace sawtag::train
