#include "sawtag/initialize.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace sawtag {

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void initialize_parameters(Parameters& parameters, const ModelConfig& config, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  constexpr float kEmbeddingDeviation = 0.1f;
  for_each_parameter(parameters, config, [&](const std::string& name, Tensor& tensor,
                                             const Shape& shape) {
    tensor = Tensor(shape);
    if (ends_with(name, ".gamma")) {
      std::fill(tensor.data.begin(), tensor.data.end(), 1.0f);
    } else if (ends_with(name, "_embedding")) {
      std::normal_distribution<float> normal(0.0f, kEmbeddingDeviation);
      for (float& value : tensor.data) value = normal(random);
    } else if (ends_with(name, ".weight") && shape.size() == 2) {
      const double limit = std::sqrt(6.0 / static_cast<double>(shape[0] + shape[1]));
      std::uniform_real_distribution<float> uniform(static_cast<float>(-limit),
                                                    static_cast<float>(limit));
      for (float& value : tensor.data) value = uniform(random);
    }
    // Biases, layer-norm betas and relative-position biases stay 0.
  });
}

}  // namespace sawtag
