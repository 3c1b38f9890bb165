// `sawtag tag --tags` with the lemma and FEATS columns, on a random tiny model with those heads.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>

#include "cli_fixture.hpp"
#include "sawtag/lemma_rule.hpp"

namespace sawtag::testing {
namespace {

// The fixture's model plus random FEATS and lemma heads.
struct MorphologyFixture : CliFixture {
  std::string morphology_model;
  MorphologyFixture() {
    Model tiny = make_random_model();
    tiny.feats = Vocabulary({"_", "Number=Plur", "Mood=Ind|Tense=Past"}, "feats");
    tiny.lemma_rules = Vocabulary({"keep|0||0|", "lower|0||0|", "keep|0||1|"}, "lemma rules");
    tiny.lemma_lexicon = {{"saw", "VERB", "VBD", "see"}};
    sync_vocabulary_sizes(tiny);
    const Parameters shapes = zero_parameters(tiny.config);
    tiny.parameters.heads.feats = shapes.heads.feats;
    tiny.parameters.heads.lemma = shapes.heads.lemma;
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
    for (Tensor* tensor :
         {&tiny.parameters.heads.feats.weight, &tiny.parameters.heads.lemma.weight}) {
      for (float& value : tensor->data) value = uniform(rng);
    }
    morphology_model = dir.file("tiny-morphology.json");
    save_model(tiny, morphology_model);
  }
  RunResult tag_with_heads(std::vector<std::string> args, const std::string& input) const {
    args.insert(args.begin(), {"tag", "-m", morphology_model});
    return run_sawtag(args, input);
  }
};

const std::vector<std::string> kFeats{"_", "Number=Plur", "Mood=Ind|Tense=Past"};

bool is_feats(const std::string& feats) {
  return std::find(kFeats.begin(), kFeats.end(), feats) != kFeats.end();
}

// What one of the model's rules (or the fallback, the form) can make of `form`.
bool is_lemma_of(const std::string& lemma, const std::string& form) {
  return lemma == form || lemma == lower_case(form) || lemma + form.back() == form ||
         (form == "saw" && lemma == "see");
}

}  // namespace

TEST_CASE_METHOD(MorphologyFixture, "tag --tags all fills LEMMA, UPOS, XPOS and FEATS of CoNLL-U",
                 "[cli][morphology]") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-f", "conllu", "--tags", "all"},
        std::vector<std::string>{"-f", "conllu"}}) {  // CoNLL-U's default: every column
    const RunResult result = tag_with_heads(args, "I saw the dogs\n");
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    int words = 0;
    for (const std::string& line : split_lines(result.out)) {
      if (line.empty() || line[0] == '#') continue;
      const auto columns = split_on(line, '\t');
      REQUIRE(columns.size() == 10);
      ++words;
      CHECK(is_lemma_of(columns[2], columns[1]));
      CHECK(is_upos(columns[3]));
      CHECK(columns[4] != "_");
      CHECK(is_feats(columns[5]));
    }
    CHECK(words == 4);
  }
}

TEST_CASE_METHOD(MorphologyFixture, "json, tsv and text write the columns asked for",
                 "[cli][morphology]") {
  SECTION("json: lemma and feats with their probabilities, no UPOS") {
    const RunResult result =
        tag_with_heads({"-f", "json", "--tags", "lemma,feats", "--probs"}, "I saw the dogs\n");
    REQUIRE(result.exit_code == 0);
    const auto sentences = nlohmann::json::parse(result.out);
    for (const auto& word : sentences.at(0).at("words")) {
      CHECK_FALSE(word.contains("upos"));
      CHECK(is_lemma_of(word.at("lemma").get<std::string>(), word.at("form").get<std::string>()));
      CHECK(is_feats(word.at("feats").get<std::string>()));
      CHECK(word.at("lemma_prob").get<double>() > 0.0);
      CHECK(word.at("feats_prob").get<double>() > 0.0);
      CHECK(word.at("feats_prob").get<double>() <= 1.0);
    }
  }
  SECTION("tsv: words, UPOS, XPOS, lemmas, feats") {
    const RunResult result = tag_with_heads({"-f", "tsv", "--tags", "all"}, "I saw\n");
    REQUIRE(result.exit_code == 0);
    const auto columns = split_on(split_lines(result.out).at(0), '\t');
    REQUIRE(columns.size() == 5);
    CHECK(columns[0] == "I saw");
    CHECK(split_on(columns[3], ' ').size() == 2);
    for (const std::string& feats : split_on(columns[4], ' ')) CHECK(is_feats(feats));
  }
  SECTION("text: word/UPOS/lemma") {
    const RunResult result = tag_with_heads({"--tags", "upos,lemma"}, "Dogs\n");
    REQUIRE(result.exit_code == 0);
    const auto parts = split_on(split_lines(result.out).at(0), '/');
    REQUIRE(parts.size() == 3);
    CHECK(is_upos(parts[1]));
    CHECK(is_lemma_of(parts[2], "Dogs"));
  }
}

TEST_CASE_METHOD(MorphologyFixture, "The lexicon's lemma wins where its form and tags match",
                 "[cli][morphology]") {
  const RunResult result = tag_with_heads({"-f", "json", "--tags", "all"}, "I saw\n");
  REQUIRE(result.exit_code == 0);
  const auto word = nlohmann::json::parse(result.out).at(0).at("words").at(1);
  if (word.at("upos") == "VERB" && word.at("xpos") == "VBD") {
    CHECK(word.at("lemma") == "see");
  } else {
    CHECK(word.at("lemma") != "see");
  }
}

TEST_CASE_METHOD(MorphologyFixture, "tag --tags refuses unknown names and heads the model lacks",
                 "[cli][morphology]") {
  check_one_line_error(tag({"--tags", "lemma"}, "I saw\n"), 1, "no lemma head");
  check_one_line_error(tag({"--tags", "upos,feats"}, "I saw\n"), 1, "no FEATS head");
  const RunResult unknown = tag({"--tags", "upos,lemmas"}, "I saw\n");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("'lemmas' is not one of") != std::string::npos);
  // A model without the heads: "all" is what it predicts, CoNLL-U's LEMMA and FEATS stay "_".
  const RunResult all = tag({"-f", "conllu", "--tags", "all"}, "I saw\n");
  REQUIRE(all.exit_code == 0);
  for (const std::string& line : split_lines(all.out)) {
    if (line.empty() || line[0] == '#') continue;
    const auto columns = split_on(line, '\t');
    CHECK(columns[2] == "_");
    CHECK(columns[4] != "_");
    CHECK(columns[5] == "_");
  }
}

}  // namespace sawtag::testing
