// AdamW (Loshchilov & Hutter): Adam with bias correction and decoupled weight decay.
#pragma once

#include <cstdint>

#include "sawtag/parameters.hpp"
#include "train/parameter_list.hpp"

namespace sawtag::train {

struct AdamOptions {
  float beta1 = 0.9f;
  float beta2 = 0.98f;
  float epsilon = 1e-8f;
  float weight_decay = 0.01f;  // applied to linear weights only, not biases, norms, embeddings
};

// Owns the moment estimates; the weights and gradients are passed to step().
class AdamW {
 public:
  AdamW(const ModelConfig& config, AdamOptions options);

  // One update with the learning rate of this step:
  //   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2;  t += 1
  //   w -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps) + lr * weight_decay * w
  // Only the trainable elements (`sizes`, see parameter_list.hpp) are read and changed; the
  // frozen ones keep zero moments, as they would with a zero gradient.
  void step(Parameters& weights, const Parameters& gradients, float learning_rate,
            const TrainableSizes& sizes);
  // The same, tensor i with learning_rate * factors[i] (see learning_rate_factors).
  void step(Parameters& weights, const Parameters& gradients, float learning_rate,
            const TrainableSizes& sizes, const LearningRateFactors& factors);

  std::int64_t steps() const { return steps_; }

  // For checkpoints.
  Parameters& first_moments() { return first_moments_; }
  Parameters& second_moments() { return second_moments_; }
  void set_steps(std::int64_t steps) { steps_ = steps; }

 private:
  ModelConfig config_;
  AdamOptions options_;
  Parameters first_moments_;
  Parameters second_moments_;
  std::int64_t steps_ = 0;
};

// One AdamW update of the first `size` elements of `weights` (the formula of AdamW::step, at
// optimiser step `step`, 1-based), for tensors outside a Parameters (a pre-training head).
void adam_update(const AdamOptions& options, std::int64_t step, float learning_rate, bool decay,
                 std::size_t size, TensorData& weights, const TensorData& gradient,
                 TensorData& first_moment, TensorData& second_moment);

// Whether weight decay applies to the tensor of this name (linear weights only).
bool decays(const std::string& tensor_name);

}  // namespace sawtag::train
