// Attention worked out by hand: a 1-layer, 1-head model with d_model = 2 on "i saw".
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

#include "fixtures.hpp"
#include "nn/attention.hpp"
#include "nn/network.hpp"
#include "sawtag/features.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {
namespace {

void set(Tensor& tensor, std::initializer_list<float> values) {
  REQUIRE(tensor.data.size() == values.size());
  std::copy(values.begin(), values.end(), tensor.data.begin());
}

// Every weight is zero except those set below, so only the word embeddings, the positions,
// attention and the norms shape the result:
//   config: d_model 2, 1 head (d_k = 2), 1 layer, layer_norm_epsilon 0.75 (large on purpose:
//   with d = 2 a small epsilon would normalise every row to +-(1, -1) and hide the attention).
//   chars and shapes: zero embeddings and convolutions -> char features ReLU(0) = 0.
//   input_projection: the identity on the 2 word-embedding columns, zero elsewhere.
//   positions: e_0 = (sin 0, cos 0) = (0, 1), e_1 = (sin 1, cos 1) = (0.841471, 0.540302).
//   word_embedding["i"] = (2, 0), word_embedding["saw"] = (1 - sin 1, 2 - cos 1), so
//   x_0 = (2, 1), x_1 = (1, 2).
Model hand_model() {
  ModelConfig config = testing::tiny_config();
  config.word_dim = 2;
  config.char_dim = 1;
  config.char_widths = {1};
  config.char_filters = 1;
  config.shape_dim = 1;
  config.d_model = 2;
  config.num_heads = 1;
  config.num_layers = 1;
  config.d_ff = 1;
  config.relative_position = true;
  config.max_relative_distance = 1;
  config.layer_norm_epsilon = 0.75f;
  Model model = testing::make_random_model(config, 7);
  for_each_parameter(model.parameters, model.config, [](const std::string&, Tensor& tensor,
                                                        const Shape&) {
    std::fill(tensor.data.begin(), tensor.data.end(), 0.0f);
  });
  EncoderParameters& encoder = model.parameters.encoder;
  const int id_i = model.words.find("i");
  const int id_saw = model.words.find("saw");
  encoder.word_embedding.data[static_cast<std::size_t>(id_i) * 2 + 0] = 2.0f;
  encoder.word_embedding.data[static_cast<std::size_t>(id_i) * 2 + 1] = 0.0f;
  encoder.word_embedding.data[static_cast<std::size_t>(id_saw) * 2 + 0] =
      static_cast<float>(1.0 - std::sin(1.0));
  encoder.word_embedding.data[static_cast<std::size_t>(id_saw) * 2 + 1] =
      static_cast<float>(2.0 - std::cos(1.0));
  // input_projection.weight: [input_dim = 2 + 1 + 1, 2]
  set(encoder.input_projection.weight, {1, 0, 0, 1, 0, 0, 0, 0});

  EncoderLayerParameters& layer = encoder.layers[0];
  set(layer.attention_norm.gamma, {1, 1});
  set(layer.feed_forward_norm.gamma, {1, 1});
  set(encoder.final_norm.gamma, {1, 1});
  set(layer.attention.query.weight, {2, 0, 0, 2});     // W_q = 2 I
  set(layer.attention.key.weight, {0, 1, 1, 0});       // W_k swaps the two columns
  set(layer.attention.value.weight, {1, 0, 0, 3});     // W_v = diag(1, 3)
  set(layer.attention.output.weight, {1, 0, 0, 1});    // W_o = I
  set(layer.attention.output.bias, {0, 0.25f});        // b_o = (0, 0.25)
  // relative_bias[0] = (b(j - i = -1), b(0), b(+1))
  set(layer.attention.relative_bias, {0.5f, 0, -1});
  // The feed-forward network stays all zero: it adds 0 to the residual stream.

  // heads.upos: logit 0 = h_0, logit 1 = h_1, logit 2 = 0.5 (bias), the rest 0.
  // heads.xpos: logit 0 = 2 h_0, the rest 0.
  Tensor& upos_weight = model.parameters.heads.upos.weight;  // [2, 17]
  upos_weight.data[0 * 17 + 0] = 1.0f;
  upos_weight.data[1 * 17 + 1] = 1.0f;
  model.parameters.heads.upos.bias.data[2] = 0.5f;
  model.parameters.heads.xpos.weight.data[0] = 2.0f;
  return model;
}

// By hand:
//   attention_norm (mean, variance, epsilon 0.75):
//     x_0 = (2, 1): mean 1.5, variance 0.25, sqrt(0.25 + 0.75) = 1 -> u_0 = (0.5, -0.5)
//     x_1 = (1, 2):                                               -> u_1 = (-0.5, 0.5)
//   q = 2u:           q_0 = (1, -1),      q_1 = (-1, 1)
//   k = u swapped:    k_0 = (-0.5, 0.5),  k_1 = (0.5, -0.5)
//   v = u diag(1,3):  v_0 = (0.5, -1.5),  v_1 = (-0.5, 1.5)
//   q.k / sqrt 2:  q_0.k_0 = -1, q_0.k_1 = 1, q_1.k_0 = 1, q_1.k_1 = -1  -> +-0.707107
//   + bias:  s_00 = -0.707107 + b(0)  = -0.707107    s_01 = 0.707107 + b(+1) = -0.292893
//            s_10 =  0.707107 + b(-1) =  1.207107    s_11 = -0.707107 + b(0) = -0.707107
//   softmax of two: alpha_01 = sigmoid(s_01 - s_00) = sigmoid(0.414214) = 0.602098
//                   alpha_00 = 0.397902
//                   alpha_10 = sigmoid(s_10 - s_11) = sigmoid(1.914214) = 0.871492
//                   alpha_11 = 0.128508
//   head_0 = 0.397902 v_0 + 0.602098 v_1 = -0.204196 (0.5, -1.5) = (-0.102098, 0.306293)
//   head_1 = 0.871492 v_0 + 0.128508 v_1 =  0.742984 (0.5, -1.5) = ( 0.371492, -1.114475)
//   + b_o:  a_0 = (-0.102098, 0.556293),  a_1 = (0.371492, -0.864475)
//   residual: y_0 = x_0 + a_0 = (1.897902, 1.556293),  y_1 = (1.371492, 1.135525)
//   feed-forward adds 0. final_norm:
//     y_0: half difference 0.170805, variance 0.029174, sqrt(0.779174) = 0.882708
//          -> h_0 = (0.193500, -0.193500)
//     y_1: half difference 0.117983, variance 0.013920, sqrt(0.763920) = 0.874025
//          -> h_1 = (0.134989, -0.134989)
//   upos logits: word 0 (0.193500, -0.193500, 0.5, 0...), word 1 (0.134989, -0.134989, 0.5, 0...)
//   xpos logit 0: 2 h_0[0] = 0.387001 and 0.269977.
TEST_CASE("attention and logits of a 2-word input match a hand computation", "[nn]") {
  const Model model = hand_model();
  const std::vector<WordFeatures> words = {word_features(model, "i"),
                                           word_features(model, "saw")};
  nn::ForwardOptions options;
  options.capture_attention = true;
  const nn::NetworkOutput output =
      nn::network_forward(model.parameters, model.config, words, options, nullptr);

  REQUIRE(output.attention.size() == 1);
  const nn::Matrix& alpha = output.attention[0];
  CHECK(alpha(0, 0) == Approx(0.3979022196).margin(1e-5));
  CHECK(alpha(0, 1) == Approx(0.6020977804).margin(1e-5));
  CHECK(alpha(1, 0) == Approx(0.8714917801).margin(1e-5));
  CHECK(alpha(1, 1) == Approx(0.1285082199).margin(1e-5));

  REQUIRE(output.upos_logits.rows() == 2);
  REQUIRE(output.upos_logits.cols() == 17);
  CHECK(output.upos_logits(0, 0) == Approx(0.1935004075).margin(1e-5));
  CHECK(output.upos_logits(0, 1) == Approx(-0.1935004075).margin(1e-5));
  CHECK(output.upos_logits(0, 2) == Approx(0.5).margin(1e-5));
  CHECK(output.upos_logits(1, 0) == Approx(0.1349887334).margin(1e-5));
  CHECK(output.upos_logits(1, 1) == Approx(-0.1349887334).margin(1e-5));
  CHECK(output.upos_logits(1, 2) == Approx(0.5).margin(1e-5));
  for (int c = 3; c < 17; ++c) {
    CHECK(output.upos_logits(0, c) == Approx(0.0).margin(1e-6));
    CHECK(output.upos_logits(1, c) == Approx(0.0).margin(1e-6));
  }
  CHECK(output.xpos_logits(0, 0) == Approx(0.3870008151).margin(1e-5));
  CHECK(output.xpos_logits(1, 0) == Approx(0.2699774668).margin(1e-5));
}

TEST_CASE("the attention op alone matches the hand computation", "[nn]") {
  const Model model = hand_model();
  nn::Matrix normalized(2, 2);
  normalized << 0.5f, -0.5f, -0.5f, 0.5f;  // u_0, u_1 from the computation above
  nn::AttentionCache cache;
  const nn::Matrix a = nn::attention_forward(model.parameters.encoder.layers[0].attention,
                                             model.config, normalized, &cache);
  CHECK(a(0, 0) == Approx(-0.1020977804).margin(1e-5));
  CHECK(a(0, 1) == Approx(0.5562933412).margin(1e-5));
  CHECK(a(1, 0) == Approx(0.3714917801).margin(1e-5));
  CHECK(a(1, 1) == Approx(-0.8644753402).margin(1e-5));
  REQUIRE(cache.probabilities.size() == 1);
  CHECK(cache.probabilities[0](1, 0) == Approx(0.8714917801).margin(1e-5));
}

TEST_CASE("the Tagger reports the same attention in the AttentionMaps layout", "[nn]") {
  const Tagger tagger(std::make_shared<const Model>(hand_model()));
  TagOptions options;
  options.capture_attention = true;
  const TagResult result = tagger.tag({"i", "saw"}, options);
  REQUIRE(result.attention.num_layers == 1);
  REQUIRE(result.attention.num_heads == 1);
  REQUIRE(result.attention.num_words == 2);
  REQUIRE(result.attention.weights.size() == 4);
  CHECK(result.attention.at(0, 0, 0, 1) == Approx(0.6020977804).margin(1e-5));
  CHECK(result.attention.at(0, 0, 1, 0) == Approx(0.8714917801).margin(1e-5));
  // Word 0's UPOS logits are (0.1935, -0.1935, 0.5, 0, ...): tag 2 (ADV) wins.
  REQUIRE(result.words.size() == 2);
  CHECK(result.words[0].upos == "ADV");
  // p(ADV) = e^0.5 / (e^0.1935 + e^-0.1935 + e^0.5 + 14).
  const double expected = std::exp(0.5) / (std::exp(0.1935004075) + std::exp(-0.1935004075) +
                                          std::exp(0.5) + 14.0);
  CHECK(result.words[0].upos_probability == Approx(expected).margin(1e-5));
}

}  // namespace
}  // namespace sawtag
