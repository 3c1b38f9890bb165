// `sawtag eval` end to end with a model without lemma and feature heads: it prints and writes
// exactly the figures it did before UFeats, AllTags and Lemmas existed (those appear only for
// models with the heads; their values are tested in test_evaluation_morphology.cpp).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using sawtag::testing::CliFixture;
using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::split_lines;

// The first word of each of the first `count` lines.
std::vector<std::string> first_words(const std::string& text, std::size_t count) {
  std::vector<std::string> words;
  for (const std::string& line : split_lines(text)) {
    if (words.size() == count) break;
    words.push_back(line.substr(0, line.find(' ')));
  }
  return words;
}

std::set<std::string> keys_of(const nlohmann::json& object) {
  std::set<std::string> keys;
  for (const auto& item : object.items()) keys.insert(item.key());
  return keys;
}

TEST_CASE_METHOD(CliFixture, "eval: no UFeats, AllTags or Lemmas without those heads", "[cli]") {
  const RunResult text = run_sawtag({"eval", "-m", model, SAWTAG_TEST_DATA "/sample.conllu"});
  INFO(text.err);
  REQUIRE(text.exit_code == 0);
  CHECK(first_words(text.out, 6) ==
        std::vector<std::string>{"gold:", "UPOS", "XPOS", "words", "calibration", ""});
  const std::vector<std::string> lines = split_lines(text.out);
  REQUIRE(lines.size() > 4);
  CHECK(lines[3].find("UFeats") == std::string::npos);
  CHECK(lines[3].find("Lemmas") == std::string::npos);
  CHECK(lines[4].find("FEATS") == std::string::npos);
  CHECK(lines[4].find("Lemmas") == std::string::npos);

  const RunResult json =
      run_sawtag({"eval", "--json", "-m", model, SAWTAG_TEST_DATA "/sample.conllu"});
  REQUIRE(json.exit_code == 0);
  const nlohmann::json object = nlohmann::json::parse(json.out);
  CHECK(keys_of(object) == std::set<std::string>{"upos", "xpos", "unseen", "calibration_error"});
  CHECK(keys_of(object["unseen"]) ==
        std::set<std::string>{"words", "upos_accuracy", "xpos_accuracy"});
  CHECK(keys_of(object["calibration_error"]) == std::set<std::string>{"upos", "xpos"});
}

TEST_CASE_METHOD(CliFixture, "eval --raw: no UFeats, AllTags or Lemmas without those heads",
                 "[cli]") {
  const RunResult text =
      run_sawtag({"eval", "--raw", "-m", model, SAWTAG_TEST_DATA "/sample.conllu"});
  INFO(text.err);
  REQUIRE(text.exit_code == 0);
  CHECK(first_words(text.out, 100) == std::vector<std::string>{"gold:", "metric", "Tokens",
                                                               "Sentences", "Words", "UPOS",
                                                               "XPOS"});

  const RunResult json =
      run_sawtag({"eval", "--raw", "--json", "-m", model, SAWTAG_TEST_DATA "/sample.conllu"});
  REQUIRE(json.exit_code == 0);
  CHECK(keys_of(nlohmann::json::parse(json.out)) ==
        std::set<std::string>{"tokens", "sentences", "words", "upos", "xpos"});
}

}  // namespace
