// The views of an explanation (sawtag/explanation_view.hpp): the JSON of `sawtag explain -f
// json`, the terminal bars, and the explanation data of the attention page; words escaped in
// each. (The page's panel as a browser draws it: test_cli_attention.cpp, headless Chromium.)
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "sawtag/error.hpp"
#include "sawtag/explanation_view.hpp"
#include "text_count.hpp"

namespace {

using sawtag::testing::count_of;

const char* const kForms[] = {"I", "<b>\"x\x1b[31m", "saw"};

// "I <b>"x<ESC>[31m saw" tagged PRON X VERB (PRP FW VBD); drops of word 2 ("saw"): masking "I"
// 0.25 (then NOUN), the odd word -0.5 (then VERB), itself 0.125 (then VERB).
struct Example {
  sawtag::Sentence sentence;
  sawtag::SentenceExplanation explanation;
  Example() {
    const char* const upos[] = {"PRON", "X", "VERB"};
    const char* const xpos[] = {"PRP", "FW", "VBD"};
    explanation.num_words = 3;
    explanation.occlusions.resize(9);
    for (int i = 0; i < 3; ++i) {
      sawtag::Word word;
      word.form = kForms[i];
      sentence.words.push_back(word);
      sawtag::WordTags tags;
      tags.upos = upos[i];
      tags.xpos = xpos[i];
      tags.upos_probability = 0.75f;
      tags.xpos_probability = 0.5f;
      explanation.tags.words.push_back(tags);
      for (int j = 0; j < 3; ++j) {
        explanation.occlusions[i * 3 + j].upos_when_masked = upos[i];
        explanation.occlusions[i * 3 + j].xpos_when_masked = xpos[i];
      }
    }
    sentence.comments.push_back("# sent_id = 1");
    sawtag::Occlusion* saw = &explanation.occlusions[6];
    saw[0] = {0.25f, 0.0625f, "NOUN", "NN"};
    saw[1] = {-0.5f, 0.375f, "VERB", "VBD"};
    saw[2] = {0.125f, 0.25f, "VERB", "VBD"};
  }
};

std::string json_of(const Example& example, const sawtag::ExplanationViewOptions& options) {
  std::ostringstream out;
  sawtag::ExplanationWriter writer(out, options);
  writer.write(example.sentence, example.explanation);
  writer.finish();
  return out.str();
}

std::string view_of(const Example& example, const sawtag::ExplanationViewOptions& options) {
  std::ostringstream out;
  sawtag::write_explanation_view(out, example.sentence, example.explanation, 1, options);
  return out.str();
}

}  // namespace

TEST_CASE("explain JSON: the schema, strongest first, the word escaped", "[explain]") {
  const Example example;
  const auto document = nlohmann::json::parse(json_of(example, {}));
  CHECK(document["format"] == "sawtag-explanation");
  CHECK(document["version"] == 1);
  REQUIRE(document["sentences"].size() == 1);
  const auto& sentence = document["sentences"][0];
  CHECK(sentence["sent_id"] == "1");
  REQUIRE(sentence["words"].size() == 3);
  const auto& saw = sentence["words"][2];
  CHECK(saw["id"] == 3);
  CHECK(saw["form"] == "saw");
  CHECK(saw["upos"] == "VERB");
  CHECK(saw["upos_prob"] == 0.75);
  CHECK(!saw.contains("xpos"));
  CHECK(saw["self"] == nlohmann::json({{"drop", 0.125}, {"tag_when_masked", "VERB"}}));
  REQUIRE(saw["influence"].size() == 2);
  CHECK(saw["influence"][0] ==
        nlohmann::json(
            {{"id", 2}, {"form", kForms[1]}, {"drop", -0.5}, {"tag_when_masked", "VERB"}}));
  CHECK(saw["influence"][1]["id"] == 1);
  CHECK(saw["influence"][1]["drop"] == 0.25);
  CHECK(saw["influence"][1]["tag_when_masked"] == "NOUN");
}

TEST_CASE("explain JSON: --tags both and xpos, one --word", "[explain]") {
  const Example example;
  sawtag::ExplanationViewOptions options;
  options.tags = sawtag::TagColumns::both;
  options.word = 2;
  auto words = nlohmann::json::parse(json_of(example, options))["sentences"][0]["words"];
  REQUIRE(words.size() == 1);
  CHECK(words[0]["xpos"] == "VBD");
  CHECK(words[0]["xpos_prob"] == 0.5);
  CHECK(words[0]["influence"][0]["id"] == 2);  // ordered by the UPOS drop
  CHECK(words[0]["influence"][0]["xpos_drop"] == 0.375);
  CHECK(words[0]["influence"][0]["xpos_when_masked"] == "VBD");
  CHECK(words[0]["influence"][0]["drop"] == -0.5);

  options.tags = sawtag::TagColumns::xpos;
  words = nlohmann::json::parse(json_of(example, options))["sentences"][0]["words"];
  CHECK(!words[0].contains("upos"));
  CHECK(!words[0]["influence"][0].contains("drop"));
  CHECK(words[0]["influence"][0]["xpos_drop"] == 0.375);  // ordered by the XPOS drop
  CHECK(words[0]["influence"][1]["xpos_drop"] == 0.0625);

  options.word = 3;
  CHECK_THROWS_AS(json_of(example, options), sawtag::InputError);
  CHECK_THROWS_WITH(json_of(example, options), "--word 4: the sentence has 3 words");
}

TEST_CASE("explain terminal view: tags, bars strongest first, signs without colour", "[explain]") {
  const Example example;
  sawtag::ExplanationViewOptions options;
  options.word = 2;
  const std::string view = view_of(example, options);
  INFO(view);
  CHECK(view.find("sentence 1: I <b>\"x\xEF\xBF\xBD[31m saw\n") == 0);  // ESC replaced
  CHECK(view.find('\x1b') == std::string::npos);
  CHECK(view.find("3 saw  VERB 0.750; its own form masked: drop +0.125, then VERB\n") !=
        std::string::npos);
  const std::size_t odd = view.find("-0.500 ");
  const std::size_t first = view.find("+0.250 ");
  REQUIRE(odd != std::string::npos);
  REQUIRE(first != std::string::npos);
  CHECK(odd < first);                                       // |-0.5| first
  CHECK(view.find("+0.250 ██████ ") != std::string::npos);  // 0.25 of 24 columns
  CHECK(view.find("-0.500 ░░░░░░░░░░░░ ") != std::string::npos);
  CHECK(view.find("then NOUN") != std::string::npos);
  CHECK(count_of(view, "its own form masked") == 1);

  options.shading = sawtag::Shading::colors256;
  options.word = sawtag::kEveryWord;
  const std::string coloured = view_of(example, options);
  CHECK(count_of(coloured, "its own form masked") == 3);
  CHECK(coloured.find("\x1b[38;5;25m██████\x1b[0m") != std::string::npos);
  CHECK(coloured.find("\x1b[38;5;160m░") != std::string::npos);
}

TEST_CASE("explain on the attention page: the explanations as JSON, escaped", "[explain]") {
  const Example example;
  sawtag::TagResult result = example.explanation.tags;
  result.attention.num_layers = 1;
  result.attention.num_heads = 1;
  result.attention.num_words = 3;
  result.attention.weights.assign(9, 1.0f / 3);
  const std::vector<sawtag::SentenceExplanation> explanations{example.explanation};
  sawtag::HtmlPageOptions options;
  options.explanations = &explanations;
  std::ostringstream out;
  sawtag::write_attention_page(out, {{&example.sentence, &result}}, options);
  const std::string page = out.str();
  CHECK(page.find("id=\"sawtag-explanations\"") != std::string::npos);
  CHECK(page.find("\"xpos_when_masked\":\"NN\"") != std::string::npos);  // --tags both
  CHECK(page.find("<b>") == std::string::npos);
  CHECK(page.find('\x1b') == std::string::npos);  // JSON escapes it as \u001b
  CHECK(page.find("Click a word") != std::string::npos);

  std::ostringstream without;
  sawtag::write_attention_page(without, {{&example.sentence, &result}}, {});
  CHECK(without.str().find("id=\"sawtag-explanations\"") == std::string::npos);
}
