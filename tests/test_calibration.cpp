// Calibrated confidences: the expected calibration error, fitting a temperature, and the
// temperatures travelling in the model file.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "sawtag/calibration.hpp"
#include "sawtag/error.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {
namespace {

using Json = nlohmann::json;

// The tiny model's sentences, many times over, with gold tags drawn from softmax(logits / 3):
// what the truth looks like for a model three times too confident.
std::vector<Sentence> drawn_gold(const Tagger& tagger) {
  const std::vector<std::vector<std::string>> texts = {
      {"I", "saw", "a", "dog", "."}, {"the", "dog", "saw", "it", "."},
      {"I", "do", "n't", "see", "it"}, {"a", "dog", ",", "a", "saw"}};
  const Model& model = tagger.model();
  std::mt19937_64 random(11);
  const auto draw = [&random](const std::vector<float>& logits) {
    std::vector<double> weights;
    for (float logit : logits) weights.push_back(std::exp((logit - logits[0]) / 3.0));
    return std::discrete_distribution<int>(weights.begin(), weights.end())(random);
  };
  TagOptions options;
  options.logits = true;
  std::vector<Sentence> gold;
  for (int repeat = 0; repeat < 100; ++repeat) {
    for (const auto& text : texts) {
      const TagResult result = tagger.tag(text, options);
      Sentence sentence;
      for (std::size_t i = 0; i < text.size(); ++i) {
        Word word;
        word.form = text[i];
        word.upos = model.upos.at(draw(result.words[i].upos_logits));
        word.xpos = model.xpos.at(draw(result.words[i].xpos_logits));
        sentence.words.push_back(word);
      }
      gold.push_back(sentence);
    }
  }
  return gold;
}

}  // namespace

TEST_CASE("expected calibration error of hand-made bins", "[calibration]") {
  ReliabilityBins bins;
  CHECK(bins.expected_calibration_error() == 0.0);
  // Bin [0.9, 1]: 10 words at 0.95, 9 right: |0.9 - 0.95| = 0.05.
  for (int i = 0; i < 10; ++i) bins.add(0.95, i < 9);
  CHECK(bins.expected_calibration_error() == Approx(0.05));
  // Bin [0.5, 0.6): 10 words at 0.55, all right: |1 - 0.55| = 0.45. Weighted: (0.05 + 0.45) / 2.
  for (int i = 0; i < 10; ++i) bins.add(0.55, true);
  CHECK(bins.expected_calibration_error() == Approx(0.25));
  CHECK(bins.words() == 20);
  // A probability of exactly 1 falls in the last bin.
  ReliabilityBins certain;
  certain.add(1.0, true);
  CHECK(certain.expected_calibration_error() == Approx(0.0));
}

TEST_CASE("fit_temperature recovers the temperature that generated the tags", "[calibration]") {
  for (const double true_temperature : {0.5, 2.0}) {
    std::mt19937_64 random(7);
    std::normal_distribution<float> normal(0.0f, 2.0f);
    constexpr int kTags = 5;
    std::vector<float> logits;
    std::vector<int> gold;
    for (int word = 0; word < 20000; ++word) {
      std::vector<double> weights;
      for (int t = 0; t < kTags; ++t) {
        logits.push_back(normal(random));
        weights.push_back(std::exp(logits.back() / true_temperature));
      }
      gold.push_back(std::discrete_distribution<int>(weights.begin(), weights.end())(random));
    }
    gold[3] = -1;  // skipped
    INFO("true temperature " << true_temperature);
    CHECK(fit_temperature(logits, gold, kTags) == Approx(true_temperature).epsilon(0.06));
  }
}

TEST_CASE("calibration fitted on a small set lowers its error and keeps every tag",
          "[calibration]") {
  // Large weights make an over-confident model.
  Model model = testing::make_random_model(testing::tiny_config(), 4, 2.0f);
  const auto shared = std::make_shared<const Model>(model);
  const Tagger tagger(shared);
  const std::vector<Sentence> gold = drawn_gold(tagger);
  const Evaluation before = evaluate(tagger, gold);
  model.calibration = fit_calibration(tagger, gold);
  CHECK(model.calibration.upos_temperature == Approx(3.0).epsilon(0.25));
  CHECK(model.calibration.xpos_temperature == Approx(3.0).epsilon(0.25));
  const Tagger calibrated(std::make_shared<const Model>(model));
  const Evaluation after = evaluate(calibrated, gold);
  INFO("UPOS ECE " << before.upos_reliability.expected_calibration_error() << " -> "
                   << after.upos_reliability.expected_calibration_error());
  CHECK(after.upos_reliability.expected_calibration_error() <
        before.upos_reliability.expected_calibration_error() - 0.05);
  CHECK(after.xpos_reliability.expected_calibration_error() <
        before.xpos_reliability.expected_calibration_error());
  CHECK(after.upos.correct == before.upos.correct);
  CHECK(after.xpos.correct == before.xpos.correct);
  // Probabilities are softmax(logits / T).
  TagOptions options;
  options.logits = true;
  const WordTags word = calibrated.tag({"I", "saw", "a", "saw"}, options).words[1];
  double sum = 0.0;
  float best = word.upos_logits[0];
  for (float logit : word.upos_logits) {
    sum += std::exp((logit - word.upos_logits[0]) / model.calibration.upos_temperature);
    best = std::max(best, logit);
  }
  CHECK(word.upos_probability ==
        Approx(std::exp((best - word.upos_logits[0]) / model.calibration.upos_temperature) / sum)
            .epsilon(1e-4));
  CHECK_THROWS_AS(fit_calibration(tagger, {}), InputError);
}

TEST_CASE("model file: temperatures round trip, and bad ones are refused", "[calibration]") {
  Model model = testing::make_random_model();
  model.calibration = {0.75f, 1.5f};
  const std::string text = serialize_model(model);
  const Model loaded = parse_model(text, "memory");
  CHECK(loaded.calibration.upos_temperature == 0.75f);
  CHECK(loaded.calibration.xpos_temperature == 1.5f);

  const auto error_of = [&](const std::function<void(Json&)>& edit) {
    Json document = Json::parse(text);
    edit(document);
    try {
      parse_model(document.dump(), "bad.json");
    } catch (const ModelError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(error_of([](Json& d) { d["calibration"]["upos_temperature"] = 0.0; }),
             Contains("calibration.upos_temperature: expected a temperature in [0.01, 100]"));
  CHECK_THAT(error_of([](Json& d) { d["calibration"]["xpos_temperature"] = 1e9; }),
             Contains("calibration.xpos_temperature"));
  CHECK_THAT(error_of([](Json& d) { d["calibration"]["xpos_temperature"] = "1"; }),
             Contains("calibration.xpos_temperature: expected a number"));
  CHECK_THAT(error_of([](Json& d) { d["calibration"].erase("upos_temperature"); }),
             Contains("upos_temperature"));
  CHECK_THAT(error_of([](Json& d) { d["calibration"]["bias"] = 1; }),
             Contains("unknown field 'calibration.bias'"));
  // A file without the section (version 2 and older) has temperatures of 1.
  const std::string without = [&] {
    Json document = Json::parse(text);
    document.erase("calibration");
    document["version"] = 2;
    return document.dump();
  }();
  CHECK(parse_model(without, "old.json").calibration.upos_temperature == 1.0f);
}

}  // namespace sawtag
