// The walkthrough (sawtag/walkthrough.hpp): every identity of its JSON holds to 1e-3 on a random
// model, the shipped English model and the shipped Chinese ensemble; its weights are the
// model's own tensors; its attention weights, logits and tags are what the Tagger gives; the
// choice of layer and head, the window limit and the int8 word table.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/walkthrough.hpp"
#include "sawtag/walkthrough_view.hpp"
#include "walkthrough_checks.hpp"

namespace sawtag {
namespace {

using testing::check_walkthrough_identities;

const std::vector<std::string> kSawSentence{"I", "saw", "a", "saw"};

nlohmann::json as_json(const Walkthrough& walk) {
  std::ostringstream out;
  write_walkthrough_json(out, walk);
  return nlohmann::json::parse(out.str());
}

// The walkthrough's W and b of each head and layer are the model's tensors, cut per head.
void check_weights_are_the_models(const Walkthrough& walk, const Model& model) {
  const int d = model.config.head_dim();
  const int d_model = model.config.d_model;
  for (const LayerSteps& layer : walk.layers) {
    const AttentionParameters& attention =
        model.parameters.encoder.layers.at(static_cast<std::size_t>(layer.layer)).attention;
    for (const HeadSteps& head : layer.heads) {
      for (int r = 0; r < d_model; ++r) {
        for (int c = 0; c < d; ++c) {
          const std::size_t at = static_cast<std::size_t>(r) * d_model + head.head * d + c;
          REQUIRE(head.w_q.at(r, c) == attention.query.weight.data[at]);
          REQUIRE(head.w_k.at(r, c) == attention.key.weight.data[at]);
          REQUIRE(head.w_v.at(r, c) == attention.value.weight.data[at]);
        }
      }
      for (int c = 0; c < d; ++c) {
        REQUIRE(head.b_v.at(0, c) == attention.value.bias.data[head.head * d + c]);
      }
    }
    REQUIRE(layer.w_o.values == std::vector<float>(attention.output.weight.data.begin(),
                                                   attention.output.weight.data.end()));
  }
}

// Weights = the Tagger's attention maps; the steps' logits = the Tagger's logits (only for one
// tagger: an ensemble's are a mean); tags and probabilities = the Tagger's.
void check_against_tagger(const Walkthrough& walk, const Tagger& tagger, double logit_margin) {
  TagOptions options;
  options.capture_attention = true;
  options.logits = true;
  const TagResult result = tagger.tag(walk.words, options);
  const int n = static_cast<int>(walk.words.size());
  for (const LayerSteps& layer : walk.layers) {
    for (const HeadSteps& head : layer.heads) {
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          REQUIRE(head.weights.at(i, j) ==
                  Approx(result.attention.at(layer.layer, head.head, i, j)).margin(1e-4));
        }
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    const WordTags& tags = result.words[static_cast<std::size_t>(i)];
    CHECK(walk.tags[static_cast<std::size_t>(i)] == tags.upos);
    CHECK(walk.probabilities[static_cast<std::size_t>(i)] == tags.upos_probability);
    if (walk.model.num_taggers > 1) continue;
    for (int t = 0; t < walk.upos_logits.cols; ++t) {
      REQUIRE(walk.upos_logits.at(i, t) ==
              Approx(tags.upos_logits[static_cast<std::size_t>(t)]).margin(logit_margin));
    }
  }
}

std::shared_ptr<const Model> shipped(const std::string& name) {
  return std::make_shared<const Model>(
      load_model(std::string(SAWTAG_SOURCE_DIR) + "/models/" + name, Int8WordTable::keep));
}

}  // namespace

TEST_CASE("walkthrough: every identity holds and the numbers are the model's (random model)",
          "[walkthrough]") {
  const auto model = std::make_shared<const Model>(testing::make_random_model());
  const Tagger tagger(model, TagPrecision::float32);
  const Walkthrough walk = walk_through(tagger, kSawSentence);
  REQUIRE(walk.layers.size() == 2);  // tiny_config: 2 layers of 2 heads, d_model 8
  REQUIRE(walk.layers[1].heads.size() == 2);
  CHECK(walk.layers[1].layer == 1);
  CHECK(walk.layers[1].heads[1].head == 1);
  CHECK(walk.model.head_dim == 4);
  CHECK(walk.model.num_taggers == 1);
  check_walkthrough_identities(as_json(walk), 1e-3);
  check_weights_are_the_models(walk, *model);
  check_against_tagger(walk, tagger, 1e-4);
  // The position bias is the model's table at clip(j - i, -3, 3) + 3.
  const Tensor& bias = model->parameters.encoder.layers[0].attention.relative_bias;
  CHECK(walk.layers[0].heads[1].position_bias.at(0, 3) == bias.data[7 + 3 + 3]);
  CHECK(walk.layers[0].heads[1].position_bias.at(3, 0) == bias.data[7 + 3 - 3]);
}

// The checks can fail: one number off by 0.01 in q, in the weights or in a layer's output is
// caught ([!shouldfail]: these pass only when a check fails).
TEST_CASE("walkthrough checks catch a wrong q", "[walkthrough][!shouldfail]") {
  const Tagger tagger(std::make_shared<const Model>(testing::make_random_model()));
  nlohmann::json document = as_json(walk_through(tagger, kSawSentence));
  document["layers"][1]["heads"][0]["q"][2][1] =
      document["layers"][1]["heads"][0]["q"][2][1].get<double>() + 0.01;
  check_walkthrough_identities(document, 1e-3);
}

TEST_CASE("walkthrough checks catch a wrong weight", "[walkthrough][!shouldfail]") {
  const Tagger tagger(std::make_shared<const Model>(testing::make_random_model()));
  nlohmann::json document = as_json(walk_through(tagger, kSawSentence));
  document["layers"][0]["heads"][1]["weights"][3][0] =
      document["layers"][0]["heads"][1]["weights"][3][0].get<double>() + 0.01;
  check_walkthrough_identities(document, 1e-3);
}

TEST_CASE("walkthrough checks catch a wrong output", "[walkthrough][!shouldfail]") {
  const Tagger tagger(std::make_shared<const Model>(testing::make_random_model()));
  nlohmann::json document = as_json(walk_through(tagger, kSawSentence));
  document["layers"][0]["output"][0][7] =
      document["layers"][0]["output"][0][7].get<double>() + 0.01;
  check_walkthrough_identities(document, 1e-3);
}

TEST_CASE("walkthrough: layer 1's a is LN_1 of the input, by hand", "[walkthrough]") {
  const auto model = std::make_shared<const Model>(testing::make_random_model());
  const Tagger tagger(model, TagPrecision::float32);
  const Walkthrough walk = walk_through(tagger, kSawSentence);
  const LayerNormParameters& norm = model->parameters.encoder.layers[0].attention_norm;
  const int d_model = walk.model.d_model;
  for (int i = 0; i < 4; ++i) {
    double mean = 0;
    for (int c = 0; c < d_model; ++c) mean += walk.a.at(i, c);
    mean /= d_model;
    double variance = 0;
    for (int c = 0; c < d_model; ++c) variance += std::pow(walk.a.at(i, c) - mean, 2);
    variance /= d_model;
    for (int c = 0; c < d_model; ++c) {
      const double expected = (walk.a.at(i, c) - mean) / std::sqrt(variance + 1e-5) *
                                  norm.gamma.data[static_cast<std::size_t>(c)] +
                              norm.beta.data[static_cast<std::size_t>(c)];
      REQUIRE(walk.layers[0].a.at(i, c) == Approx(expected).margin(1e-4));
    }
  }
}

TEST_CASE("walkthrough: the shipped English model on 'I saw a saw'", "[walkthrough][shipped]") {
  const auto model = shipped("en_ewt.json");
  const Tagger tagger(model, TagPrecision::float32);
  const Walkthrough walk = walk_through(tagger, kSawSentence);
  CHECK(walk.tags == std::vector<std::string>{"PRON", "VERB", "DET", "NOUN"});
  REQUIRE(static_cast<int>(walk.layers.size()) == model->config.num_layers);
  check_walkthrough_identities(as_json(walk), 1e-3);
  check_weights_are_the_models(walk, *model);
  check_against_tagger(walk, tagger, 1e-3);
}

TEST_CASE("walkthrough: the shipped Chinese ensemble, steps of its first tagger",
          "[walkthrough][shipped][zh]") {
  const auto model = shipped("zh_gsd.json");
  const Tagger tagger(model, TagPrecision::float32);
  const Walkthrough walk = walk_through(tagger, {"我", "看见", "一", "把", "锯子"});
  CHECK(walk.model.num_taggers == static_cast<int>(model->ensemble.size()) + 1);
  CHECK(walk.model.num_taggers > 1);
  check_walkthrough_identities(as_json(walk), 1e-3);
  check_weights_are_the_models(walk, *model);
  check_against_tagger(walk, tagger, 1e-3);
}

TEST_CASE("walkthrough: --layer and --head keep one layer and one head", "[walkthrough]") {
  const auto model = std::make_shared<const Model>(testing::make_random_model());
  const Tagger tagger(model, TagPrecision::float32);
  WalkthroughOptions options;
  options.layer = 1;
  options.head = 0;
  const Walkthrough walk = walk_through(tagger, kSawSentence, options);
  REQUIRE(walk.layers.size() == 1);
  CHECK(walk.layers[0].layer == 1);
  REQUIRE(walk.layers[0].heads.size() == 1);
  CHECK(walk.layers[0].heads[0].head == 0);
  const Walkthrough every = walk_through(tagger, kSawSentence);
  CHECK(walk.layers[0].heads[0].weights.values == every.layers[1].heads[0].weights.values);
  CHECK(walk.layers[0].concat.values == every.layers[1].concat.values);
  check_walkthrough_identities(as_json(walk), 1e-3);
}

TEST_CASE("walkthrough: an int8 word table gives the steps of the widened one", "[walkthrough]") {
  Model kept = testing::make_random_model();
  kept.word_embedding_int8 = quantize_rows(kept.parameters.encoder.word_embedding);
  kept.parameters.encoder.word_embedding = Tensor{};
  Model widened = kept;
  widen_word_embedding(widened);
  const Tagger from_kept(std::make_shared<const Model>(kept), TagPrecision::float32);
  const Tagger from_widened(std::make_shared<const Model>(widened), TagPrecision::float32);
  const Walkthrough a = walk_through(from_kept, kSawSentence);
  const Walkthrough b = walk_through(from_widened, kSawSentence);
  CHECK(a.projected.values == b.projected.values);
  CHECK(a.layers.back().output.values == b.layers.back().output.values);
  CHECK(a.upos_logits.values == b.upos_logits.values);
}

TEST_CASE("walkthrough errors: too long for the window, empty, no such layer or head",
          "[walkthrough]") {
  const auto model = std::make_shared<const Model>(testing::make_random_model());
  const Tagger tagger(model, TagPrecision::float32);
  const std::vector<std::string> long_sentence(65, "saw");  // the window is 64 words
  CHECK_THROWS_WITH(walk_through(tagger, long_sentence),
                    Catch::Contains("65 words, more than the model's window of 64"));
  CHECK_THROWS_AS(walk_through(tagger, long_sentence), InputError);
  CHECK_NOTHROW(walk_through(tagger, std::vector<std::string>(64, "saw")));
  CHECK_THROWS_WITH(walk_through(tagger, {}), Catch::Contains("no words"));
  WalkthroughOptions options;
  options.layer = 2;
  CHECK_THROWS_WITH(walk_through(tagger, kSawSentence, options), "layer 3: the model has 2 layers");
  options = {};
  options.head = 5;
  CHECK_THROWS_WITH(walk_through(tagger, kSawSentence, options),
                    "head 6: the model has 2 heads per layer");
}

}  // namespace sawtag
