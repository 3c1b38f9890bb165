// A model file of several taggers (Model::ensemble): the Tagger averages their logits, the file
// keeps them, and the loader refuses what an ensemble may not hold.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {
namespace {

using Json = nlohmann::ordered_json;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

const std::vector<std::vector<std::string>> kSentences = {
    {"I", "saw", "a", "saw", "."}, {"the", "dog", "do", "n't", "see", "it"}, {"I"}};

// A second tagger of other sizes and another vocabulary, with the first's tag sets.
Model other_tagger(std::uint64_t seed) {
  ModelConfig config = testing::tiny_config();
  config.d_model = 12;
  config.num_heads = 3;
  config.num_layers = 1;
  config.char_widths = {1, 2, 3};
  Model model = testing::make_random_model(config, seed);
  model.words = Vocabulary({"<unk>", "saw", "dog", "."}, "words");
  sync_vocabulary_sizes(model);
  Tensor words({model.config.word_vocab_size, model.config.word_dim});
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
  for (float& value : words.data) value = uniform(rng);
  model.parameters.encoder.word_embedding = std::move(words);
  return model;
}

Model ensemble_of_three() {
  Model model = testing::make_random_model(testing::tiny_config(), 1);
  model.calibration = {0.8f, 1.25f};
  model.ensemble.push_back(std::make_shared<const Model>(testing::make_random_model(testing::tiny_config(), 2)));
  model.ensemble.push_back(std::make_shared<const Model>(other_tagger(3)));
  return model;
}

std::vector<TagResult> tag_alone(const Model& model, const TagOptions& options) {
  Model alone = model;
  alone.ensemble.clear();
  return Tagger(std::make_shared<const Model>(alone), TagPrecision::float32)
      .tag_batch(kSentences, options);
}

}  // namespace

TEST_CASE("ensemble: the Tagger's logits are the mean of its taggers'", "[ensemble_model]") {
  const Model model = ensemble_of_three();
  TagOptions options;
  options.logits = true;
  options.top_k = 3;
  options.capture_attention = true;
  const std::vector<TagResult> first = tag_alone(model, options);
  const std::vector<TagResult> second = tag_alone(*model.ensemble[0], options);
  const std::vector<TagResult> third = tag_alone(*model.ensemble[1], options);
  const Tagger tagger(std::make_shared<const Model>(model), TagPrecision::float32);
  const std::vector<TagResult> mean = tagger.tag_batch(kSentences, options);
  REQUIRE(mean.size() == kSentences.size());
  bool any_differs = false;
  for (std::size_t s = 0; s < kSentences.size(); ++s) {
    for (std::size_t w = 0; w < kSentences[s].size(); ++w) {
      const WordTags& tags = mean[s].words[w];
      REQUIRE(tags.upos_logits.size() == model.upos.items().size());
      for (std::size_t t = 0; t < tags.upos_logits.size(); ++t) {
        const float expected = (first[s].words[w].upos_logits[t] +
                                second[s].words[w].upos_logits[t] +
                                third[s].words[w].upos_logits[t]) / 3.0f;
        CHECK(tags.upos_logits[t] == Approx(expected).margin(1e-5));
        any_differs |= std::abs(tags.upos_logits[t] - first[s].words[w].upos_logits[t]) > 1e-3f;
      }
      for (std::size_t t = 0; t < tags.xpos_logits.size(); ++t) {
        const float expected = (first[s].words[w].xpos_logits[t] +
                                second[s].words[w].xpos_logits[t] +
                                third[s].words[w].xpos_logits[t]) / 3.0f;
        CHECK(tags.xpos_logits[t] == Approx(expected).margin(1e-5));
      }
      // The tag and its probability: the model's own calibration over the mean.
      const int best = static_cast<int>(
          std::max_element(tags.upos_logits.begin(), tags.upos_logits.end()) -
          tags.upos_logits.begin());
      CHECK(tags.upos == model.upos.at(best));
      double sum = 0.0;
      for (float logit : tags.upos_logits) {
        sum += std::exp((logit - tags.upos_logits[static_cast<std::size_t>(best)]) / 0.8);
      }
      CHECK(tags.upos_probability == Approx(1.0 / sum).margin(1e-5));
      REQUIRE(tags.upos_top.size() == 3);
      CHECK(tags.upos_top[0].tag == tags.upos);
    }
    // Attention maps are the first tagger's.
    CHECK(mean[s].attention.weights == first[s].attention.weights);
  }
  CHECK(any_differs);  // the further taggers do change the logits
}

TEST_CASE("ensemble: batches and windows do not change what the ensemble gives",
          "[ensemble_model]") {
  Model model = ensemble_of_three();
  const Tagger tagger(std::make_shared<const Model>(model), TagPrecision::float32);
  std::vector<std::string> long_sentence;
  for (int i = 0; i < 150; ++i) long_sentence.push_back(kSentences[i % 2][i % 5]);
  TagOptions small;
  small.batch_words = 1;
  const TagResult whole = tagger.tag(long_sentence);
  const TagResult in_pieces = tagger.tag(long_sentence, small);
  REQUIRE(whole.words.size() == long_sentence.size());
  CHECK(tagger.max_window() == 64);
  for (std::size_t w = 0; w < long_sentence.size(); ++w) {
    CHECK(whole.words[w].upos == in_pieces.words[w].upos);
    CHECK(whole.words[w].upos_probability == in_pieces.words[w].upos_probability);
  }
}

TEST_CASE("ensemble: saved, loaded and saved again, byte for byte, as version 5 (no morphology heads)",
          "[ensemble_model]") {
  Model model = ensemble_of_three();
  {
    const TagResult tags = Tagger(std::make_shared<const Model>(model)).tag({"I", "saw"});
    model.self_tests.push_back({{"I", "saw"}, {tags.words[0].upos, tags.words[1].upos}});
  }
  // A further tagger's own self-tests and calibration are not written: only its network is used.
  Model member = *model.ensemble[0];
  member.self_tests.push_back({{"I"}, {"NOUN"}});
  member.calibration = {2.0f, 2.0f};
  model.ensemble[0] = std::make_shared<const Model>(member);
  for (const TensorEncoding encoding :
       {TensorEncoding::base64, TensorEncoding::base64_float16_int8_words}) {
    const std::string text = serialize_model(model, encoding);
    const Json document = Json::parse(text);
    CHECK(document["version"] == kModelVersionWithoutMorphology);
    REQUIRE(document["ensemble"].size() == 2);
    const Json first_member = Json::parse(document["ensemble"][0].get<std::string>());
    CHECK(first_member["self_tests"].empty());
    CHECK_FALSE(first_member.contains("calibration"));
    CHECK_FALSE(first_member.contains("ensemble"));
    const Model loaded = parse_model(text, "ensemble.json", Int8WordTable::keep);
    REQUIRE(loaded.ensemble.size() == 2);
    CHECK(loaded.ensemble[1]->config.d_model == 12);
    CHECK(loaded.ensemble[1]->words.size() == 4);
    CHECK(loaded.ensemble[0]->self_tests.empty());
    CHECK(serialize_model(loaded, encoding) == text);
    if (encoding == TensorEncoding::base64_float16_int8_words) {
      CHECK(loaded.ensemble[0]->word_embedding_int8.has_value());  // as the file stores it
    }
    const Tagger tagger(std::make_shared<const Model>(loaded));  // its self-test passes
    CHECK(tagger.tag(kSentences[0]).words.size() == 5);
  }
  // One tagger: no "ensemble" field, and an older version.
  model.ensemble.clear();
  const Json single = Json::parse(serialize_model(model));
  CHECK_FALSE(single.contains("ensemble"));
  CHECK(single["version"] < kModelVersion);
}

TEST_CASE("ensemble error: taggers of other tag sets are refused", "[ensemble_model]") {
  Model model = testing::make_random_model(testing::tiny_config(), 1);
  Model other = testing::make_random_model(testing::tiny_config(), 2);
  other.xpos = Vocabulary({"PRP", "VBD", "DT", "NN", ".", "VBP", "RB", "VB", ","}, "xpos");
  model.ensemble.push_back(std::make_shared<const Model>(other));
  CHECK_THROWS_WITH(Tagger(std::make_shared<const Model>(model)), Contains("other tag sets"));
  CHECK_THROWS_WITH(serialize_model(model), Contains("other tag sets"));
  // In a file: the tagger is named.
  Model good = testing::make_random_model(testing::tiny_config(), 1);
  good.ensemble.push_back(std::make_shared<const Model>(testing::make_random_model(testing::tiny_config(), 2)));
  Json document = Json::parse(serialize_model(good));
  Json member = Json::parse(document["ensemble"][0].get<std::string>());
  member["tag_sets"]["upos"][0] = "NOUN_";
  document["ensemble"][0] = member.dump();
  CHECK_THROWS_WITH(parse_model(document.dump(), "bad.json"),
                    StartsWith("bad.json: ensemble[0]: its tag sets are not the first tagger's"));
}

TEST_CASE("ensemble error: no nesting, no empty list, at most 16 taggers", "[ensemble_model]") {
  Model good = testing::make_random_model(testing::tiny_config(), 1);
  good.ensemble.push_back(std::make_shared<const Model>(testing::make_random_model(testing::tiny_config(), 2)));
  const Json document = Json::parse(serialize_model(good));
  const std::string member_text = document["ensemble"][0].get<std::string>();
  const auto error_of = [](const Json& edited) {
    try {
      parse_model(edited.dump(), "bad.json");
    } catch (const ModelError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(error_of(document).empty());

  Json nested = document;
  Json member = Json::parse(member_text);
  member["ensemble"] = Json::array({member_text});
  nested["ensemble"][0] = member.dump();
  CHECK_THAT(error_of(nested),
             StartsWith("bad.json: ensemble[0]: a tagger of an ensemble may not have an "
                        "ensemble of its own"));

  Json with_tokenizer = document;
  member = Json::parse(member_text);
  member["learned_tokenizer"] = member_text;
  with_tokenizer["ensemble"][0] = member.dump();
  CHECK_THAT(error_of(with_tokenizer), Contains("may not have a learned tokenizer of its own"));

  Json empty = document;
  empty["ensemble"] = Json::array();
  CHECK_THAT(error_of(empty), Contains("ensemble: expected at least one further tagger"));

  Json not_string = document;
  not_string["ensemble"][0] = Json::parse(member_text);
  CHECK_THAT(error_of(not_string), Contains("ensemble[0]: expected a string, got object"));

  Json too_many = document;
  for (int i = 0; i < 15; ++i) too_many["ensemble"].push_back(member_text);
  CHECK_THAT(error_of(too_many), Contains("ensemble has more than 15 entries"));
  too_many["ensemble"].erase(too_many["ensemble"].size() - 1);  // 16 taggers in all
  CHECK(error_of(too_many).empty());

  Json truncated = document;
  truncated["ensemble"][0] = member_text.substr(0, member_text.size() / 2);
  CHECK_THAT(error_of(truncated), StartsWith("bad.json: ensemble[0]: truncated"));
}

TEST_CASE("ensemble error: the tables derived at load are capped for all taggers together",
          "[ensemble_model]") {
  // 9,000 characters x (4 widths of 16) x 64 filters = 36.9 M floats of character products:
  // under the cap of 2^26 for one tagger, over it for two. Their weights are few.
  ModelConfig config = testing::tiny_config();
  config.char_widths = {16, 16, 16, 16};
  config.char_filters = 64;
  config.max_word_chars = 32;
  Model big = testing::make_random_model(config, 1);
  std::vector<std::string> chars = big.chars.items();
  for (char32_t c = 0x4E00; chars.size() < 9000; ++c) {
    std::string utf8;
    utf8 += static_cast<char>(0xE0 | (c >> 12));
    utf8 += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    utf8 += static_cast<char>(0x80 | (c & 0x3F));
    chars.push_back(utf8);
  }
  big.chars = Vocabulary(chars, "chars");
  sync_vocabulary_sizes(big);
  big.parameters = zero_parameters(big.config);
  REQUIRE(derived_values(big.config) < kMaxDerivedValues);
  REQUIRE(2 * derived_values(big.config) > kMaxDerivedValues);
  CHECK_NOTHROW(parse_model(serialize_model(big), "one.json"));
  Model two = big;
  two.ensemble.push_back(std::make_shared<const Model>(big));
  CHECK_THROWS_WITH(parse_model(serialize_model(two), "two.json"),
                    StartsWith("two.json: ensemble[0]: the tables built from the taggers when "
                               "they are loaded would hold"));
}

}  // namespace sawtag
