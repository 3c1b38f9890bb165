// Independent tasks (threads/independent_tasks.hpp) and what runs as them: a model file read
// with a TaskRunner (its learned tokenizer, its ensemble's taggers, its lemma tables and its
// tensors as tasks) is the same model as one read in turn, a Tagger whose networks are built as
// tasks tags the same, and a bad file gives the same error either way: the first in the file's
// order.
#include <algorithm>
#include <catch2/catch.hpp>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli_fixture.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"
#include "thread_pool.hpp"
#include "threads/independent_tasks.hpp"

namespace sawtag {
namespace {

using Json = nlohmann::ordered_json;
using Catch::Matchers::StartsWith;

// What loading `text` throws, in turn (no runner) or with `run_tasks`; "" when it loads.
std::string error_of(const std::string& text, const TaskRunner& run_tasks = {}) {
  try {
    parse_model(text, "bad.json", Int8WordTable::widen, run_tasks);
  } catch (const ModelError& error) {
    return error.what();
  }
  return "";
}

// A tagger with a lemma head and its tables, as a file's text.
std::string lemma_model_text() {
  Model model = testing::make_random_model();
  model.lemma_rules = Vocabulary({"keep|0||0|", "lower|0||0|"}, "lemma rules");
  sync_vocabulary_sizes(model);
  model.parameters = zero_parameters(model.config);
  model.lemma_lexicon = {{"was", "AUX", "VBD", "be"}};
  model.lemma_casing = "Kerala";
  return serialize_model(model);
}

// A model of three taggers (the third of other sizes), as a file's text.
std::string ensemble_text(TensorEncoding encoding) {
  Model model = testing::make_random_model(testing::tiny_config(), 1);
  model.calibration = {0.8f, 1.25f};
  model.ensemble.push_back(
      std::make_shared<const Model>(testing::make_random_model(testing::tiny_config(), 2)));
  ModelConfig other = testing::tiny_config();
  other.d_model = 12;
  other.num_heads = 3;
  other.num_layers = 1;
  model.ensemble.push_back(std::make_shared<const Model>(testing::make_random_model(other, 3)));
  return serialize_model(model, encoding);
}

}  // namespace

TEST_CASE("run_independent: in turn it stops at the first error; with a runner every task runs",
          "[independent_tasks]") {
  std::mutex mutex;
  std::vector<int> ran;
  const auto tasks = [&] {
    std::vector<std::function<void()>> list;
    for (int i = 0; i < 4; ++i) {
      list.push_back([&, i] {
        {
          const std::lock_guard<std::mutex> lock(mutex);
          ran.push_back(i);
        }
        if (i == 1 || i == 3) throw std::runtime_error("task " + std::to_string(i));
      });
    }
    return list;
  };
  std::vector<std::exception_ptr> errors = run_independent({}, tasks());
  CHECK(ran == std::vector<int>{0, 1});
  REQUIRE(errors.size() == 4);
  CHECK_FALSE(errors[0]);
  CHECK_THROWS_WITH(rethrow_if_failed(errors, 1), "task 1");
  CHECK_FALSE(errors[3]);  // not run

  cli::ThreadPool pool(2);
  ran.clear();
  errors = run_independent(cli::tasks_of(&pool), tasks());
  std::sort(ran.begin(), ran.end());
  CHECK(ran == std::vector<int>{0, 1, 2, 3});
  CHECK_FALSE(errors[0]);
  CHECK_THROWS_WITH(rethrow_if_failed(errors, 1), "task 1");
  CHECK_FALSE(errors[2]);
  CHECK_THROWS_WITH(rethrow_if_failed(errors, 3), "task 3");
  CHECK_NOTHROW(rethrow_if_failed(errors, 0));
}

TEST_CASE("a model read as tasks is the model read in turn, and tags the same",
          "[independent_tasks]") {
  cli::ThreadPool pool(2);
  const TaskRunner run_tasks = cli::tasks_of(&pool);
  for (const TensorEncoding encoding :
       {TensorEncoding::base64, TensorEncoding::base64_float16_int8_words}) {
    const std::string text = ensemble_text(encoding);
    for (const Int8WordTable word_table : {Int8WordTable::widen, Int8WordTable::keep}) {
      const auto in_turn =
          std::make_shared<const Model>(parse_model(text, "ensemble.json", word_table));
      const auto as_tasks =
          std::make_shared<const Model>(parse_model(text, "ensemble.json", word_table, run_tasks));
      REQUIRE(as_tasks->ensemble.size() == 2);
      CHECK(serialize_model(*as_tasks, encoding) == serialize_model(*in_turn, encoding));
      const std::vector<std::vector<std::string>> sentences = {{"I", "saw", "a", "saw", "."},
                                                               {"the", "dog"}};
      const std::vector<TagResult> expected = Tagger(in_turn).tag_batch(sentences);
      const std::vector<TagResult> actual =
          Tagger(as_tasks, TagPrecision::fastest, run_tasks).tag_batch(sentences);
      REQUIRE(actual.size() == expected.size());
      for (std::size_t s = 0; s < expected.size(); ++s) {
        REQUIRE(actual[s].words.size() == expected[s].words.size());
        for (std::size_t w = 0; w < expected[s].words.size(); ++w) {
          CHECK(actual[s].words[w].upos == expected[s].words[w].upos);
          CHECK(actual[s].words[w].upos_probability == expected[s].words[w].upos_probability);
        }
      }
    }
  }
}

TEST_CASE("the shipped Chinese model (learned tokenizer, three taggers) read as tasks is the same",
          "[independent_tasks]") {
  const std::string path = std::string(SAWTAG_SOURCE_DIR) + "/models/zh_gsd.json";
  cli::ThreadPool pool(2);
  const Model in_turn = load_model(path, Int8WordTable::keep);
  const Model as_tasks = load_model(path, Int8WordTable::keep, cli::tasks_of(&pool));
  REQUIRE(as_tasks.tokenizer.character_model != nullptr);
  REQUIRE(as_tasks.ensemble.size() == 2);
  const TensorEncoding encoding = TensorEncoding::base64_float16_int8_words;
  CHECK(serialize_model(as_tasks, encoding) == serialize_model(in_turn, encoding));
}

TEST_CASE("a bad file read as tasks gives the error read in turn gives: the first in file order",
          "[independent_tasks]") {
  cli::ThreadPool pool(2);
  const TaskRunner run_tasks = cli::tasks_of(&pool);
  const Json good = Json::parse(ensemble_text(TensorEncoding::base64));
  const std::string member_text = good["ensemble"][1].get<std::string>();
  Json bad_tags = Json::parse(good["ensemble"][0].get<std::string>());
  bad_tags["tag_sets"]["upos"][0] = "NOUN_";
  const std::string bias = "heads.upos.bias";

  Json truncated_second = good;  // ensemble[1] cut short
  truncated_second["ensemble"][1] = member_text.substr(0, member_text.size() / 2);
  Json both = truncated_second;  // and ensemble[0] of other tag sets: that one is first
  both["ensemble"][0] = bad_tags.dump();
  Json tensor_too = truncated_second;  // and a tensor of the first tagger: it comes last
  tensor_too["tensors"][bias]["data"] = "base64:AAAA";
  Json tensor_only = good;
  tensor_only["tensors"][bias]["data"] = "base64:AAAA";
  Json calibration_too = tensor_only;  // "calibration" is read before the tensors
  calibration_too["calibration"]["upos_temperature"] = 1000;

  const std::vector<std::pair<Json, std::string>> cases = {
      {truncated_second, "bad.json: ensemble[1]: truncated"},
      {both, "bad.json: ensemble[0]: its tag sets are not the first tagger's"},
      {tensor_too, "bad.json: ensemble[1]: truncated"},
      {tensor_only, "bad.json: tensor '" + bias + "': expected"},
      {calibration_too, "bad.json: calibration.upos_temperature: expected a temperature"},
  };
  for (const auto& [document, expected_start] : cases) {
    const std::string text = document.dump();
    const std::string in_turn = error_of(text);
    CHECK_THAT(in_turn, StartsWith(expected_start));
    CHECK(error_of(text, run_tasks) == in_turn);
  }
  CHECK(error_of(good.dump(), run_tasks).empty());
}

TEST_CASE("the lemma tables are read as a task, and their errors come where they did",
          "[independent_tasks]") {
  cli::ThreadPool pool(2);
  const TaskRunner run_tasks = cli::tasks_of(&pool);
  const Json good = Json::parse(lemma_model_text());
  const std::string bias = "heads.upos.bias";
  Json lexicon = good;  // an empty lemma: after the calibration, before the tensors
  lexicon["lemma_lexicon"][0][3] = "";
  Json tensor_too = lexicon;
  tensor_too["tensors"][bias]["data"] = "base64:AAAA";
  Json calibration_too = tensor_too;
  calibration_too["calibration"] = {{"upos_temperature", 1000}, {"xpos_temperature", 1}};
  Json tensor_only = good;
  tensor_only["tensors"][bias]["data"] = "base64:AAAA";

  const std::vector<std::pair<Json, std::string>> cases = {
      {lexicon, "bad.json: lemma_lexicon[0]: an empty string"},
      {tensor_too, "bad.json: lemma_lexicon[0]: an empty string"},
      {calibration_too, "bad.json: calibration.upos_temperature: expected a temperature"},
      {tensor_only, "bad.json: tensor '" + bias + "': expected"},
  };
  for (const auto& [document, expected_start] : cases) {
    const std::string text = document.dump();
    const std::string in_turn = error_of(text);
    CHECK_THAT(in_turn, StartsWith(expected_start));
    CHECK(error_of(text, run_tasks) == in_turn);
  }
  const std::string text = good.dump();
  CHECK(error_of(text, run_tasks).empty());
  const Model in_turn = parse_model(text, "good.json");
  const Model as_tasks = parse_model(text, "good.json", Int8WordTable::widen, run_tasks);
  CHECK(serialize_model(as_tasks) == serialize_model(in_turn));
  REQUIRE(as_tasks.lemma_lexicon.size() == 1);
  CHECK(as_tasks.lemma_lexicon[0].lemma == "be");
  CHECK(as_tasks.lemma_casing == "Kerala");
}

TEST_CASE("sawtag tag -j 2 refuses a bad tagger of an ensemble in the one line -j 1 writes",
          "[independent_tasks][cli]") {
  testing::TempDir dir;
  Json document = Json::parse(ensemble_text(TensorEncoding::base64_float16_int8_words));
  const std::string member_text = document["ensemble"][0].get<std::string>();
  document["ensemble"][0] = member_text.substr(0, member_text.size() - 100);
  const std::string path = dir.write("bad.json", document.dump());
  const testing::RunResult one = testing::run_sawtag({"tag", "-m", path, "-j", "1"}, "I saw\n");
  const testing::RunResult two = testing::run_sawtag({"tag", "-m", path, "-j", "2"}, "I saw\n");
  testing::check_one_line_error(one, 1, "bad.json: ensemble[0]: truncated");
  CHECK(two.err == one.err);
  CHECK(two.exit_code == one.exit_code);
  CHECK(two.out.empty());
}

}  // namespace sawtag
