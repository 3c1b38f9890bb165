// The shipped English model: it loads, passes its self-tests, tags the README's example, keeps
// its accuracy on UD English EWT dev (when ../shared/data is there), and tags the same with its
// int8 word rows kept as the CLI keeps them or widened to float32.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "sawtag/conllu.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {
namespace {

const std::string kModelPath = std::string(SAWTAG_SOURCE_DIR) + "/models/en_ewt.json";

// $SAWTAG_UD_DIR, else ../shared/data/ud-english-ewt beside the source tree.
std::string ewt_directory() {
  if (const char* directory = std::getenv("SAWTAG_UD_DIR")) return directory;
  return std::string(SAWTAG_SOURCE_DIR) + "/../shared/data/ud-english-ewt";
}

// Loaded as the CLI loads it: the int8 word embedding kept as it is stored.
std::shared_ptr<const Tagger> shipped_tagger() {
  static const auto tagger = std::make_shared<const Tagger>(
      std::make_shared<const Model>(load_model(kModelPath, Int8WordTable::keep)));
  return tagger;
}

std::vector<Sentence> read_treebank(const std::string& path) {
  std::ifstream in(path);
  ConlluReader reader(in, path);
  std::vector<Sentence> sentences;
  Sentence sentence;
  while (reader.next(sentence)) sentences.push_back(sentence);
  return sentences;
}

}  // namespace

TEST_CASE("The shipped model tags 'I saw a saw' right", "[shipped]") {
  const TagResult result = shipped_tagger()->tag({"I", "saw", "a", "saw"});
  REQUIRE(result.words.size() == 4);
  CHECK(result.words[0].upos == "PRON");
  CHECK(result.words[1].upos == "VERB");
  CHECK(result.words[2].upos == "DET");
  CHECK(result.words[3].upos == "NOUN");
  CHECK(result.words[1].xpos == "VBD");
  CHECK(result.words[3].xpos == "NN");
}

// The training issue's target, which the shipped model meets (dev UPOS 95.49, XPOS 94.86, see
// models/MODEL_CARD.md); XPOS is guarded too, about as far below the model's figure.
constexpr double kMinimumDevUpos = 95.0;
constexpr double kMinimumDevXpos = 94.4;
// Its temperatures were fitted on dev (dev ECE 0.0102 / 0.0128; before them 0.067 / 0.065);
// the training issue asks for at most 0.015 on test, where they give 0.0080 / 0.0097.
constexpr double kMaximumDevCalibrationError = 0.015;

TEST_CASE("The shipped model keeps its UPOS and XPOS accuracy on EWT dev", "[shipped]") {
  const std::string dev_path = ewt_directory() + "/en_ewt-ud-dev.conllu";
  std::ifstream in(dev_path);
  if (!in) {
    WARN("skipped: " << dev_path << " not found (set SAWTAG_UD_DIR to the UD English EWT folder)");
    return;
  }
  const std::vector<Sentence> dev = read_treebank(dev_path);
  REQUIRE(dev.size() > 2000);
  const Evaluation evaluation = evaluate(*shipped_tagger(), dev, 2);
  INFO("dev UPOS " << evaluation.upos.accuracy() << ", XPOS " << evaluation.xpos.accuracy());
  CHECK(evaluation.upos.accuracy() >= kMinimumDevUpos);
  CHECK(evaluation.xpos.accuracy() >= kMinimumDevXpos);
  INFO("dev ECE UPOS " << evaluation.upos_reliability.expected_calibration_error() << ", XPOS "
                       << evaluation.xpos_reliability.expected_calibration_error());
  CHECK(evaluation.upos_reliability.expected_calibration_error() <= kMaximumDevCalibrationError);
  CHECK(evaluation.xpos_reliability.expected_calibration_error() <= kMaximumDevCalibrationError);
}

TEST_CASE("The shipped model tags the same bits with its word rows kept as int8 or widened",
          "[shipped]") {
  // The shipped file stores the word embedding as int8.
  REQUIRE(shipped_tagger()->model().word_embedding_int8);
  const auto widened = std::make_shared<const Model>(load_model(kModelPath));
  const std::string dev_path = ewt_directory() + "/en_ewt-ud-dev.conllu";
  std::vector<std::vector<std::string>> sentences;
  if (std::ifstream(dev_path)) {
    for (const Sentence& sentence : read_treebank(dev_path)) {
      sentences.push_back(word_forms(sentence));
      if (sentences.size() == 500) break;
    }
  } else {
    sentences = {{"I", "saw", "a", "saw", "."}, {"Colourless", "green", "ideas", "sleep"}};
  }
  TagOptions options;
  options.top_k = 2;
  const std::vector<TagResult> from_kept = shipped_tagger()->tag_batch(sentences, options);
  const std::vector<TagResult> from_widened = Tagger(widened).tag_batch(sentences, options);
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    for (std::size_t i = 0; i < sentences[s].size(); ++i) {
      const WordTags& a = from_kept[s].words[i];
      const WordTags& b = from_widened[s].words[i];
      INFO("sentence " << s << ", word " << i << " '" << sentences[s][i] << "'");
      REQUIRE(a.upos == b.upos);
      REQUIRE(a.xpos == b.xpos);
      REQUIRE(a.upos_probability == b.upos_probability);
      REQUIRE(a.xpos_probability == b.xpos_probability);
      REQUIRE(a.upos_top[1].probability == b.upos_top[1].probability);
      REQUIRE(a.lemma == b.lemma);
      REQUIRE(a.feats == b.feats);
    }
  }
}

// The model with lemma and FEATS heads is not shipped yet (models/MODEL_CARD.md, "Lemmas and
// features"): until it is, these two say so instead of checking.
bool shipped_model_has_morphology() {
  const Model& model = shipped_tagger()->model();
  if (model.has_lemmas() && model.has_feats()) return true;
  WARN("skipped: the shipped model has no lemma and FEATS heads yet");
  return false;
}

TEST_CASE("The shipped model gives lemmas and EWT's features: 'The cats were sitting'",
          "[shipped][morphology]") {
  if (!shipped_model_has_morphology()) return;
  const TagResult result = shipped_tagger()->tag({"The", "cats", "were", "sitting"});
  REQUIRE(result.words.size() == 4);
  CHECK(result.words[0].lemma == "the");
  CHECK(result.words[1].lemma == "cat");
  CHECK(result.words[2].lemma == "be");
  CHECK(result.words[3].lemma == "sit");
  CHECK(result.words[1].feats == "Number=Plur");
  CHECK(result.words[2].feats == "Mood=Ind|Number=Plur|Person=3|Tense=Past|VerbForm=Fin");
}

// The lemma tables that need no training (sawtag lemma-tables): the usual spelling from
// Wikipedia re-cases a name typed in lower case, and NUM drops EWT's thousands separator.
TEST_CASE("The shipped model's lemmas keep usual spellings and drop NUM's thousands separator",
          "[shipped][morphology]") {
  if (!shipped_model_has_morphology()) return;
  const Model& model = shipped_tagger()->model();
  CHECK(model.lemma_casing.size() > 100'000);  // 37,387 spellings
  REQUIRE(model.lemma_deletions.size() == 1);
  CHECK(model.lemma_deletions[0].upos == "NUM");
  const TagResult result = shipped_tagger()->tag(
      {"I", "moved", "to", "kerala", ".", "It", "has", "12,000", "people", "."});
  REQUIRE(result.words.size() == 10);
  CHECK(result.words[3].lemma == "Kerala");
  CHECK(result.words[7].upos == "NUM");
  CHECK(result.words[7].lemma == "12000");
}

// Its dictionary (WordNet 3.0, sawtag lemma-tables --dictionary): irregular forms EWT train
// lacks, and lemmas it knows where the lemma head's rule strips too much, with WordNet's notice.
TEST_CASE("The shipped model's dictionary gives irregular lemmas and carries WordNet's notice",
          "[shipped][morphology]") {
  if (!shipped_model_has_morphology()) return;
  const Model& model = shipped_tagger()->model();
  CHECK_THAT(model.lemma_dictionary.notice,
             Catch::Contains("WordNet 3.0 Copyright 2006 by Princeton University"));
  CHECK(model.lemma_dictionary.lemmas.count("VERB") == 1);
  const TagResult result =
      shipped_tagger()->tag({"The", "horsemen", "sang", "and", "fled", "."});
  REQUIRE(result.words.size() == 6);
  CHECK(result.words[2].upos == "VERB");
  CHECK(result.words[2].lemma == "sing");
  CHECK(result.words[4].lemma == "flee");
}

// The morphology issue's targets are on test (UFeats 96.0, Lemmas 97.5, AllTags 93.5); these
// guard the prepared model's dev figures (models/MODEL_CARD.md: 96.06, 97.29, 93.41), a little
// below them.
constexpr double kMinimumDevUfeats = 95.8;
constexpr double kMinimumDevLemmas = 97.0;
constexpr double kMinimumDevAllTags = 93.1;

TEST_CASE("The shipped model keeps its UFeats, Lemmas and AllTags on EWT dev",
          "[shipped][morphology]") {
  if (!shipped_model_has_morphology()) return;
  const std::string dev_path = ewt_directory() + "/en_ewt-ud-dev.conllu";
  std::ifstream in(dev_path);
  if (!in) {
    WARN("skipped: " << dev_path << " not found (set SAWTAG_UD_DIR to the UD English EWT folder)");
    return;
  }
  const Evaluation evaluation = evaluate(*shipped_tagger(), read_treebank(dev_path), 2);
  INFO("dev UFeats " << evaluation.ufeats.accuracy() << ", Lemmas " << evaluation.lemmas.accuracy()
                     << ", AllTags " << evaluation.alltags.accuracy());
  CHECK(evaluation.ufeats.accuracy() >= kMinimumDevUfeats);
  CHECK(evaluation.lemmas.accuracy() >= kMinimumDevLemmas);
  CHECK(evaluation.alltags.accuracy() >= kMinimumDevAllTags);
  CHECK(evaluation.feats_reliability.expected_calibration_error() <= kMaximumDevCalibrationError);
  CHECK(evaluation.lemma_reliability.expected_calibration_error() <= kMaximumDevCalibrationError);
}

}  // namespace sawtag
