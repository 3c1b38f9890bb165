// `sawtag attention` end to end: the JSON (the attention file's schema, as `tag --attention`
// writes it), the terminal view against a golden file, the HTML page as headless Chromium
// draws it, the SVG, and the command's errors.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "headless_chromium.hpp"
#include "text_count.hpp"

namespace {

using sawtag::testing::check_one_line_error;
using sawtag::testing::CliFixture;
using sawtag::testing::count_of;
using sawtag::testing::find_chromium;
using sawtag::testing::read_file;
using sawtag::testing::rendered_dom;
using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::TempDir;

// Every sentence has layers x heads maps of n x n weights, each row summing to 1 within 1e-5.
void check_attention_document(const nlohmann::json& document, std::size_t layers,
                              std::size_t heads) {
  REQUIRE(document["format"] == "sawtag-attention");
  for (const auto& sentence : document["sentences"]) {
    const std::size_t n = sentence["words"].size();
    REQUIRE(sentence["tags"].size() == n);
    REQUIRE(sentence["layers"].size() == layers);
    for (const auto& layer : sentence["layers"]) {
      REQUIRE(layer.size() == heads);
      for (const auto& head : layer) {
        REQUIRE(head.size() == n);
        for (const auto& row : head) {
          REQUIRE(row.size() == n);
          double sum = 0;
          for (const auto& weight : row) sum += weight.get<double>();
          CHECK(sum == Approx(1.0).margin(1e-5));
        }
      }
    }
  }
}

// The number of cells in each <div class="heatmap"> of the DOM, in order (the page's scripts,
// at its end, are not looked at).
std::vector<std::size_t> cells_per_heatmap(const std::string& whole_dom) {
  const std::string dom = whole_dom.substr(0, whole_dom.find("<script"));
  const std::string start = "<div class=\"heatmap\"";
  std::vector<std::size_t> counts;
  std::size_t at = dom.find(start);
  while (at != std::string::npos) {
    const std::size_t next = dom.find(start, at + start.size());
    const std::size_t end = std::min(next, dom.find("class=\"lines-view\"", at));
    counts.push_back(count_of(dom.substr(at, end - at), "class=\"cell\""));
    at = next;
  }
  return counts;
}

// A random model like CliFixture's, but with room for 256 words in one window.
std::string save_long_window_model(const TempDir& dir) {
  sawtag::ModelConfig config = sawtag::testing::tiny_config();
  config.max_sequence_length = 256;
  const std::string path = dir.file("long-model.json");
  sawtag::save_model(sawtag::testing::make_random_model(config), path);
  return path;
}

}  // namespace

TEST_CASE_METHOD(CliFixture, "attention --format json: layers x heads x n x n, rows sum to 1",
                 "[attention][cli]") {
  const RunResult result =
      run_sawtag({"attention", "-m", model, "-f", "json", "I saw a saw. The dog saw it."});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto document = nlohmann::json::parse(result.out);
  REQUIRE(document["sentences"].size() == 2);
  CHECK(document["sentences"][0]["words"] == nlohmann::json({"I", "saw", "a", "saw", "."}));
  CHECK(document["sentences"][1]["sent_id"] == "2");
  check_attention_document(document, 2, 2);  // tiny_config: 2 layers of 2 heads

  // The TEXT arguments first, then each --file (which takes one file, not the text after it).
  const std::string file = dir.write("more.txt", "I saw a saw.\n");
  const RunResult both =
      run_sawtag({"attention", "-m", model, "-f", "json", "--file", file, "The dog"});
  const auto sentences = nlohmann::json::parse(both.out)["sentences"];
  REQUIRE(sentences.size() == 2);
  CHECK(sentences[0]["words"] == nlohmann::json({"The", "dog"}));
}

TEST_CASE_METHOD(CliFixture, "attention --format json and tag --attention write the same file",
                 "[attention][cli]") {
  const std::string text = "I saw a saw.\nThe dog saw it. I don't see.\n";
  const std::string from_tag = dir.file("tag.json");
  REQUIRE(tag({"--attention", from_tag, "-o", dir.file("tags.txt")}, text).exit_code == 0);
  const RunResult from_stdin = run_sawtag({"attention", "-m", model, "-f", "json", "-"}, text);
  REQUIRE(from_stdin.exit_code == 0);
  CHECK(from_stdin.out == read_file(from_tag));
  const std::string file = dir.write("text.txt", text);
  const RunResult from_file = run_sawtag({"attention", "-m", model, "-f", "json", "--file", file});
  CHECK(from_file.out == read_file(from_tag));
  check_attention_document(nlohmann::json::parse(from_file.out), 2, 2);
}

// tests/data/attention-view.txt is the view of a frozen model (tests/data/tiny-model-v1.json),
// so retraining the shipped model never changes it, computed in float32 so that it does not
// depend on the CPU (bfloat16 AMX). To rewrite it after a deliberate change of
// the view: SAWTAG_UPDATE_GOLDEN=1 ctest -R "attention terminal view matches".
TEST_CASE("attention terminal view matches its golden file (NO_COLOR)", "[attention][cli]") {
  const std::string golden = std::string(SAWTAG_TEST_DATA) + "/attention-view.txt";
  const RunResult result = run_sawtag(
      {"attention", "--float32", "-m", std::string(SAWTAG_TEST_DATA) + "/tiny-model-v1.json",
       "I saw a saw. The dog saw it."},
      "", {{"NO_COLOR", "1"}});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  if (std::getenv("SAWTAG_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden, std::ios::binary) << result.out;
  }
  CHECK(result.out == read_file(golden));
  CHECK(result.out.find('\x1b') == std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "attention terminal view: --color always, --layer, --head, --words",
                 "[attention][cli]") {
  const RunResult colours =
      run_sawtag({"attention", "-m", model, "--color", "always", "I saw a saw"});
  CHECK(colours.out.find("\x1b[48;5;") != std::string::npos);
  const RunResult chosen =
      run_sawtag({"attention", "-m", model, "--layer", "1", "--head", "2", "I saw a saw"});
  CHECK(chosen.out.find("layer 1 of 2, head 2 of 2") != std::string::npos);
  std::string long_sentence;
  for (int i = 0; i < 50; ++i) long_sentence += "saw ";
  const RunResult windowed = run_sawtag({"attention", "-m", model, long_sentence});
  CHECK(windowed.out.find("words 1-40 of 50 shown") != std::string::npos);
  CHECK(windowed.out.find("--words FROM-TO") != std::string::npos);
  const RunResult later = run_sawtag({"attention", "-m", model, "--words", "41-50", long_sentence});
  CHECK(later.out.find("words 41-50 of 50 shown") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "attention --svg: one standalone heat map", "[attention][cli]") {
  const std::string svg = dir.file("saw.svg");
  const RunResult result = run_sawtag(
      {"attention", "-m", model, "--svg", svg, "--sentence", "2", "I saw. A <b>x</b> saw"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.empty());  // with --svg and no --format, stdout stays quiet
  const std::string picture = read_file(svg);
  CHECK(picture.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(picture.find("<b>") == std::string::npos);
  CHECK(picture.find("&lt;") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "attention errors: usage 2, input 1, one line each",
                 "[attention][cli]") {
  check_one_line_error(run_sawtag({"attention", "-m", model, "--layer", "3", "I saw"}), 2,
                       "--layer: 3: the model has 2 layers");
  check_one_line_error(run_sawtag({"attention", "-m", model, "--head", "3", "I saw"}), 2,
                       "--head: 3: the model has 2 heads per layer");
  check_one_line_error(run_sawtag({"attention", "-m", model, "--head", "0", "I saw"}), 2,
                       "--head: '0': counted from 1");
  check_one_line_error(run_sawtag({"attention", "-m", model, "--words", "9-2", "I saw"}), 2,
                       "--words");
  check_one_line_error(
      run_sawtag({"attention", "-m", model, "--svg", dir.file("x.svg"), "--sentence", "2", "I"}), 2,
      "--sentence: 2: the input has 1 sentences");
  check_one_line_error(run_sawtag({"attention", "-m", model, "--file", dir.file("no.txt")}), 1,
                       "no.txt: cannot open");
}

TEST_CASE_METHOD(CliFixture, "attention --html: Chromium draws layers x heads maps of n^2 cells",
                 "[attention][cli][chromium]") {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    WARN("skipped: chromium not found (scripts/install-deps.sh installs it where Debian has it)");
    return;
  }
  const std::string page = dir.file("saw.html");
  const RunResult result =
      run_sawtag({"attention", "-m", model, "--input", "tokenized", "--html", page, "-"},
                 "I saw <b>x</b> a saw\nthe dog\n");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const std::string dom = rendered_dom(chromium, page);
  REQUIRE(!dom.empty());
  CHECK(count_of(dom, "<section class=\"sentence\"") == 2);
  const std::vector<std::size_t> cells = cells_per_heatmap(dom);
  REQUIRE(cells.size() == 2 * (2 * 2));  // two sentences, 2 layers x 2 heads each
  for (std::size_t map = 0; map < 4; ++map) CHECK(cells[map] == 5 * 5);
  for (std::size_t map = 4; map < 8; ++map) CHECK(cells[map] == 2 * 2);
  CHECK(dom.find("&lt;b&gt;x&lt;/b&gt;") != std::string::npos);  // the word, as text
  CHECK(dom.find("<b>") == std::string::npos);                   // never as markup
  CHECK(count_of(dom, "<line ") > 0);                            // the lines view
}

TEST_CASE_METHOD(CliFixture, "attention --html: clicking a word shows its explanation",
                 "[attention][explain][cli][chromium]") {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    WARN("skipped: chromium not found (scripts/install-deps.sh installs it where Debian has it)");
    return;
  }
  const std::string page = dir.file("explained.html");
  const RunResult result =
      run_sawtag({"attention", "-m", model, "--input", "tokenized", "--html", page, "-"},
                 "I saw <b>x</b> a saw\nthe dog\n");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  // Before a click: every word is clickable, the panel only invites a click.
  const std::string before = rendered_dom(chromium, page);
  const std::string before_words = before.substr(0, before.find("<script"));
  CHECK(count_of(before_words, "token explainable") == 5 + 2);
  CHECK(count_of(before_words, "class=\"explanation-view\"") == 2);
  CHECK(count_of(before_words, "class=\"influence-row\"") == 0);
  // "#explain=1-5" clicks word 5 ("saw") of sentence 1 as the page opens.
  const std::string after = rendered_dom(chromium, page + "#explain=1-5");
  const std::string dom = after.substr(0, after.find("<script"));
  CHECK(count_of(dom, "token explainable selected") == 1);
  CHECK(count_of(dom, "class=\"influence-row\"") == 4);  // the four other words
  CHECK(dom.find("\u201csaw\u201d (word 5) is ") != std::string::npos);
  CHECK(dom.find("<span class=\"influence-word\">&lt;b&gt;x&lt;/b&gt;</span>") !=
        std::string::npos);                     // the word, as text
  CHECK(dom.find("<b>") == std::string::npos);  // never as markup
  CHECK(count_of(dom, "class=\"influence-bar") == 4);
  CHECK(dom.find("Its own form masked: ") != std::string::npos);
}

TEST_CASE("attention --html: a 200-word sentence is drawn and scrolls",
          "[attention][cli][chromium]") {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    WARN("skipped: chromium not found (scripts/install-deps.sh installs it where Debian has it)");
    return;
  }
  TempDir dir;
  const std::string model = save_long_window_model(dir);
  std::string sentence;
  for (int i = 0; i < 200; ++i) sentence += (i % 2 == 0 ? "saw " : "dog ");
  const std::string page = dir.file("long.html");
  const RunResult result = run_sawtag({"attention", "-m", model, "--html", page, sentence});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const std::string dom = rendered_dom(chromium, page);
  const std::vector<std::size_t> cells = cells_per_heatmap(dom);
  REQUIRE(!cells.empty());  // the shown map at least; the others when selected
  CHECK(cells.back() == 200 * 200);
  CHECK(read_file(page).find(".heatmaps { max-width: 100%; overflow: auto; }") !=
        std::string::npos);
}
