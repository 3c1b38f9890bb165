// The lemma and FEATS heads: learned from a treebank's columns, predicted, saved, added to a
// model that lacks them (train --base), calibrated.
#include <catch2/catch.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "sawtag/error.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/training.hpp"
#include "tiny_training.hpp"
#include "train/morphology_targets.hpp"

namespace sawtag {
namespace {

Sentence gold(const std::string& line) { return testing::gold_with_morphology(line); }

// Made-up features (Zork, Blip) that no real treebank has, so nothing is English-specific.
std::vector<Sentence> tiny_treebank() {
  return {
      gold("Blips/NOUN/NNS/blip/Zork=Many zorked/VERB/VBD/zork/Blip=Past|Zork=Many ./PUNCT/././_"),
      gold("The/DET/DT/the/Kind=Art blip/NOUN/NN/blip/Zork=One "
           "zorks/VERB/VBZ/zork/Blip=Now|Zork=One"),
      gold("A/DET/DT/a/Kind=Art zork/NOUN/NN/zork/Zork=One "
           "blipped/VERB/VBD/blip/Blip=Past|Zork=One"),
      gold("Zorks/NOUN/NNS/zork/Zork=Many blip/VERB/VBP/blip/Blip=Now|Zork=Many ./PUNCT/././_"),
      gold("The/DET/DT/the/Kind=Art zorks/NOUN/NNS/zork/Zork=Many "
           "went/VERB/VBD/go/Blip=Past|Zork=Many"),
      gold("A/DET/DT/a/Kind=Art blip/NOUN/NN/blip/Zork=One went/VERB/VBD/go/Blip=Past|Zork=One "
           "./PUNCT/././_"),
  };
}

TrainOptions tiny_options() {
  TrainOptions options = testing::tiny_train_options();
  options.min_lemma_rule_count = 1;
  options.epochs = 60;
  options.threads = 1;
  options.seed = 7;
  return options;
}

// Share of the treebank's words whose lemma and FEATS string the tagger gets right.
std::pair<double, double> lemma_and_feats_accuracy(const Tagger& tagger,
                                                   const std::vector<Sentence>& treebank) {
  std::size_t words = 0, lemmas = 0, feats = 0;
  for (const Sentence& sentence : treebank) {
    const TagResult result = tagger.tag(word_forms(sentence));
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
      ++words;
      lemmas += result.words[i].lemma == sentence.words[i].lemma;
      feats += result.words[i].feats == sentence.words[i].feats;
    }
  }
  return {100.0 * lemmas / words, 100.0 * feats / words};
}

}  // namespace

TEST_CASE("FEATS strings are put in UD's order: by name, case-insensitively", "[morphology]") {
  CHECK(train::canonical_feats("Number=Plur|Case=Nom") == "Case=Nom|Number=Plur");
  CHECK(train::canonical_feats("number=Plur|Case=Nom|abbr=Yes") == "abbr=Yes|Case=Nom|number=Plur");
  CHECK(train::canonical_feats("_") == "_");
  CHECK(train::canonical_feats("Mood=Ind") == "Mood=Ind");
}

TEST_CASE("A treebank with made-up features and lemmas trains both heads", "[morphology]") {
  const auto treebank = tiny_treebank();
  const Model model = train_model(treebank, treebank, tiny_options());
  REQUIRE(model.has_feats());
  REQUIRE(model.has_lemmas());
  CHECK(model.feats.find("Blip=Past|Zork=Many") >= 0);
  CHECK(model.feats.find("_") >= 0);
  const Tagger tagger(std::make_shared<const Model>(model));
  const auto [lemmas, feats] = lemma_and_feats_accuracy(tagger, treebank);
  CHECK(lemmas == Approx(100.0));
  CHECK(feats == Approx(100.0));
  TagOptions with_probabilities;
  with_probabilities.morphology_probabilities = true;
  const TagResult result = tagger.tag({"Blips", "blipped", "."}, with_probabilities);
  CHECK(result.words[0].lemma == "blip");
  CHECK(result.words[0].feats == "Zork=Many");
  CHECK(result.words[1].lemma_probability > 0.0f);
  CHECK(result.words[1].lemma_probability <= 1.0f);
  CHECK(result.words[1].feats_probability > 0.0f);
  CHECK(tagger.tag({"Blips"}).words[0].lemma_probability == 0.0f);  // only when asked
  CHECK(result.words[2].feats == "_");

  SECTION("without TagOptions::morphology: no lemmas or FEATS, the same tags") {
    TagOptions tags_only;
    tags_only.morphology = false;
    tags_only.top_k = 3;
    TagOptions everything = tags_only;
    everything.morphology = true;
    for (const Sentence& sentence : treebank) {
      const TagResult fast = tagger.tag(word_forms(sentence), tags_only);
      const TagResult full = tagger.tag(word_forms(sentence), everything);
      for (std::size_t i = 0; i < sentence.words.size(); ++i) {
        CHECK(fast.words[i].lemma.empty());
        CHECK(fast.words[i].feats.empty());
        CHECK_FALSE(full.words[i].lemma.empty());
        CHECK(fast.words[i].upos == full.words[i].upos);
        CHECK(fast.words[i].xpos == full.words[i].xpos);
        CHECK(fast.words[i].upos_probability == full.words[i].upos_probability);
        CHECK(fast.words[i].xpos_top.size() == full.words[i].xpos_top.size());
      }
    }
  }

  SECTION("the heads survive saving, in every encoding, as version 6") {
    for (TensorEncoding encoding : {TensorEncoding::base64, TensorEncoding::json_array,
                                    TensorEncoding::base64_float16_int8_words}) {
      const std::string text = serialize_model(model, encoding);
      CHECK(text.find("\"version\": 6") != std::string::npos);
      const auto loaded = std::make_shared<const Model>(parse_model(text, "m.json"));
      CHECK(loaded->feats.items() == model.feats.items());
      CHECK(loaded->lemma_rules.items() == model.lemma_rules.items());
      CHECK(loaded->calibration.lemma_temperature == model.calibration.lemma_temperature);
      const auto [loaded_lemmas, loaded_feats] = lemma_and_feats_accuracy(Tagger(loaded), treebank);
      CHECK(loaded_lemmas == Approx(100.0));
      CHECK(loaded_feats == Approx(100.0));
    }
  }
}

TEST_CASE("A treebank without the columns trains no morphology heads", "[morphology]") {
  std::vector<Sentence> treebank = tiny_treebank();
  for (Sentence& sentence : treebank) {
    for (Word& word : sentence.words) word.lemma = word.feats = "_";
  }
  TrainOptions options = tiny_options();
  options.epochs = 2;
  const Model model = train_model(treebank, treebank, options);
  CHECK_FALSE(model.has_feats());
  CHECK_FALSE(model.has_lemmas());
  const std::string text = serialize_model(model);
  CHECK(text.find("\"version\": 6") == std::string::npos);  // older readers still read it
  CHECK(text.find("lemma_rules") == std::string::npos);
  CHECK(text.find("heads.lemma") == std::string::npos);
  const TagResult result = Tagger(std::make_shared<const Model>(model)).tag({"The", "blip"});
  CHECK(result.words[0].lemma.empty());
  CHECK(result.words[0].feats.empty());
}

TEST_CASE("train --base adds the heads and leaves the rest of the model as it was",
          "[morphology]") {
  std::vector<Sentence> untagged = tiny_treebank();
  for (Sentence& sentence : untagged) {
    for (Word& word : sentence.words) word.lemma = word.feats = "_";
  }
  TrainOptions options = tiny_options();
  options.epochs = 10;
  const Model base = train_model(untagged, untagged, options);
  const testing::TempDir dir;
  const std::string base_path = dir.file("base.json");
  save_model(base, base_path);

  TrainOptions heads = tiny_options();
  heads.base_model_path = base_path;
  heads.dropout = 0.1f;  // must not reach the frozen weights
  const auto treebank = tiny_treebank();
  const Model model = train_model(treebank, treebank, heads);
  REQUIRE(model.has_feats());
  REQUIRE(model.has_lemmas());
  CHECK(model.parameters.encoder.input_projection.weight.data ==
        base.parameters.encoder.input_projection.weight.data);
  CHECK(model.parameters.encoder.layers[0].attention.query.weight.data ==
        base.parameters.encoder.layers[0].attention.query.weight.data);
  CHECK(model.parameters.heads.upos.weight.data == base.parameters.heads.upos.weight.data);
  CHECK(model.parameters.heads.xpos.bias.data == base.parameters.heads.xpos.bias.data);
  CHECK(model.words.items() == base.words.items());
  CHECK(model.training.fields.at("morphology_heads_base") == "base.json");

  TagOptions with_logits;
  with_logits.logits = true;
  const TagResult before =
      Tagger(std::make_shared<const Model>(base)).tag({"The", "blip"}, with_logits);
  const TagResult after =
      Tagger(std::make_shared<const Model>(model)).tag({"The", "blip"}, with_logits);
  CHECK(before.words[1].upos_logits == after.words[1].upos_logits);
  CHECK(before.words[1].xpos_logits == after.words[1].xpos_logits);
  const auto [lemmas, feats] =
      lemma_and_feats_accuracy(Tagger(std::make_shared<const Model>(model)), treebank);
  CHECK(lemmas > 80.0);
  CHECK(feats > 60.0);  // the most frequent string is 4 words of 19

  SECTION("a model that has the heads already is refused") {
    save_model(model, base_path);
    CHECK_THROWS_WITH(train_model(treebank, treebank, heads),
                      Catch::Contains("already has morphology heads"));
  }
}

TEST_CASE("A model file's lemma rules are checked on load", "[morphology]") {
  const auto treebank = tiny_treebank();
  TrainOptions options = tiny_options();
  options.epochs = 1;
  const Model model = train_model(treebank, treebank, options);
  std::string text = serialize_model(model, TensorEncoding::json_array);
  const std::string rule = "\"keep|0||0|\"";
  const std::size_t at = text.find(rule);
  REQUIRE(at != std::string::npos);
  SECTION("a rule that is not five fields") {
    text.replace(at, rule.size(), "\"keep|0||0\"");
    CHECK_THROWS_WITH(parse_model(text, "bad.json"),
                      Catch::Contains("bad.json: tag_sets.lemma_rules[") &&
                          Catch::Contains("expected 5 fields separated by |"));
  }
  SECTION("a rule that would write a newline into the LEMMA column") {
    text.replace(at, rule.size(), "\"keep|0||0|x\\ny\"");
    CHECK_THROWS_WITH(parse_model(text, "bad.json"),
                      Catch::Contains("tag_sets.lemma_rules") &&
                          Catch::Contains("holds the control character U+000A"));
  }
}

}  // namespace sawtag
