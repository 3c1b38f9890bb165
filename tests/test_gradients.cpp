// Finite-difference checks of every backward pass and of the whole model's loss.
//
// Precision: the library computes in float32 (it is not templated on the scalar type), so these
// checks perturb float weights and compare with CENTRAL differences,
// (L(w + h) - L(w - h)) / (2h) with h = 3e-3 (the actual float step is the divisor), the losses
// being summed in double. Measured on these models, rounding noise and truncation error leave
// analytic and numeric gradients within about 3e-4 of each other (h = 1e-3 doubles the noise;
// h = 1e-2 is as accurate but more likely to cross a ReLU or max-pool kink). They must agree
// to |a - g| <= kAbsolute + kRelative * max(|a|, |g|) with kAbsolute = 2e-3 and
// kRelative = 2e-2: several times the noise, and far below what a real bug gives (a wrong sign,
// a missing term or a transposed index is off by the size of the gradient; scaling one term of
// the layer-norm backward by 0.9 already fails dozens of checks).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "nn/attention.hpp"
#include "nn/embedding.hpp"
#include "nn/feed_forward.hpp"
#include "nn/layer_norm.hpp"
#include "nn/linear.hpp"
#include "nn/loss.hpp"
#include "nn/network.hpp"
#include "sawtag/error.hpp"
#include "sawtag/features.hpp"

namespace sawtag {
namespace {

using nn::Matrix;

constexpr double kStep = 3e-3;
constexpr double kAbsolute = 2e-3;
constexpr double kRelative = 2e-2;

Matrix random_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& random,
                     float scale = 1.0f) {
  std::uniform_real_distribution<float> uniform(-scale, scale);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = uniform(random);
  return m;
}

// sum(weights * y) in double: a scalar loss whose gradient with respect to y is `weights`.
double weighted_sum(const Matrix& y, const Matrix& weights) {
  REQUIRE(y.rows() == weights.rows());
  REQUIRE(y.cols() == weights.cols());
  double sum = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) sum += double{y.data()[i]} * weights.data()[i];
  return sum;
}

// Compares analytic[k] with the central difference of `loss` in values[k], for every k when
// there are at most `max_samples` elements, else for a sample: half drawn among the elements
// with a non-zero analytic gradient (embedding rows actually used), half uniformly.
void check_gradient(const std::string& name, float* values, const float* analytic,
                    std::size_t size, const std::function<double()>& loss,
                    std::size_t max_samples = 12) {
  std::vector<std::size_t> indices;
  if (size <= max_samples) {
    for (std::size_t k = 0; k < size; ++k) indices.push_back(k);
  } else {
    std::mt19937_64 random(size * 7919 + name.size());
    std::vector<std::size_t> nonzero;
    for (std::size_t k = 0; k < size; ++k) {
      if (analytic[k] != 0.0f) nonzero.push_back(k);
    }
    std::shuffle(nonzero.begin(), nonzero.end(), random);
    for (std::size_t k = 0; k < nonzero.size() && k < max_samples / 2; ++k) {
      indices.push_back(nonzero[k]);
    }
    std::uniform_int_distribution<std::size_t> any(0, size - 1);
    while (indices.size() < max_samples) indices.push_back(any(random));
  }
  for (std::size_t k : indices) {
    const float saved = values[k];
    const float plus_value = static_cast<float>(saved + kStep);
    const float minus_value = static_cast<float>(saved - kStep);
    values[k] = plus_value;
    const double plus = loss();
    values[k] = minus_value;
    const double minus = loss();
    values[k] = saved;
    const double numeric = (plus - minus) / (double{plus_value} - double{minus_value});
    const double difference = std::abs(numeric - analytic[k]);
    INFO(name << "[" << k << "]: analytic " << analytic[k] << ", numeric " << numeric);
    CHECK(difference <= kAbsolute + kRelative * std::max(std::abs(numeric),
                                                         std::abs(double{analytic[k]})));
  }
}

void check_tensor(const std::string& name, Tensor& values, const Tensor& analytic,
                  const std::function<double()>& loss, std::size_t max_samples = 12) {
  REQUIRE(values.data.size() == analytic.data.size());
  check_gradient(name, values.data.data(), analytic.data.data(), values.data.size(), loss,
                 max_samples);
}

void check_matrix(const std::string& name, Matrix& values, const Matrix& analytic,
                  const std::function<double()>& loss) {
  REQUIRE(values.size() == analytic.size());
  check_gradient(name, values.data(), analytic.data(), static_cast<std::size_t>(values.size()),
                 loss);
}

// All tensors of `parameters` and `gradients` side by side, named.
struct TensorPair {
  std::string name;
  Tensor* value;
  const Tensor* gradient;
};
std::vector<TensorPair> tensor_pairs(Parameters& parameters, Parameters& gradients,
                                     const ModelConfig& config) {
  std::vector<TensorPair> pairs;
  for_each_parameter(parameters, config, [&](const std::string& name, Tensor& tensor,
                                             const Shape&) {
    pairs.push_back({name, &tensor, nullptr});
  });
  std::size_t k = 0;
  for_each_parameter(gradients, config, [&](const std::string&, Tensor& tensor, const Shape&) {
    pairs.at(k++).gradient = &tensor;
  });
  REQUIRE(k == pairs.size());
  return pairs;
}

TEST_CASE("linear backward", "[gradients]") {
  std::mt19937_64 random(11);
  Model model = testing::make_random_model();
  LinearParameters& linear = model.parameters.encoder.layers[0].feed_forward.hidden;  // [8, 12]
  Matrix x = random_matrix(3, 8, random);
  const Matrix weights = random_matrix(3, 12, random);
  const auto loss = [&] { return weighted_sum(nn::linear_forward(linear, x), weights); };
  LinearParameters gradients{Tensor(linear.weight.shape), Tensor(linear.bias.shape)};
  const Matrix d_x = nn::linear_backward(linear, x, weights, gradients);
  check_tensor("weight", linear.weight, gradients.weight, loss, 200);
  check_tensor("bias", linear.bias, gradients.bias, loss);
  Matrix d_x_copy = d_x;
  check_matrix("x", x, d_x_copy, loss);
}

TEST_CASE("layer norm backward", "[gradients]") {
  std::mt19937_64 random(12);
  Model model = testing::make_random_model();
  LayerNormParameters& norm = model.parameters.encoder.layers[0].attention_norm;
  Matrix x = random_matrix(4, 8, random, 2.0f);
  const Matrix weights = random_matrix(4, 8, random);
  const float epsilon = model.config.layer_norm_epsilon;
  const auto loss = [&] {
    return weighted_sum(nn::layer_norm_forward(norm, x, epsilon, nullptr), weights);
  };
  nn::LayerNormCache cache;
  nn::layer_norm_forward(norm, x, epsilon, &cache);
  LayerNormParameters gradients{Tensor(norm.gamma.shape), Tensor(norm.beta.shape)};
  const Matrix d_x = nn::layer_norm_backward(norm, cache, weights, gradients);
  check_tensor("gamma", norm.gamma, gradients.gamma, loss);
  check_tensor("beta", norm.beta, gradients.beta, loss);
  check_matrix("x", x, d_x, loss);
}

TEST_CASE("attention backward, relative bias included", "[gradients]") {
  std::mt19937_64 random(13);
  Model model = testing::make_random_model();  // 2 heads, d_model 8, max distance 3
  AttentionParameters& attention = model.parameters.encoder.layers[1].attention;
  Matrix x = random_matrix(6, 8, random);  // 6 words: distances up to 5 reach the clip
  const Matrix weights = random_matrix(6, 8, random);
  const auto loss = [&] {
    return weighted_sum(nn::attention_forward(attention, model.config, x, nullptr), weights);
  };
  nn::AttentionCache cache;
  nn::attention_forward(attention, model.config, x, &cache);
  Parameters all_gradients = zero_parameters(model.config);
  AttentionParameters& gradients = all_gradients.encoder.layers[1].attention;
  const Matrix d_x = nn::attention_backward(attention, model.config, cache, weights, gradients);
  for (auto [name, value, gradient] :
       {std::tuple{"query", &attention.query, &gradients.query},
        std::tuple{"key", &attention.key, &gradients.key},
        std::tuple{"value", &attention.value, &gradients.value},
        std::tuple{"output", &attention.output, &gradients.output}}) {
    check_tensor(std::string(name) + ".weight", value->weight, gradient->weight, loss, 20);
    check_tensor(std::string(name) + ".bias", value->bias, gradient->bias, loss);
  }
  check_tensor("relative_bias", attention.relative_bias, gradients.relative_bias, loss, 14);
  check_matrix("x", x, d_x, loss);
}

TEST_CASE("feed-forward backward with GELU", "[gradients]") {
  std::mt19937_64 random(14);
  Model model = testing::make_random_model();
  FeedForwardParameters& feed_forward = model.parameters.encoder.layers[0].feed_forward;
  Matrix x = random_matrix(3, 8, random, 2.0f);
  const Matrix weights = random_matrix(3, 8, random);
  const auto loss = [&] {
    return weighted_sum(nn::feed_forward_forward(feed_forward, x, nullptr), weights);
  };
  nn::FeedForwardCache cache;
  nn::feed_forward_forward(feed_forward, x, &cache);
  Parameters all_gradients = zero_parameters(model.config);
  FeedForwardParameters& gradients = all_gradients.encoder.layers[0].feed_forward;
  const Matrix d_x = nn::feed_forward_backward(feed_forward, cache, weights, gradients);
  check_tensor("hidden.weight", feed_forward.hidden.weight, gradients.hidden.weight, loss, 20);
  check_tensor("hidden.bias", feed_forward.hidden.bias, gradients.hidden.bias, loss);
  check_tensor("output.weight", feed_forward.output.weight, gradients.output.weight, loss, 20);
  check_tensor("output.bias", feed_forward.output.bias, gradients.output.bias, loss);
  check_matrix("x", x, d_x, loss);
}

// The embedding of `forms` under the loss sum(weights * x), weights random from `seed`: the
// loss as a function of model's current weights, and its analytic gradient.
struct EmbeddingLoss {
  std::function<double()> loss;
  Parameters gradients;
};
EmbeddingLoss embedding_loss(const Model& model, const std::vector<std::string>& forms,
                             std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<WordFeatures> words;
  for (const std::string& form : forms) words.push_back(word_features(model, form));
  const Matrix weights =
      random_matrix(static_cast<Eigen::Index>(words.size()), model.config.d_model, random);
  EmbeddingLoss result;
  result.loss = [&model, words, weights] {
    return weighted_sum(
        nn::embedding_forward(model.parameters.encoder, model.config, words, nullptr), weights);
  };
  nn::EmbeddingCache cache;
  nn::embedding_forward(model.parameters.encoder, model.config, words, &cache);
  result.gradients = zero_parameters(model.config);
  nn::embedding_backward(model.parameters.encoder, model.config, cache, weights,
                         result.gradients.encoder);
  return result;
}

TEST_CASE("embedding backward: word, char CNN, shape, projection", "[gradients]") {
  Model model = testing::make_random_model();
  EncoderParameters& encoder = model.parameters.encoder;
  const auto [loss, gradients] =
      embedding_loss(model, {"I", "saw", "Seattle", "a", "dog", "!"}, 15);
  check_tensor("word_embedding", encoder.word_embedding, gradients.encoder.word_embedding, loss, 24);
  check_tensor("char_embedding", encoder.char_embedding, gradients.encoder.char_embedding, loss, 40);
  for (std::size_t c = 0; c < encoder.char_convolutions.size(); ++c) {
    check_tensor("char_convolutions.weight", encoder.char_convolutions[c].weight,
                 gradients.encoder.char_convolutions[c].weight, loss, 24);
    check_tensor("char_convolutions.bias", encoder.char_convolutions[c].bias,
                 gradients.encoder.char_convolutions[c].bias, loss);
  }
  check_tensor("shape_embedding", encoder.shape_embedding, gradients.encoder.shape_embedding, loss, 24);
  check_tensor("input_projection.weight", encoder.input_projection.weight,
               gradients.encoder.input_projection.weight, loss, 30);
  check_tensor("input_projection.bias", encoder.input_projection.bias,
               gradients.encoder.input_projection.bias, loss);
  // Unused rows get no gradient at all.
  const int unused_word = model.words.find("the");
  for (int c = 0; c < model.config.word_dim; ++c) {
    CHECK(gradients.encoder.word_embedding.data[static_cast<std::size_t>(unused_word * model.config.word_dim + c)] == 0.0f);
  }
}

TEST_CASE("embedding backward: first- and last-character embeddings", "[gradients]") {
  ModelConfig config = testing::tiny_config();
  config.edge_char_dim = 2;
  Model model = testing::make_random_model(config, 3);
  EncoderParameters& encoder = model.parameters.encoder;
  // "saw" and "was" share their characters but not their edges; "a" is both edges; "" is the
  // masked word.
  const auto [loss, gradients] =
      embedding_loss(model, {"saw", "was", "a", "", "internationalization"}, 16);
  check_tensor("first_char_embedding", encoder.first_char_embedding,
               gradients.encoder.first_char_embedding, loss, 24);
  check_tensor("last_char_embedding", encoder.last_char_embedding,
               gradients.encoder.last_char_embedding, loss, 24);
  check_tensor("input_projection.weight", encoder.input_projection.weight,
               gradients.encoder.input_projection.weight, loss, 30);
  // Only the rows of the words' edges get gradient: 'w' ends "saw" but starts none.
  const auto row_touched = [&](const Tensor& gradient, int row) {
    for (int c = 0; c < config.edge_char_dim; ++c) {
      if (gradient.data[static_cast<std::size_t>(row * config.edge_char_dim + c)] != 0.0f) {
        return true;
      }
    }
    return false;
  };
  const int w = model.chars.find("w");
  const int s = model.chars.find("s");
  CHECK(row_touched(gradients.encoder.first_char_embedding, w));  // "was"
  CHECK(row_touched(gradients.encoder.last_char_embedding, w));   // "saw"
  CHECK(row_touched(gradients.encoder.first_char_embedding, s));  // "saw"
  CHECK(row_touched(gradients.encoder.last_char_embedding, s));   // "was"
  CHECK_FALSE(row_touched(gradients.encoder.first_char_embedding, model.chars.find("z")));
  CHECK_FALSE(row_touched(gradients.encoder.last_char_embedding, model.chars.find("i")));
  CHECK(row_touched(gradients.encoder.first_char_embedding, model.chars.find("i")));
  CHECK(row_touched(gradients.encoder.last_char_embedding, model.chars.find("n")));
}

TEST_CASE("tagging loss: value and gradient, label smoothing, ignored targets", "[gradients]") {
  std::mt19937_64 random(16);
  Matrix logits = random_matrix(4, 5, random, 3.0f);
  const std::vector<int> targets = {2, -1, 0, 4};
  for (float smoothing : {0.0f, 0.1f}) {
    Matrix d_logits;
    const float value = nn::tagging_loss(logits, targets, smoothing, &d_logits);
    // By definition, in double.
    double expected = 0.0;
    for (int i : {0, 2, 3}) {
      double normalizer = 0.0;
      for (int c = 0; c < 5; ++c) normalizer += std::exp(double{logits(i, c)});
      for (int c = 0; c < 5; ++c) {
        const double q = smoothing / 5.0 + (c == targets[static_cast<std::size_t>(i)] ? 1.0 - smoothing : 0.0);
        expected -= q * (logits(i, c) - std::log(normalizer));
      }
    }
    CHECK(value == Approx(expected).epsilon(1e-6));
    for (int c = 0; c < 5; ++c) CHECK(d_logits(1, c) == 0.0f);  // ignored word
    check_matrix("logits", logits, d_logits, [&] {
      return double{nn::tagging_loss(logits, targets, smoothing, nullptr)};
    });
  }
  CHECK_THROWS_AS(nn::tagging_loss(logits, {0, 1, 5, 0}, 0.0f, nullptr), Error);
}

TEST_CASE("distillation loss: value and gradient at temperatures 1 and 2, words without targets",
          "[gradients][distillation]") {
  std::mt19937_64 random(17);
  Matrix logits = random_matrix(4, 5, random, 3.0f);
  // Word 0: three classes; word 1: none (ignored); word 2: one class; word 3: all five.
  nn::SparseDistributions targets;
  const std::vector<std::vector<std::pair<int, float>>> rows = {
      {{2, 0.7f}, {0, 0.2f}, {4, 0.1f}},
      {},
      {{1, 1.0f}},
      {{0, 0.1f}, {1, 0.2f}, {2, 0.3f}, {3, 0.25f}, {4, 0.15f}}};
  for (const auto& row : rows) {
    for (const auto& [tag, probability] : row) targets.add(tag, probability);
    targets.end_row();
  }
  for (float temperature : {1.0f, 2.0f}) {
    Matrix d_logits;
    const float value = nn::distillation_loss(logits, targets, temperature, &d_logits);
    // By definition, in double: T^2 sum_c q_c (log q_c - log softmax(z / T)_c).
    const double t = temperature;
    double expected = 0.0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      double normalizer = 0.0;
      for (int c = 0; c < 5; ++c) normalizer += std::exp(double{logits(static_cast<Eigen::Index>(i), c)} / t);
      for (const auto& [tag, q] : rows[i]) {
        const double log_p = logits(static_cast<Eigen::Index>(i), tag) / t - std::log(normalizer);
        expected += t * t * q * (std::log(double{q}) - log_p);
      }
    }
    CHECK(value == Approx(expected).epsilon(1e-6));
    for (int c = 0; c < 5; ++c) CHECK(d_logits(1, c) == 0.0f);  // a word without targets
    check_matrix("logits", logits, d_logits, [&] {
      return double{nn::distillation_loss(logits, targets, temperature, nullptr)};
    });
  }
  // The loss is 0 where the student's distribution is the teacher's.
  Matrix same(1, 3);
  same << 0.0f, std::log(2.0f), std::log(7.0f);
  nn::SparseDistributions teacher;
  teacher.add(0, 0.1f);
  teacher.add(1, 0.2f);
  teacher.add(2, 0.7f);
  teacher.end_row();
  CHECK(nn::distillation_loss(same, teacher, 1.0f, nullptr) == Approx(0.0).margin(1e-6));
  nn::SparseDistributions outside;
  outside.add(5, 1.0f);
  outside.end_row();
  CHECK_THROWS_AS(nn::distillation_loss(same, outside, 1.0f, nullptr), Error);
  CHECK_THROWS_AS(nn::distillation_loss(logits, teacher, 1.0f, nullptr), Error);  // 1 row for 4
}

// Summed cross-entropy with label smoothing, in double: what tagging_loss computes.
double cross_entropy(const Matrix& logits, const std::vector<int>& targets, double smoothing) {
  double total = 0.0;
  const Eigen::Index num_tags = logits.cols();
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const int target = targets[static_cast<std::size_t>(i)];
    if (target < 0) continue;
    double normalizer = 0.0;
    for (Eigen::Index c = 0; c < num_tags; ++c) normalizer += std::exp(double{logits(i, c)});
    for (Eigen::Index c = 0; c < num_tags; ++c) {
      const double q = smoothing / static_cast<double>(num_tags) + (c == target ? 1.0 - smoothing : 0.0);
      total -= q * (logits(i, c) - std::log(normalizer));
    }
  }
  return total;
}

// The whole model's loss (UPOS + XPOS cross-entropy with label smoothing) against every tensor,
// for one sentence or for a batch of sentences stacked in one matrix (each with its own
// dropout generator).
void check_whole_model(float dropout_rate, const std::vector<std::vector<std::string>>& sentences,
                       int edge_char_dim = 0) {
  ModelConfig config = testing::tiny_config();
  config.edge_char_dim = edge_char_dim;
  Model model = testing::make_random_model(config, 5);
  std::vector<WordFeatures> words;
  std::vector<int> lengths;
  for (const auto& sentence : sentences) {
    for (const std::string& word : sentence) words.push_back(word_features(model, word));
    lengths.push_back(static_cast<int>(sentence.size()));
  }
  const nn::Segments segments(lengths);
  std::vector<int> upos_targets;
  std::vector<int> xpos_targets;
  for (std::size_t i = 0; i < words.size(); ++i) {
    upos_targets.push_back(i % 6 == 5 ? -1 : static_cast<int>((i * 7 + 10) % 17));
    xpos_targets.push_back(static_cast<int>(i % 7));
  }
  constexpr float kSmoothing = 0.1f;
  constexpr std::uint64_t kDropoutSeed = 99;
  // The same seeds before every forward pass give the same dropout masks, so the loss is a
  // deterministic function of the weights even with dropout on.
  const auto forward = [&](nn::NetworkCache* cache) {
    std::vector<std::mt19937_64> generators;
    for (std::size_t s = 0; s < sentences.size(); ++s) generators.emplace_back(kDropoutSeed + s);
    nn::ForwardOptions options;
    options.dropout_rate = dropout_rate;
    for (auto& generator : generators) options.random.push_back(&generator);
    return nn::network_forward(model.parameters, model.config, words, segments, options, cache);
  };
  // The loss in double from the float logits (tagging_loss returns float, whose rounding at
  // a loss of ~30 would alone be ~1e-3 of a gradient here).
  const auto loss = [&] {
    const nn::NetworkOutput output = forward(nullptr);
    return cross_entropy(output.upos_logits, upos_targets, kSmoothing) +
           cross_entropy(output.xpos_logits, xpos_targets, kSmoothing);
  };
  nn::NetworkCache cache;
  const nn::NetworkOutput output = forward(&cache);
  Matrix d_upos, d_xpos;
  nn::tagging_loss(output.upos_logits, upos_targets, kSmoothing, &d_upos);
  nn::tagging_loss(output.xpos_logits, xpos_targets, kSmoothing, &d_xpos);
  Parameters gradients = zero_parameters(model.config);
  const Parameters weights_before = model.parameters;
  nn::network_backward(model.parameters, model.config, cache, d_upos, d_xpos, gradients);

  // Backward only writes gradients: every weight is bit-for-bit unchanged.
  std::vector<const TensorData*> before_data;
  for_each_parameter(weights_before, model.config,
                     [&](const std::string&, const Tensor& tensor, const Shape&) {
                       before_data.push_back(&tensor.data);
                     });
  std::size_t index = 0;
  for_each_parameter(static_cast<const Parameters&>(model.parameters), model.config,
                     [&](const std::string& name, const Tensor& tensor, const Shape&) {
                       INFO(name);
                       CHECK(tensor.data == *before_data.at(index++));
                     });

  int checked = 0;
  for (const TensorPair& pair : tensor_pairs(model.parameters, gradients, model.config)) {
    check_tensor(pair.name, *pair.value, *pair.gradient, loss, 8);
    ++checked;
  }
  CHECK(checked == 2 + 2 * 2 + 1 + (edge_char_dim > 0 ? 2 : 0) + 2 + 2 * (2 + 8 + 1 + 2 + 4) +
                       2 + 4);
}

const std::vector<std::string> kOneSentence = {"I", "saw", "a", "Dog", "do", "n't", "!"};

TEST_CASE("whole-model loss: every tensor against finite differences, dropout off",
          "[gradients]") {
  check_whole_model(0.0f, {kOneSentence});
}

TEST_CASE("whole-model loss with dropout masks held fixed", "[gradients]") {
  check_whole_model(0.3f, {kOneSentence});
}

TEST_CASE("whole-model loss of a batch of three sentences, with dropout", "[gradients]") {
  check_whole_model(0.3f, {kOneSentence, {"Seattle"}, {"Can", "you", "can", "a", "can", "?"}});
}

TEST_CASE("whole-model loss with first- and last-character embeddings, with dropout",
          "[gradients]") {
  check_whole_model(0.3f, {kOneSentence, {"Can", "you", "can", "a", "can", "?"}}, 3);
}

TEST_CASE("backward accumulates into the gradients", "[gradients]") {
  Model model = testing::make_random_model();
  std::vector<WordFeatures> words;
  for (const char* word : {"the", "dog", "saw", "it"}) words.push_back(word_features(model, word));
  nn::NetworkCache cache;
  const nn::NetworkOutput output =
      nn::network_forward(model.parameters, model.config, words, {}, &cache);
  Matrix d_upos, d_xpos;
  nn::tagging_loss(output.upos_logits, {5, 7, 15, 10}, 0.0f, &d_upos);
  nn::tagging_loss(output.xpos_logits, {2, 3, 1, 0}, 0.0f, &d_xpos);
  Parameters once = zero_parameters(model.config);
  Parameters twice = zero_parameters(model.config);
  nn::network_backward(model.parameters, model.config, cache, d_upos, d_xpos, once);
  nn::network_backward(model.parameters, model.config, cache, d_upos, d_xpos, twice);
  nn::network_backward(model.parameters, model.config, cache, d_upos, d_xpos, twice);
  const auto once_pairs = tensor_pairs(once, once, model.config);
  const auto twice_pairs = tensor_pairs(twice, twice, model.config);
  for (std::size_t t = 0; t < once_pairs.size(); ++t) {
    INFO(once_pairs[t].name);
    for (std::size_t k = 0; k < once_pairs[t].value->data.size(); ++k) {
      REQUIRE(twice_pairs[t].value->data[k] ==
              Approx(2.0f * once_pairs[t].value->data[k]).margin(1e-6));
    }
  }
}

}  // namespace
}  // namespace sawtag
