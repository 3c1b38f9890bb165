// UFeats, AllTags and Lemmas (sawtag/column_match.hpp) on gold words (score_tags, to_json) and
// on aligned words of raw text (evaluate_raw), against hand-computed values.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "morphology_samples.hpp"
#include "sawtag/column_match.hpp"
#include "sawtag/error.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/raw_evaluation.hpp"

namespace sawtag {
namespace {

using testing::kGold;
using testing::kPredicted;
using testing::kRawGold;
using testing::kRawSystem;
using testing::parse_conllu;
using testing::tags_of;
using testing::unseen_in_test;

TEST_CASE("universal_features keeps conll18's universal features, sorted", "[evaluation]") {
  CHECK(universal_features("Number=Plur|Typo=Yes|Case=Nom") == "Case=Nom|Number=Plur");
  CHECK(universal_features("_").empty());
  CHECK(universal_features("").empty());
  CHECK(universal_features("Number[psor]=Sing|Style=Expr|ExtPos=ADP|NumForm=Digit").empty());
  CHECK(universal_features("PronType=Int,Rel|Polite=Form|Evident=Nfh") ==
        "Evident=Nfh|Polite=Form|PronType=Int,Rel");
  // Each of the 21 names is kept.
  const std::string all_universal =
      "Abbr=Yes|Animacy=Anim|Aspect=Perf|Case=Nom|Definite=Def|Degree=Pos|Evident=Fh|"
      "Foreign=Yes|Gender=Masc|Mood=Ind|NumType=Card|Number=Sing|Person=1|Polarity=Neg|"
      "Polite=Form|Poss=Yes|PronType=Prs|Reflex=Yes|Tense=Past|VerbForm=Fin|Voice=Act";
  CHECK(universal_features(all_universal) == all_universal);
}

TEST_CASE("UFeats, all features, AllTags and Lemmas matches", "[evaluation]") {
  CHECK(universal_features_match("Number=Plur|Person=3", "Person=3|Number=Plur"));
  CHECK(universal_features_match("Number=Plur|Typo=Yes", "Number=Plur"));
  CHECK(universal_features_match("_", ""));
  CHECK(universal_features_match("Typo=Yes", "_"));
  CHECK_FALSE(universal_features_match("Number=Plur", "Number=Sing"));
  CHECK_FALSE(universal_features_match("Number=Plur", "_"));

  CHECK(all_features_match("Number=Plur|Typo=Yes", "Typo=Yes|Number=Plur"));
  CHECK(all_features_match("_", ""));
  CHECK_FALSE(all_features_match("Number=Plur|Typo=Yes", "Number=Plur"));

  CHECK(lemma_matches("cat", "cat"));
  CHECK(lemma_matches("_", "anything"));
  CHECK_FALSE(lemma_matches("cat", "cats"));
  CHECK_FALSE(lemma_matches("cat", "_"));

  Word gold;
  gold.upos = "NOUN";
  gold.xpos = "NNS";
  gold.feats = "Number=Plur|Typo=Yes";
  Word predicted = gold;
  predicted.feats = "Number=Plur";
  CHECK(all_tags_match(gold, predicted));
  predicted.xpos = "NN";
  CHECK_FALSE(all_tags_match(gold, predicted));
}

TEST_CASE("score_tags: UFeats, AllTags and Lemmas on gold words", "[evaluation]") {
  const std::vector<Sentence> gold = parse_conllu(kGold);
  const Evaluation evaluation =
      score_tags(gold, tags_of(parse_conllu(kPredicted), true, true), unseen_in_test);
  CHECK(evaluation.upos.correct == 7);  // Wrds
  CHECK(evaluation.xpos.correct == 6);  // cats, his
  REQUIRE(evaluation.has_feats());
  REQUIRE(evaluation.has_lemmas());
  CHECK(evaluation.ufeats.words == 8);
  CHECK(evaluation.ufeats.correct == 6);
  CHECK(evaluation.ufeats.accuracy() == Approx(75.0));
  CHECK(evaluation.alltags.words == 8);
  CHECK(evaluation.alltags.correct == 3);
  CHECK(evaluation.alltags.accuracy() == Approx(37.5));
  CHECK(evaluation.lemmas.words == 8);
  CHECK(evaluation.lemmas.correct == 5);
  CHECK(evaluation.lemmas.accuracy() == Approx(62.5));
  // Unseen: Wrds (UFeats yes, lemma yes) and his (UFeats yes, lemma no).
  CHECK(evaluation.unseen_upos.words == 2);
  CHECK(evaluation.unseen_ufeats.correct == 2);
  CHECK(evaluation.unseen_ufeats.words == 2);
  CHECK(evaluation.unseen_lemmas.correct == 1);
  CHECK(evaluation.unseen_lemmas.words == 2);
  // Every FEATS probability is 1 and 3 of 8 are right in full: ECE = |3/8 - 1| = 0.625.
  // Every lemma probability is 0.5 and 5 of 8 are right: ECE = |5/8 - 0.5| = 0.125.
  CHECK(evaluation.feats_reliability.expected_calibration_error() == Approx(0.625));
  CHECK(evaluation.lemma_reliability.expected_calibration_error() == Approx(0.125));

  const std::string json = to_json(evaluation);
  const std::size_t new_keys = json.find(
      "\"ufeats\": {\"accuracy\": 75.0000, \"words\": 8, \"correct\": 6}, "
      "\"alltags\": {\"accuracy\": 37.5000, \"words\": 8, \"correct\": 3}, "
      "\"lemmas\": {\"accuracy\": 62.5000, \"words\": 8, \"correct\": 5}, \"unseen\": ");
  REQUIRE(new_keys != std::string::npos);
  CHECK(json.find("\"xpos\": {") < new_keys);
  CHECK(json.find("\"xpos_accuracy\": 50.0000, \"ufeats_accuracy\": 100.0000, "
                  "\"lemmas_accuracy\": 50.0000}") != std::string::npos);
  const std::string ending = "\"feats\": 0.6250, \"lemma\": 0.1250}}";
  REQUIRE(json.size() > ending.size());
  CHECK(json.substr(json.size() - ending.size()) == ending);
}

TEST_CASE("score_tags: a model without lemma and feature heads scores as before", "[evaluation]") {
  const std::vector<Sentence> gold = parse_conllu(kGold);
  const Evaluation evaluation =
      score_tags(gold, tags_of(parse_conllu(kPredicted), false, false), unseen_in_test);
  CHECK(evaluation.upos.correct == 7);
  CHECK_FALSE(evaluation.has_feats());
  CHECK_FALSE(evaluation.has_lemmas());
  CHECK(evaluation.ufeats.words == 0);
  CHECK(evaluation.alltags.words == 0);
  CHECK(evaluation.lemmas.words == 0);
  CHECK(evaluation.feats_reliability.words() == 0);
  CHECK(evaluation.lemma_reliability.words() == 0);
  const std::string json = to_json(evaluation);
  for (const char* key : {"\"ufeats\"", "\"alltags\"", "\"lemmas\"", "\"feats\"", "\"lemma\"",
                          "ufeats_accuracy", "lemmas_accuracy"}) {
    INFO(key);
    CHECK(json.find(key) == std::string::npos);
  }
  const std::string ending =
      ", \"unseen\": {\"words\": 2, \"upos_accuracy\": 50.0000, \"xpos_accuracy\": 50.0000}, "
      "\"calibration_error\": {\"upos\": 0.1250, \"xpos\": 0.2500}}";
  REQUIRE(json.size() > ending.size());
  CHECK(json.substr(json.size() - ending.size()) == ending);
}

TEST_CASE("score_tags: features without lemmas, lemmas without features", "[evaluation]") {
  const std::vector<Sentence> gold = parse_conllu(kGold);
  const std::vector<Sentence> predicted = parse_conllu(kPredicted);
  const Evaluation feats_only = score_tags(gold, tags_of(predicted, false, true));
  CHECK(feats_only.has_feats());
  CHECK_FALSE(feats_only.has_lemmas());
  CHECK(feats_only.alltags.correct == 3);
  const std::string feats_json = to_json(feats_only);
  CHECK(feats_json.find("\"alltags\"") != std::string::npos);
  CHECK(feats_json.find("\"lemmas\"") == std::string::npos);

  const Evaluation lemmas_only = score_tags(gold, tags_of(predicted, true, false));
  CHECK_FALSE(lemmas_only.has_feats());
  CHECK(lemmas_only.lemmas.correct == 5);
  const std::string lemmas_json = to_json(lemmas_only);
  CHECK(lemmas_json.find("\"ufeats\"") == std::string::npos);
  CHECK(lemmas_json.find("\"alltags\"") == std::string::npos);
  CHECK(lemmas_json.find("\"lemmas\": {\"accuracy\": 62.5000") != std::string::npos);
}

TEST_CASE("score_tags: tags that do not fit the gold words are refused", "[evaluation]") {
  const std::vector<Sentence> gold = parse_conllu(kGold);
  std::vector<TagResult> tags = tags_of(gold, true, true);
  tags.pop_back();
  CHECK_THROWS_WITH(score_tags(gold, tags), "scoring 1 tagged sentences against 2 gold ones");
  tags = tags_of(gold, true, true);
  tags[1].words.pop_back();
  CHECK_THROWS_WITH(score_tags(gold, tags), "gold sentence 2 has 3 words, its tags 2");
}

TEST_CASE("evaluate_raw: UFeats, AllTags and Lemmas on aligned words", "[raw_evaluation]") {
  const RawEvaluation result = evaluate_raw(parse_conllu(kRawGold), parse_conllu(kRawSystem));
  REQUIRE(result.words.correct == 4);
  for (const RawScore* score : {&result.ufeats, &result.alltags, &result.lemmas}) {
    CHECK(score->gold_total == 6);
    CHECK(score->system_total == 5);
    CHECK(score->aligned_total == 4);
  }
  CHECK(result.ufeats.correct == 3);
  CHECK(result.alltags.correct == 2);
  CHECK(result.lemmas.correct == 1);
  CHECK(result.ufeats.f1() == Approx(6.0 / 11.0));
  CHECK(result.alltags.f1() == Approx(4.0 / 11.0));
  CHECK(result.lemmas.f1() == Approx(2.0 / 11.0));
  CHECK(result.ufeats.precision() == Approx(3.0 / 5.0));
  CHECK(result.ufeats.recall() == Approx(3.0 / 6.0));
  CHECK(result.lemmas.aligned_accuracy() == Approx(1.0 / 4.0));
  // UPOS and XPOS as before: only n't's XPOS is wrong.
  CHECK(result.upos.correct == 4);
  CHECK(result.xpos.correct == 3);

  const std::vector<Sentence> gold = parse_conllu(kRawGold);
  const RawEvaluation perfect = evaluate_raw(gold, gold);
  CHECK(perfect.ufeats.f1() == 1.0);
  CHECK(perfect.alltags.f1() == 1.0);
  CHECK(perfect.lemmas.f1() == 1.0);
}

}  // namespace
}  // namespace sawtag
