// `sawtag explain` end to end: the JSON against `sawtag tag --probs`, --tags, --word, the
// terminal view (NO_COLOR on a terminal), sentences longer than the window, and the shipped
// model's answer for "I saw a saw".
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli_fixture.hpp"

namespace {

using sawtag::testing::check_one_line_error;
using sawtag::testing::CliFixture;
using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::shell_output;
using sawtag::testing::TempDir;

// What `command` writes on a terminal: run under script(1), which gives it a pseudo-terminal.
std::string output_on_terminal(const std::string& command) {
  return shell_output("script -qec '" + command + "' /dev/null < /dev/null 2> /dev/null");
}

}  // namespace

TEST_CASE_METHOD(CliFixture, "explain -f json: the schema, upos_prob as tag --probs writes it",
                 "[explain][cli]") {
  const RunResult result =
      run_sawtag({"explain", "-m", model, "-f", "json", "I saw a saw. The dog saw it."});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto document = nlohmann::json::parse(result.out);
  CHECK(document["format"] == "sawtag-explanation");
  const RunResult tagged = tag({"-f", "json", "--probs"}, "I saw a saw. The dog saw it.\n");
  REQUIRE(tagged.exit_code == 0);
  const auto expected = nlohmann::json::parse(tagged.out);
  REQUIRE(document["sentences"].size() == 2);
  REQUIRE(expected.size() == 2);
  for (std::size_t s = 0; s < 2; ++s) {
    const auto& words = document["sentences"][s]["words"];
    const auto& expected_words = expected[s]["words"];
    REQUIRE(words.size() == expected_words.size());
    for (std::size_t i = 0; i < words.size(); ++i) {
      const auto& word = words[i];
      CHECK(word["id"] == i + 1);
      CHECK(word["form"] == expected_words[i]["form"]);
      CHECK(word["upos"] == expected_words[i]["upos"]);
      CHECK(word["upos_prob"] == expected_words[i]["upos_prob"]);
      CHECK(word["self"].contains("drop"));
      // Every other word once, strongest first.
      const auto& influence = word["influence"];
      REQUIRE(influence.size() == words.size() - 1);
      std::set<int> ids;
      for (std::size_t k = 0; k < influence.size(); ++k) {
        ids.insert(influence[k]["id"].get<int>());
        CHECK(influence[k]["form"] == words[influence[k]["id"].get<int>() - 1]["form"]);
        CHECK(sawtag::testing::is_upos(influence[k]["tag_when_masked"]));
        if (k > 0) {
          CHECK(std::fabs(influence[k - 1]["drop"].get<double>()) >=
                std::fabs(influence[k]["drop"].get<double>()));
        }
      }
      CHECK(ids.size() == words.size() - 1);
      CHECK(ids.count(static_cast<int>(i + 1)) == 0);
    }
  }
  // The same bytes on any number of threads.
  for (const char* threads : {"1", "3"}) {
    INFO("-j " << threads);
    const RunResult on_threads = run_sawtag(
        {"explain", "-m", model, "-f", "json", "-j", threads, "I saw a saw. The dog saw it."});
    CHECK(on_threads.exit_code == 0);
    CHECK(on_threads.out == result.out);
  }
}

TEST_CASE_METHOD(CliFixture, "explain: --tags both, --word, -o and the terminal view",
                 "[explain][cli]") {
  const RunResult both = run_sawtag(
      {"explain", "-m", model, "-f", "json", "--tags", "both", "--word", "4", "I saw a saw"});
  INFO(both.err);
  REQUIRE(both.exit_code == 0);
  const auto words = nlohmann::json::parse(both.out)["sentences"][0]["words"];
  REQUIRE(words.size() == 1);
  CHECK(words[0]["id"] == 4);
  CHECK(words[0].contains("xpos_prob"));
  CHECK(words[0]["influence"][0].contains("xpos_when_masked"));

  // --word N: the same word object as when every word is explained (the one-word path).
  const RunResult every = run_sawtag({"explain", "-m", model, "-f", "json", "--tags", "both",
                                      "I saw a saw. The dog saw it in the yard."});
  REQUIRE(every.exit_code == 0);
  const auto all_sentences = nlohmann::json::parse(every.out)["sentences"];
  for (const char* word : {"1", "4"}) {
    for (const char* threads : {"1", "2"}) {
      INFO("--word " << word << " -j " << threads);
      const RunResult one =
          run_sawtag({"explain", "-m", model, "-f", "json", "--tags", "both", "--word", word, "-j",
                      threads, "I saw a saw. The dog saw it in the yard."});
      REQUIRE(one.exit_code == 0);
      const auto sentences = nlohmann::json::parse(one.out)["sentences"];
      REQUIRE(sentences.size() == 2);
      for (std::size_t s = 0; s < 2; ++s) {
        REQUIRE(sentences[s]["words"].size() == 1);
        CHECK(sentences[s]["words"][0] == all_sentences[s]["words"][std::stoul(word) - 1]);
      }
    }
  }

  const std::string path = dir.file("explained.txt");
  const RunResult view =
      run_sawtag({"explain", "-m", model, "--word", "2", "-o", path, "I saw a saw"});
  REQUIRE(view.exit_code == 0);
  const std::string text = sawtag::testing::read_file(path);
  CHECK(text.rfind("sentence 1: I saw a saw\n", 0) == 0);
  CHECK(text.find("\n2 saw  ") != std::string::npos);
  CHECK(text.find("its own form masked") != std::string::npos);
  CHECK(text.find(" then ") != std::string::npos);
  CHECK(text.find('\x1b') == std::string::npos);

  const RunResult colours =
      run_sawtag({"explain", "-m", model, "--color", "always", "I saw a saw"});
  CHECK(colours.out.find("\x1b[38;5;") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "explain on a terminal: colours unless NO_COLOR", "[explain][cli]") {
  if (std::system("command -v script > /dev/null 2>&1") != 0) {
    WARN("skipped: script(1) not found");
    return;
  }
  const std::string command = std::string(SAWTAG_BINARY) + " explain -m " + model + " I saw a saw";
  const std::string coloured = output_on_terminal(command);
  INFO(coloured);
  REQUIRE(coloured.find("its own form masked") != std::string::npos);
  CHECK(coloured.find("\x1b[38;5;") != std::string::npos);
  const std::string plain = output_on_terminal("NO_COLOR=1 " + command);
  REQUIRE(plain.find("its own form masked") != std::string::npos);
  CHECK(plain.find("\x1b[") == std::string::npos);
}

TEST_CASE("explain: a sentence longer than the model's window is refused", "[explain][cli]") {
  TempDir dir;
  sawtag::ModelConfig config = sawtag::testing::tiny_config();
  config.max_sequence_length = 6;
  const std::string model = dir.file("short-window.json");
  sawtag::save_model(sawtag::testing::make_random_model(config), model);
  const RunResult fits =
      run_sawtag({"explain", "-m", model, "--input", "tokenized", "-"}, "a b c d e f\n");
  CHECK(fits.exit_code == 0);
  const RunResult refused =
      run_sawtag({"explain", "-m", model, "--input", "tokenized", "-"}, "I saw\na b c d e f g\n");
  check_one_line_error(refused, 1, "sentence 2: 7 words, more than the model's window of 6");
}

TEST_CASE_METHOD(CliFixture, "explain: errors are one line", "[explain][cli]") {
  check_one_line_error(run_sawtag({"explain", "-m", model, "--word", "5", "I saw a saw"}), 1,
                       "sentence 1: --word 5: the sentence has 4 words");
  check_one_line_error(run_sawtag({"explain", "-m", model, "--word", "0", "I saw"}), 2, "--word");
  check_one_line_error(run_sawtag({"explain", "-m", model, "-f", "xml", "I saw"}), 2, "--format");
  check_one_line_error(run_sawtag({"explain", "-m", model, "--file", dir.file("no.txt")}), 1,
                       "no.txt");
}

TEST_CASE("explain with the shipped model: the second 'saw' is a NOUN because of 'a'",
          "[explain][cli][shipped]") {
  const std::string shipped = std::string(SAWTAG_SOURCE_DIR) + "/models/en_ewt.json";
  if (!std::filesystem::exists(shipped)) {
    WARN("skipped: " << shipped << " not found");
    return;
  }
  const RunResult result = run_sawtag({"explain", "-m", shipped, "-f", "json", "I saw a saw"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto words = nlohmann::json::parse(result.out)["sentences"][0]["words"];
  REQUIRE(words.size() == 4);
  CHECK(words[1]["upos"] == "VERB");
  CHECK(words[3]["upos"] == "NOUN");
  CHECK(words[3]["influence"][0]["form"] == "a");
  CHECK(words[3]["influence"][0]["drop"].get<double>() > 0);
  const RunResult tagged =
      run_sawtag({"tag", "-m", shipped, "-f", "json", "--probs"}, "I saw a saw\n");
  CHECK(words[3]["upos_prob"] == nlohmann::json::parse(tagged.out)[0]["words"][3]["upos_prob"]);
}
