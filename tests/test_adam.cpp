#include <catch2/catch.hpp>

#include <cmath>

#include "fixtures.hpp"
#include "train/adam.hpp"
#include "train/parameter_list.hpp"
#include "train/schedule.hpp"

namespace sawtag {

TEST_CASE("AdamW's first step equals its closed form", "[adam]") {
  const Model model = testing::make_random_model();
  const ModelConfig& config = model.config;
  Parameters weights = model.parameters;
  Parameters gradients = testing::make_random_model(config, 7).parameters;
  const train::AdamOptions options{0.9f, 0.98f, 1e-8f, 0.01f};
  train::AdamW adam(config, options);
  const float learning_rate = 0.002f;
  adam.step(weights, gradients, learning_rate,
            train::trainable_sizes(weights, config, static_cast<std::size_t>(config.word_vocab_size)));

  // After one step the bias-corrected moments are g and g^2, so every weight moves by
  // lr * g / (|g| + eps) (a step of lr against the gradient's sign) plus lr * decay * w.
  const auto before = train::parameter_list(model.parameters, config);
  const auto after = train::parameter_list(weights, config);
  const auto grads = train::parameter_list(gradients, config);
  for (std::size_t i = 0; i < before.size(); ++i) {
    const double decay = train::decays(before[i].name) ? options.weight_decay : 0.0;
    for (std::size_t k = 0; k < before[i].tensor->data.size(); ++k) {
      const double w = before[i].tensor->data[k];
      const double g = grads[i].tensor->data[k];
      const double expected = w - learning_rate * (g / (std::abs(g) + 1e-8) + decay * w);
      INFO(before[i].name << "[" << k << "]");
      REQUIRE(after[i].tensor->data[k] == Approx(expected).margin(1e-6));
    }
  }
  REQUIRE(adam.steps() == 1);
}

TEST_CASE("AdamW: the encoder's tensors step with their learning-rate factor", "[adam]") {
  const Model model = testing::make_random_model();
  const ModelConfig& config = model.config;
  Parameters weights = model.parameters;
  const Parameters gradients = testing::make_random_model(config, 7).parameters;
  const train::AdamOptions options{0.9f, 0.98f, 1e-8f, 0.0f};
  train::AdamW adam(config, options);
  const float learning_rate = 0.002f;
  const float encoder_factor = 0.25f;
  const auto sizes =
      train::trainable_sizes(weights, config, static_cast<std::size_t>(config.word_vocab_size));
  adam.step(weights, gradients, learning_rate, sizes,
            train::learning_rate_factors(weights, config, encoder_factor));
  // First step, no decay: each weight moves by its tensor's rate against the gradient's sign.
  const auto before = train::parameter_list(model.parameters, config);
  const auto after = train::parameter_list(weights, config);
  const auto grads = train::parameter_list(gradients, config);
  int heads = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    const bool head = before[i].name.rfind("heads.", 0) == 0;
    heads += head ? 1 : 0;
    const double rate = head ? learning_rate : learning_rate * encoder_factor;
    for (std::size_t k = 0; k < before[i].tensor->data.size(); ++k) {
      const double g = grads[i].tensor->data[k];
      INFO(before[i].name << "[" << k << "]");
      REQUIRE(after[i].tensor->data[k] ==
              Approx(before[i].tensor->data[k] - rate * g / (std::abs(g) + 1e-8)).margin(1e-7));
    }
  }
  CHECK(heads == 4);  // upos and xpos, weight and bias
}

TEST_CASE("AdamW leaves frozen word rows and their moments untouched", "[adam]") {
  const Model model = testing::make_random_model();
  const ModelConfig& config = model.config;
  Parameters weights = model.parameters;
  const Parameters gradients = testing::make_random_model(config, 7).parameters;
  train::AdamW adam(config, {0.9f, 0.98f, 1e-8f, 0.01f});
  const std::size_t first_frozen = 3;
  const auto sizes = train::trainable_sizes(weights, config, first_frozen);
  adam.step(weights, gradients, 0.002f, sizes);
  adam.step(weights, gradients, 0.002f, sizes);
  const TensorData& before = model.parameters.encoder.word_embedding.data;
  const TensorData& after = weights.encoder.word_embedding.data;
  const TensorData& moments = adam.second_moments().encoder.word_embedding.data;
  const std::size_t boundary = first_frozen * static_cast<std::size_t>(config.word_dim);
  REQUIRE(boundary < before.size());
  for (std::size_t k = 0; k < before.size(); ++k) {
    INFO(k);
    if (k < boundary) {
      CHECK(after[k] != before[k]);
      CHECK(moments[k] > 0.0f);
    } else {
      CHECK(after[k] == before[k]);
      CHECK(moments[k] == 0.0f);
    }
  }
  // Every other tensor is trainable in full.
  const auto list = train::parameter_list(weights, config);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].tensor == &weights.encoder.word_embedding) continue;
    CHECK(sizes[i] == list[i].tensor->data.size());
  }
}

TEST_CASE("Weight decay applies to linear weights only", "[adam]") {
  CHECK(train::decays("encoder.layers.0.attention.query.weight"));
  CHECK(train::decays("heads.upos.weight"));
  CHECK_FALSE(train::decays("heads.upos.bias"));
  CHECK_FALSE(train::decays("encoder.word_embedding"));
  CHECK_FALSE(train::decays("encoder.final_norm.gamma"));
  CHECK_FALSE(train::decays("encoder.layers.0.attention.relative_bias"));
}

TEST_CASE("The learning rate warms up linearly, then decays as a cosine to zero", "[adam]") {
  const float peak = 0.002f;
  CHECK(train::scheduled_learning_rate(peak, 1, 400, 2000) == Approx(peak / 400));
  CHECK(train::scheduled_learning_rate(peak, 200, 400, 2000) == Approx(peak / 2));
  CHECK(train::scheduled_learning_rate(peak, 400, 400, 2000) == Approx(peak));
  CHECK(train::scheduled_learning_rate(peak, 1200, 400, 2000) == Approx(peak / 2));
  CHECK(train::scheduled_learning_rate(peak, 2000, 400, 2000) == Approx(0.0).margin(1e-12));
  CHECK(train::scheduled_learning_rate(peak, 5, 0, 10) ==
        Approx(peak * 0.5 * (1 + std::cos(M_PI * 0.5))));
}

}  // namespace sawtag
