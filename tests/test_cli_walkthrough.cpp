// `sawtag walkthrough` end to end: the JSON's identities to 1e-3 and its weights against
// `sawtag attention --float32 -f json`, its tags against `sawtag tag`, on a random model and on
// the shipped models; the terminal view against a golden file and within 80 columns; the HTML
// page as headless Chromium draws it with a word clicked; the command's errors.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "headless_chromium.hpp"
#include "text_count.hpp"
#include "viz/display_text.hpp"
#include "walkthrough_checks.hpp"

namespace {

using sawtag::testing::check_one_line_error;
using sawtag::testing::CliFixture;
using sawtag::testing::count_of;
using sawtag::testing::find_chromium;
using sawtag::testing::read_file;
using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::split_on;

const std::string kEnglishModel = std::string(SAWTAG_SOURCE_DIR) + "/models/en_ewt.json";
const std::string kChineseModel = std::string(SAWTAG_SOURCE_DIR) + "/models/zh_gsd.json";

// The walkthrough's weights equal those `sawtag attention --float32 -f json` writes (7
// significant digits each), layer by layer and head by head.
void check_weights_equal_attention(const nlohmann::json& walk, const std::string& model,
                                   const std::string& text) {
  const RunResult attention =
      run_sawtag({"attention", "--float32", "-m", model, "-f", "json", text});
  REQUIRE(attention.exit_code == 0);
  const auto maps = nlohmann::json::parse(attention.out)["sentences"][0]["layers"];
  REQUIRE(walk["layers"].size() == maps.size());
  for (const auto& layer : walk["layers"]) {
    const std::size_t l = layer["layer"].get<std::size_t>() - 1;
    REQUIRE(layer["heads"].size() == maps[l].size());
    for (const auto& head : layer["heads"]) {
      const std::size_t h = head["head"].get<std::size_t>() - 1;
      sawtag::testing::check_close(sawtag::testing::rows_of(head["weights"]),
                                   sawtag::testing::rows_of(maps[l][h]), 1e-5,
                                   "weights = sawtag attention's");
    }
  }
}

// The UPOS tags `sawtag tag` gives the text: "I/PRON saw/VERB" -> {"PRON", "VERB"}.
std::vector<std::string> tags_of(const std::string& model, const std::string& text, bool float32) {
  std::vector<std::string> args{"tag", "-m", model};
  if (float32) args.push_back("--float32");
  const RunResult result = run_sawtag(args, text + "\n");
  REQUIRE(result.exit_code == 0);
  std::vector<std::string> tags;
  std::string line = result.out.substr(0, result.out.find('\n'));
  for (const std::string& token : split_on(line, ' '))
    tags.push_back(token.substr(token.rfind('/') + 1));
  return tags;
}

// The view with its lines joined, for phrases that a line break may split.
std::string unwrapped(std::string view) {
  for (char& c : view) {
    if (c == '\n') c = ' ';
  }
  return view;
}

// Every line of the terminal view fits 80 columns.
void check_fits_80_columns(const std::string& view) {
  for (const std::string& line : split_on(view, '\n')) {
    INFO(line);
    CHECK(sawtag::viz::display_width(line) <= 80);
  }
}

// The page's DOM after its scripts ran, without the page's scripts.
std::string dom_without_scripts(const std::string& chromium, const std::string& page) {
  const std::string dom = sawtag::testing::rendered_dom(chromium, page);
  return dom.substr(0, dom.find("<script"));
}

}  // namespace

TEST_CASE_METHOD(CliFixture, "walkthrough -f json: every identity to 1e-3, weights and tags",
                 "[walkthrough][cli]") {
  const RunResult result =
      run_sawtag({"walkthrough", "--float32", "-m", model, "-f", "json", "I saw a saw"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto document = nlohmann::json::parse(result.out);
  CHECK(document["words"] == nlohmann::json({"I", "saw", "a", "saw"}));
  REQUIRE(document["layers"].size() == 2);  // tiny_config: 2 layers of 2 heads
  REQUIRE(document["layers"][0]["heads"].size() == 2);
  CHECK(document["layers"][0]["W_o"].size() == 8);
  CHECK(document["layers"][0]["heads"][0]["position_bias"].size() == 4);
  sawtag::testing::check_walkthrough_identities(document, 1e-3);
  check_weights_equal_attention(document, model, "I saw a saw");
  CHECK(document["tags"] == nlohmann::json(tags_of(model, "I saw a saw", true)));
  // The first sentence only.
  const RunResult two = run_sawtag({"walkthrough", "-m", model, "-f", "json", "The dog. I saw"});
  CHECK(nlohmann::json::parse(two.out)["words"] == nlohmann::json({"The", "dog", "."}));
}

TEST_CASE_METHOD(CliFixture, "walkthrough --layer --head: one of each, in every view",
                 "[walkthrough][cli]") {
  const RunResult json = run_sawtag(
      {"walkthrough", "-m", model, "-f", "json", "--layer", "2", "--head", "1", "I saw a saw"});
  REQUIRE(json.exit_code == 0);
  const auto document = nlohmann::json::parse(json.out);
  REQUIRE(document["layers"].size() == 1);
  CHECK(document["layers"][0]["layer"] == 2);
  REQUIRE(document["layers"][0]["heads"].size() == 1);
  CHECK(document["layers"][0]["heads"][0]["head"] == 1);
  sawtag::testing::check_walkthrough_identities(document, 1e-3);
  const RunResult view =
      run_sawtag({"walkthrough", "-m", model, "--layer", "2", "--head", "2", "I saw a saw"});
  CHECK(unwrapped(view.out).find("layer 2 of 2, head 2 of 2, following word 4 \"saw\"") !=
        std::string::npos);
  const std::string page = dir.file("one.html");
  REQUIRE(
      run_sawtag({"walkthrough", "-m", model, "--html", page, "--layer", "2", "I saw"}).exit_code ==
      0);
  const std::string html = read_file(page);
  CHECK(count_of(html, "<option value=") == 1 + 2);  // layer 2 alone, both heads
}

// tests/data/walkthrough-view.txt is the view of the frozen tests/data/tiny-model-v1.json, in
// float32. To rewrite it after a deliberate change of the view:
// SAWTAG_UPDATE_GOLDEN=1 ctest -R "walkthrough terminal view matches".
TEST_CASE("walkthrough terminal view matches its golden file and fits 80 columns",
          "[walkthrough][cli]") {
  const std::string golden = std::string(SAWTAG_TEST_DATA) + "/walkthrough-view.txt";
  const RunResult result =
      run_sawtag({"walkthrough", "--float32", "-m",
                  std::string(SAWTAG_TEST_DATA) + "/tiny-model-v1.json", "I saw a saw"},
                 "", {{"NO_COLOR", "1"}});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  if (std::getenv("SAWTAG_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden, std::ios::binary) << result.out;
  }
  CHECK(result.out == read_file(golden));
  CHECK(result.out.find('\x1b') == std::string::npos);
  check_fits_80_columns(result.out);
}

TEST_CASE_METHOD(CliFixture, "walkthrough terminal view: long words and long sentences fit",
                 "[walkthrough][cli]") {
  std::string sentence = "I saw a " + std::string(120, 'x') + " saw";
  for (int i = 0; i < 15; ++i) sentence += " and a saw";  // 5 + 45 = 50 words
  const RunResult result = run_sawtag({"walkthrough", "-m", model, "--word", "4", sentence});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  check_fits_80_columns(result.out);
  // The n x n tables in blocks of 8 columns, each block under its column labels.
  CHECK(count_of(result.out, "  columns 49-50 of 50:\n") == 3);  // scores, bias, weights
  CHECK(result.out.find("▸ xxxxxx…") != std::string::npos);      // the followed word's rows
}

TEST_CASE("walkthrough terminal view of the shipped model: 80 columns, steps, notes, tag",
          "[walkthrough][cli][shipped]") {
  const RunResult result = run_sawtag(
      {"walkthrough", "--float32", "-m", kEnglishModel, "--color", "never", "I saw a saw"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  check_fits_80_columns(result.out);
  for (const char* step : {"\n1. Input vectors", "\n2. ", "\n3. Queries, keys and values",
                           "\n4. Scores", "\n5. Weights", "\n6. Head output", "\n7. All heads",
                           "\n8. Tag of \"saw\" (word 4): NOUN, probability 0."}) {
    CHECK(result.out.find(step) != std::string::npos);
  }
  // One line each: pre-norm, relative bias, residual, feed-forward, final norm and classifier.
  CHECK(count_of(result.out, "   Model: ") == 5);
  CHECK(result.out.find("W^q  [256\u00a0×\u00a032]") != std::string::npos);  // no-break spaces
  CHECK(result.out.find("All: I/PRON saw/VERB a/DET saw/NOUN") != std::string::npos);
  const RunResult second = run_sawtag(
      {"walkthrough", "-m", kEnglishModel, "--word", "2", "--color", "always", "I saw a saw"});
  CHECK(unwrapped(second.out).find("following word 2 \"saw\"") != std::string::npos);
  CHECK(second.out.find("8. Tag of \"saw\" (word 2): VERB") != std::string::npos);
  CHECK(second.out.find("\x1b[48;5;") != std::string::npos);
}

TEST_CASE("walkthrough -f json of the shipped model: identities, attention's weights, tags",
          "[walkthrough][cli][shipped]") {
  const RunResult result =
      run_sawtag({"walkthrough", "--float32", "-m", kEnglishModel, "-f", "json", "I saw a saw"});
  REQUIRE(result.exit_code == 0);
  const auto document = nlohmann::json::parse(result.out);
  sawtag::testing::check_walkthrough_identities(document, 1e-3);
  check_weights_equal_attention(document, kEnglishModel, "I saw a saw");
  CHECK(document["tags"] == nlohmann::json(tags_of(kEnglishModel, "I saw a saw", true)));
  CHECK(document["tags"] == nlohmann::json({"PRON", "VERB", "DET", "NOUN"}));
}

TEST_CASE("walkthrough with the shipped Chinese model: its tokenizer, ensemble, 80 columns",
          "[walkthrough][cli][shipped][zh]") {
  const std::string text = "我看见一把锯子。";
  const RunResult json =
      run_sawtag({"walkthrough", "--float32", "-m", kChineseModel, "-f", "json", text});
  INFO(json.err);
  REQUIRE(json.exit_code == 0);
  const auto document = nlohmann::json::parse(json.out);
  CHECK(document["model"]["num_taggers"].get<int>() > 1);
  sawtag::testing::check_walkthrough_identities(document, 1e-3);
  check_weights_equal_attention(document, kChineseModel, text);
  CHECK(document["tags"] == nlohmann::json(tags_of(kChineseModel, text, true)));
  const RunResult view = run_sawtag({"walkthrough", "-m", kChineseModel, text});
  REQUIRE(view.exit_code == 0);
  check_fits_80_columns(view.out);
  CHECK(view.out.find("taggers' logits; the steps above are the first's") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "walkthrough errors: usage 2, input 1, one line each",
                 "[walkthrough][cli]") {
  check_one_line_error(run_sawtag({"walkthrough", "-m", model, "--layer", "3", "I saw"}), 2,
                       "--layer: 3: the model has 2 layers");
  check_one_line_error(run_sawtag({"walkthrough", "-m", model, "--head", "3", "I saw"}), 2,
                       "--head: 3: the model has 2 heads per layer");
  check_one_line_error(run_sawtag({"walkthrough", "-m", model, "--word", "0", "I saw"}), 2,
                       "--word: '0': counted from 1");
  check_one_line_error(run_sawtag({"walkthrough", "-m", model, "--word", "9", "I saw a saw"}), 1,
                       "--word 9: the sentence has 4 words");
  std::string long_sentence;
  for (int i = 0; i < 65; ++i) long_sentence += "saw ";  // the window is 64 words
  check_one_line_error(run_sawtag({"walkthrough", "-m", model, long_sentence}), 1,
                       "the sentence has 65 words, more than the model's window of 64");
  check_one_line_error(run_sawtag({"walkthrough", "-m", model, " "}), 1, "the text has no words");
}

TEST_CASE_METHOD(CliFixture, "walkthrough --html: Chromium draws the steps, a click follows a word",
                 "[walkthrough][cli][chromium]") {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    WARN("skipped: chromium not found (scripts/install-deps.sh installs it where Debian has it)");
    return;
  }
  const std::string page = dir.file("saw.html");
  const RunResult result =
      run_sawtag({"walkthrough", "-m", model, "--input", "tokenized", "--html", page, "-"},
                 "I saw <b>x</b> a saw\n");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.empty());  // with --html and no --format, stdout stays quiet
  const std::string before = dom_without_scripts(chromium, page);
  CHECK(count_of(before, "<section class=\"step\"") == 8);
  CHECK(before.find("following word 5 \u201csaw\u201d") != std::string::npos);  // the last
  // "#word=2" clicks word 2 as the page opens.
  const std::string dom = dom_without_scripts(chromium, page + "#word=2");
  CHECK(count_of(dom, "<section class=\"step\"") == 8);
  CHECK(count_of(dom, "token selected") == 1);
  CHECK(dom.find("following word 2 \u201csaw\u201d") != std::string::npos);
  CHECK(dom.find("b2 = ") != std::string::npos);
  CHECK(dom.find("Tag of \u201csaw\u201d (word 2): ") != std::string::npos);
  // Word rows: x, e, a, LN_1 a, q, k, v, scores, bias, weights, b, concat, output: one marked each;
  // and the softmax detail's last row.
  CHECK(count_of(dom, "<tr class=\"followed\">") == 14);
  CHECK(count_of(dom, "class=\"model-note\"") == 5);
  CHECK(dom.find("&lt;b&gt;x&lt;/b&gt;") != std::string::npos);  // the word, as text
  CHECK(dom.find("<b>x") == std::string::npos);                  // never as markup
  // --layer and --head: the page shows that layer and head.
  const std::string one = dir.file("one.html");
  REQUIRE(run_sawtag({"walkthrough", "-m", model, "--layer", "2", "--head", "2", "--html", one,
                      "I saw a saw"})
              .exit_code == 0);
  CHECK(dom_without_scripts(chromium, one).find("Layer 2 of 2, head 2 of 2, following word 4") !=
        std::string::npos);
}
