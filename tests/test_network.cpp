// The library's forward pass against an independent naive one, and the Tagger around it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "fixtures.hpp"
#include "nn/network.hpp"
#include "sawtag/error.hpp"
#include "sawtag/features.hpp"
#include "sawtag/initialize.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {
namespace {

// ---- A naive forward pass: plain loops over std::vector<double>, written from the model
// description alone (no Eigen, no nn/ code). Rows are words.
using Vec = std::vector<double>;
using Mat = std::vector<Vec>;

double element(const Tensor& tensor, std::int64_t row, std::int64_t column) {
  return tensor.data[static_cast<std::size_t>(row * tensor.cols() + column)];
}

Mat naive_linear(const Mat& x, const LinearParameters& linear) {
  const std::int64_t in = linear.weight.rows(), out = linear.weight.cols();
  Mat y(x.size(), Vec(static_cast<std::size_t>(out)));
  for (std::size_t i = 0; i < x.size(); ++i) {
    REQUIRE(static_cast<std::int64_t>(x[i].size()) == in);
    for (std::int64_t o = 0; o < out; ++o) {
      double sum = linear.bias.data[static_cast<std::size_t>(o)];
      for (std::int64_t k = 0; k < in; ++k) sum += x[i][static_cast<std::size_t>(k)] * element(linear.weight, k, o);
      y[i][static_cast<std::size_t>(o)] = sum;
    }
  }
  return y;
}

Mat naive_layer_norm(const Mat& x, const LayerNormParameters& norm, double epsilon) {
  Mat y = x;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = static_cast<double>(x[i].size());
    double mean = 0.0;
    for (double v : x[i]) mean += v / d;
    double variance = 0.0;
    for (double v : x[i]) variance += (v - mean) * (v - mean) / d;
    for (std::size_t c = 0; c < x[i].size(); ++c) {
      y[i][c] = norm.gamma.data[c] * (x[i][c] - mean) / std::sqrt(variance + epsilon) +
                norm.beta.data[c];
    }
  }
  return y;
}

Mat add(const Mat& a, const Mat& b) {
  Mat y = a;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t c = 0; c < a[i].size(); ++c) y[i][c] += b[i][c];
  return y;
}

struct NaiveOutput {
  Mat upos;
  Mat xpos;
  std::vector<Mat> attention;  // [layer * heads + head][i][j]
};

NaiveOutput naive_forward(const Model& model, const std::vector<std::string>& words) {
  const ModelConfig& config = model.config;
  const EncoderParameters& encoder = model.parameters.encoder;
  const std::size_t n = words.size();
  // Features.
  Mat features(n);
  for (std::size_t i = 0; i < n; ++i) {
    const WordFeatures word = word_features(model, words[i]);
    Vec& row = features[i];
    for (int c = 0; c < config.word_dim; ++c) row.push_back(element(encoder.word_embedding, word.word_id, c));
    for (std::size_t w = 0; w < config.char_widths.size(); ++w) {
      const int width = config.char_widths[w];
      const LinearParameters& conv = encoder.char_convolutions[w];
      for (int f = 0; f < config.char_filters; ++f) {
        double best = -1e300;
        for (std::size_t p = 0; p + width <= word.char_ids.size(); ++p) {
          double sum = conv.bias.data[static_cast<std::size_t>(f)];
          for (int k = 0; k < width; ++k)
            for (int c = 0; c < config.char_dim; ++c)
              sum += element(encoder.char_embedding, word.char_ids[p + k], c) *
                     element(conv.weight, k * config.char_dim + c, f);
          best = std::max(best, sum);
        }
        row.push_back(std::max(best, 0.0));
      }
    }
    for (int c = 0; c < config.shape_dim; ++c) row.push_back(element(encoder.shape_embedding, word.shape, c));
  }
  Mat x = naive_linear(features, encoder.input_projection);
  for (std::size_t pos = 0; pos < n; ++pos) {
    for (int k = 0; 2 * k < config.d_model; ++k) {
      const double angle = pos / std::pow(10000.0, 2.0 * k / config.d_model);
      x[pos][2 * k] += std::sin(angle);
      if (2 * k + 1 < config.d_model) x[pos][2 * k + 1] += std::cos(angle);
    }
  }
  NaiveOutput output;
  const int dk = config.d_model / config.num_heads;
  const int r = config.max_relative_distance;
  for (const EncoderLayerParameters& layer : encoder.layers) {
    const Mat u = naive_layer_norm(x, layer.attention_norm, config.layer_norm_epsilon);
    const Mat q = naive_linear(u, layer.attention.query);
    const Mat k = naive_linear(u, layer.attention.key);
    const Mat v = naive_linear(u, layer.attention.value);
    Mat heads(n, Vec(static_cast<std::size_t>(config.d_model), 0.0));
    for (int h = 0; h < config.num_heads; ++h) {
      Mat alpha(n, Vec(n));
      for (std::size_t i = 0; i < n; ++i) {
        double total = 0.0;
        Vec scores(n);
        for (std::size_t j = 0; j < n; ++j) {
          double dot = 0.0;
          for (int c = h * dk; c < (h + 1) * dk; ++c) dot += q[i][c] * k[j][c];
          scores[j] = dot / std::sqrt(static_cast<double>(dk));
          if (config.relative_position) {
            const int distance = std::clamp(static_cast<int>(j) - static_cast<int>(i), -r, r);
            scores[j] += element(layer.attention.relative_bias, h, distance + r);
          }
        }
        const double top = *std::max_element(scores.begin(), scores.end());
        for (std::size_t j = 0; j < n; ++j) total += std::exp(scores[j] - top);
        for (std::size_t j = 0; j < n; ++j) alpha[i][j] = std::exp(scores[j] - top) / total;
        for (std::size_t j = 0; j < n; ++j)
          for (int c = h * dk; c < (h + 1) * dk; ++c) heads[i][c] += alpha[i][j] * v[j][c];
      }
      output.attention.push_back(alpha);
    }
    x = add(x, naive_linear(heads, layer.attention.output));
    Mat hidden = naive_linear(naive_layer_norm(x, layer.feed_forward_norm, config.layer_norm_epsilon),
                              layer.feed_forward.hidden);
    for (Vec& row : hidden)
      for (double& z : row) z = 0.5 * z * (1.0 + std::erf(z / std::sqrt(2.0)));
    x = add(x, naive_linear(hidden, layer.feed_forward.output));
  }
  const Mat final_vectors = naive_layer_norm(x, encoder.final_norm, config.layer_norm_epsilon);
  output.upos = naive_linear(final_vectors, model.parameters.heads.upos);
  output.xpos = naive_linear(final_vectors, model.parameters.heads.xpos);
  return output;
}

ModelConfig deeper_config() {
  ModelConfig config = testing::tiny_config();
  config.num_layers = 3;
  config.num_heads = 4;  // d_k = 2
  config.relative_position = true;
  config.max_relative_distance = 3;  // the 12-word sentence below reaches the clip
  return config;
}

const std::vector<std::string> kSentence = {"I",   "saw", "a",  "dog", ",",     "the",
                                            "Dog", "do",  "n't", "see", "zebras", "."};

std::vector<WordFeatures> features_of(const Model& model, const std::vector<std::string>& words) {
  std::vector<WordFeatures> features;
  for (const std::string& word : words) features.push_back(word_features(model, word));
  return features;
}

TEST_CASE("the forward pass agrees with a naive double-precision one", "[nn]") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    ModelConfig config = deeper_config();
    config.relative_position = seed != 3;  // the last model has no relative-position bias
    const Model model = testing::make_random_model(config, seed);
    INFO("seed " << seed << ", relative_position " << config.relative_position);
    const NaiveOutput expected = naive_forward(model, kSentence);
    nn::ForwardOptions options;
    options.capture_attention = true;
    const nn::NetworkOutput actual = nn::network_forward(
        model.parameters, model.config, features_of(model, kSentence), options, nullptr);
    REQUIRE(actual.upos_logits.rows() == 12);
    REQUIRE(actual.upos_logits.cols() == model.config.num_upos);
    REQUIRE(actual.xpos_logits.cols() == model.config.num_xpos);
    for (std::size_t i = 0; i < kSentence.size(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      for (int c = 0; c < model.config.num_upos; ++c) {
        CHECK(actual.upos_logits(row, c) == Approx(expected.upos[i][c]).margin(1e-4));
      }
      for (int c = 0; c < model.config.num_xpos; ++c) {
        CHECK(actual.xpos_logits(row, c) == Approx(expected.xpos[i][c]).margin(1e-4));
      }
    }
    REQUIRE(actual.attention.size() == expected.attention.size());
    for (std::size_t m = 0; m < actual.attention.size(); ++m) {
      for (std::size_t i = 0; i < kSentence.size(); ++i) {
        for (std::size_t j = 0; j < kSentence.size(); ++j) {
          CHECK(actual.attention[m](static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) ==
                Approx(expected.attention[m][i][j]).margin(1e-5));
        }
      }
    }
  }
}

TEST_CASE("training-mode dropout is driven only by the random generator passed in", "[nn]") {
  const Model model = testing::make_random_model(deeper_config());
  const std::vector<WordFeatures> words = features_of(model, kSentence);
  const auto run = [&](float rate, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    nn::ForwardOptions options;
    options.dropout_rate = rate;
    options.random = {&random};
    nn::NetworkCache cache;
    return nn::network_forward(model.parameters, model.config, words, options, &cache).upos_logits;
  };
  const nn::Matrix inference =
      nn::network_forward(model.parameters, model.config, words, {}, nullptr).upos_logits;
  CHECK(run(0.0f, 1) == inference);
  CHECK(run(0.3f, 1) == run(0.3f, 1));
  CHECK(run(0.3f, 1) != run(0.3f, 2));
  CHECK(run(0.3f, 1) != inference);
}

TEST_CASE("attention rows sum to 1 in every layer and head", "[nn]") {
  const Tagger tagger(std::make_shared<const Model>(testing::make_random_model(deeper_config())));
  TagOptions options;
  options.capture_attention = true;
  const TagResult result = tagger.tag(kSentence, options);
  const AttentionMaps& maps = result.attention;
  REQUIRE(maps.num_layers == 3);
  REQUIRE(maps.num_heads == 4);
  REQUIRE(maps.num_words == 12);
  REQUIRE(maps.weights.size() == 3u * 4u * 12u * 12u);
  for (int layer = 0; layer < 3; ++layer)
    for (int head = 0; head < 4; ++head)
      for (int i = 0; i < 12; ++i) {
        double sum = 0.0;
        for (int j = 0; j < 12; ++j) {
          CHECK(maps.at(layer, head, i, j) >= 0.0f);
          sum += maps.at(layer, head, i, j);
        }
        CHECK(sum == Approx(1.0).margin(1e-5));
      }
  CHECK(tagger.tag(kSentence).attention.weights.empty());
}

TEST_CASE("a const Tagger gives identical results from 4 threads at once", "[nn]") {
  const Tagger tagger(std::make_shared<const Model>(testing::make_random_model(deeper_config())));
  const std::vector<std::vector<std::string>> sentences = {
      kSentence, {"the", "dog"}, {"I", "saw", "it", "."}, {"Zebras", "do", "n't", "see", "me"}};
  TagOptions options;
  options.top_k = 3;
  options.capture_attention = true;
  std::vector<TagResult> expected;
  for (const auto& sentence : sentences) expected.push_back(tagger.tag(sentence, options));

  std::vector<std::vector<TagResult>> actual(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int repeat = 0; repeat < 25; ++repeat) {
        for (std::size_t s = 0; s < sentences.size(); ++s) {
          actual[t].push_back(tagger.tag(sentences[(s + t) % sentences.size()], options));
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) {
    REQUIRE(actual[t].size() == 100);
    for (std::size_t r = 0; r < actual[t].size(); ++r) {
      const TagResult& want = expected[(r % sentences.size() + t) % sentences.size()];
      const TagResult& got = actual[t][r];
      REQUIRE(got.words.size() == want.words.size());
      for (std::size_t w = 0; w < got.words.size(); ++w) {
        CHECK(got.words[w].upos == want.words[w].upos);
        CHECK(got.words[w].xpos == want.words[w].xpos);
        CHECK(got.words[w].upos_probability == want.words[w].upos_probability);
        CHECK(got.words[w].xpos_probability == want.words[w].xpos_probability);
      }
      CHECK(got.attention.weights == want.attention.weights);
    }
  }
}

TEST_CASE("self-tests are checked when a Tagger is built", "[nn]") {
  Model model = testing::make_random_model(deeper_config());
  const std::vector<std::string> words = {"I", "saw", "a", "dog"};
  std::vector<std::string> actual_upos;
  for (const WordTags& tags : Tagger(std::make_shared<const Model>(model)).tag(words).words) {
    actual_upos.push_back(tags.upos);
  }
  model.self_tests.push_back({words, actual_upos});
  CHECK_NOTHROW(Tagger(std::make_shared<const Model>(model)));

  std::vector<std::string> wrong_upos = actual_upos;
  wrong_upos[1] = wrong_upos[1] == "VERB" ? "NOUN" : "VERB";
  model.self_tests.push_back({words, wrong_upos});
  try {
    Tagger tagger(std::make_shared<const Model>(model));
    FAIL("a failing self-test must throw ModelError");
  } catch (const ModelError& error) {
    const std::string message = error.what();
    CHECK(message.find("self-test 2") != std::string::npos);
    CHECK(message.find("I saw a dog") != std::string::npos);
    CHECK(message.find("expected UPOS '" + wrong_upos[0] + " " + wrong_upos[1]) !=
          std::string::npos);
    CHECK(message.find("actual '" + actual_upos[0] + " " + actual_upos[1]) != std::string::npos);
  }

  model.self_tests = {{words, {"PRON"}}};
  CHECK_THROWS_AS(Tagger(std::make_shared<const Model>(model)), ModelError);
}

TEST_CASE("the training forward pass reads a kept int8 word table only once widened", "[nn]") {
  const std::string text = serialize_model(testing::make_random_model(deeper_config(), 4),
                                           TensorEncoding::base64_float16_int8_words);
  const Model widened = parse_model(text, "memory");
  Model kept = parse_model(text, "memory", Int8WordTable::keep);
  // Not widened: the empty float table is refused, never read out of bounds.
  CHECK_THROWS_WITH(
      nn::network_forward(kept.parameters, kept.config, features_of(kept, kSentence), {}, nullptr),
      Catch::Matchers::StartsWith("embedding: word id"));
  widen_word_embedding(kept);
  const nn::NetworkOutput expected = nn::network_forward(
      widened.parameters, widened.config, features_of(widened, kSentence), {}, nullptr);
  const nn::NetworkOutput actual =
      nn::network_forward(kept.parameters, kept.config, features_of(kept, kSentence), {}, nullptr);
  CHECK(actual.upos_logits == expected.upos_logits);  // bit for bit
  CHECK(actual.xpos_logits == expected.xpos_logits);
}

TEST_CASE("a Tagger refuses weights of the wrong shape, naming the tensor", "[nn]") {
  Model model = testing::make_random_model();
  model.parameters.encoder.layers[1].attention.key.weight = Tensor(Shape{8, 7});
  try {
    Tagger tagger(std::make_shared<const Model>(model));
    FAIL("a wrong shape must throw ModelError");
  } catch (const ModelError& error) {
    const std::string message = error.what();
    CHECK(message.find("encoder.layers.1.attention.key.weight") != std::string::npos);
    CHECK(message.find("[8, 7]") != std::string::npos);
    CHECK(message.find("expected [8, 8]") != std::string::npos);
  }
  Model fewer_layers = testing::make_random_model();
  fewer_layers.parameters.encoder.layers.pop_back();
  CHECK_THROWS_AS(Tagger(std::make_shared<const Model>(fewer_layers)), ModelError);
}

TEST_CASE("top-k candidates are sorted, capped at the tag set and start with the best tag",
          "[nn]") {
  const Tagger tagger(std::make_shared<const Model>(testing::make_random_model(deeper_config())));
  for (int k : {1, 3, 100}) {
    TagOptions options;
    options.top_k = k;
    const TagResult result = tagger.tag(kSentence, options);
    for (const WordTags& word : result.words) {
      REQUIRE(word.upos_top.size() == static_cast<std::size_t>(std::min(k, 17)));
      REQUIRE(word.xpos_top.size() == static_cast<std::size_t>(std::min(k, 9)));
      CHECK(word.upos_top.front().tag == word.upos);
      CHECK(word.upos_top.front().probability == word.upos_probability);
      CHECK(word.xpos_top.front().tag == word.xpos);
      for (const auto* top : {&word.upos_top, &word.xpos_top}) {
        double sum = 0.0;
        for (std::size_t c = 0; c < top->size(); ++c) {
          sum += (*top)[c].probability;
          if (c > 0) CHECK((*top)[c - 1].probability >= (*top)[c].probability);
        }
        CHECK(sum <= 1.0 + 1e-5);
        if (k == 100) CHECK(sum == Approx(1.0).margin(1e-5));
      }
    }
  }
  CHECK(tagger.tag(kSentence).words.front().upos_top.empty());
}

TEST_CASE("empty input gives an empty result; long input is tagged whole", "[nn]") {
  const Tagger tagger(std::make_shared<const Model>(testing::make_random_model()));
  CHECK(tagger.tag({}).words.empty());
  std::vector<std::string> long_sentence;
  for (int i = 0; i < 150; ++i) long_sentence.push_back(i % 2 ? "dog" : "saw");
  REQUIRE(tagger.model().config.max_sequence_length < 150);
  const TagResult result = tagger.tag(long_sentence);
  REQUIRE(result.words.size() == 150);
  for (const WordTags& word : result.words) {
    CHECK(std::isfinite(word.upos_probability));
    CHECK(word.upos_probability > 0.0f);
  }
}

TEST_CASE("initialize_parameters is deterministic and follows the recipe", "[nn]") {
  const ModelConfig config = testing::make_random_model().config;
  Parameters first, second, other;
  initialize_parameters(first, config, 42);
  initialize_parameters(second, config, 42);
  initialize_parameters(other, config, 43);
  CHECK(first.encoder.word_embedding.data == second.encoder.word_embedding.data);
  CHECK(first.encoder.layers[1].attention.query.weight.data ==
        second.encoder.layers[1].attention.query.weight.data);
  CHECK(first.encoder.layers[1].attention.query.weight.data !=
        other.encoder.layers[1].attention.query.weight.data);
  for_each_parameter(static_cast<const Parameters&>(first), config,
                     [](const std::string& name, const Tensor& tensor, const Shape& shape) {
    INFO(name);
    REQUIRE(tensor.shape == shape);
    const auto [low, high] = std::minmax_element(tensor.data.begin(), tensor.data.end());
    if (name.find(".gamma") != std::string::npos) {
      CHECK(*low == 1.0f);
      CHECK(*high == 1.0f);
    } else if (name.find(".bias") != std::string::npos || name.find(".beta") != std::string::npos) {
      CHECK(*low == 0.0f);
      CHECK(*high == 0.0f);
    } else if (name.find(".weight") != std::string::npos) {
      const double limit = std::sqrt(6.0 / static_cast<double>(shape[0] + shape[1]));
      CHECK(*low >= -limit);
      CHECK(*high <= limit);
      CHECK(*high > *low);
    }
  });
}

}  // namespace
}  // namespace sawtag
