// The shipped Chinese model: it loads with its learned tokenizer, passes its self-test, splits
// the README's example, and keeps its raw-text scores on UD Chinese GSD 1.4 dev (when
// ../shared/data is there; models/MODEL_CARD_zh.md).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "sawtag/conllu.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/model.hpp"
#include "sawtag/raw_evaluation.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"

namespace sawtag {
namespace {

const std::string kChineseModelPath = std::string(SAWTAG_SOURCE_DIR) + "/models/zh_gsd.json";

// $SAWTAG_ZH_DIR, else ../shared/data/ud-chinese-gsd-1.4 beside the source tree.
std::string gsd_directory() {
  if (const char* directory = std::getenv("SAWTAG_ZH_DIR")) return directory;
  return std::string(SAWTAG_SOURCE_DIR) + "/../shared/data/ud-chinese-gsd-1.4";
}

std::shared_ptr<const Model> chinese_model() {
  static const auto model =
      std::make_shared<const Model>(load_model(kChineseModelPath, Int8WordTable::keep));
  return model;
}

}  // namespace

TEST_CASE("The shipped Chinese model loads, passes its self-test and splits text into words",
          "[shipped][zh]") {
  const Tagger tagger(chinese_model());  // runs the self-test
  REQUIRE(chinese_model()->tokenizer.character_model != nullptr);
  for (const std::string text : {"台北是台灣的首都.", "台北是台灣的首都"}) {
    const std::vector<Sentence> sentences = Tokenizer(chinese_model()->tokenizer).tokenize(text);
    REQUIRE(sentences.size() == 1);
    const std::vector<std::string> forms = word_forms(sentences[0]);
    std::vector<std::string> expected = {"台北", "是", "台灣", "的", "首都", "."};
    if (text.back() != '.') expected.pop_back();
    CHECK(forms == expected);
  }
}

TEST_CASE("The shipped Chinese model keeps its raw-text scores on GSD dev", "[shipped][zh]") {
  const std::string path = gsd_directory() + "/zh_gsd-ud-dev.conllu";
  std::ifstream in(path);
  if (!in) {
    WARN("skipped: " << path << " not found (set SAWTAG_ZH_DIR)");
    return;
  }
  ConlluReader reader(in, path);
  std::vector<Sentence> gold;
  Sentence sentence;
  while (reader.next(sentence)) gold.push_back(sentence);
  const Tagger tagger(chinese_model());
  std::vector<Sentence> system =
      Tokenizer(chinese_model()->tokenizer).tokenize(raw_text_from_gold(gold));
  std::vector<std::vector<std::string>> forms;
  for (const Sentence& each : system) forms.push_back(word_forms(each));
  const std::vector<TagResult> tagged = tagger.tag_batch(forms);
  for (std::size_t s = 0; s < system.size(); ++s) {
    for (std::size_t i = 0; i < system[s].words.size(); ++i) {
      system[s].words[i].upos = tagged[s].words[i].upos;
    }
  }
  const RawEvaluation evaluation = evaluate_raw(gold, system);
  // Gold words: the card's dev UPOS accuracy (93.21), less a little for bfloat16; and the three
  // taggers together beat the first alone (92.79) by more than noise.
  const double ensemble_accuracy = evaluate(tagger, gold).upos.accuracy();
  CHECK(ensemble_accuracy >= 93.0);
  REQUIRE(chinese_model()->ensemble.size() == 2);
  Model first = *chinese_model();
  first.ensemble.clear();
  const Tagger first_tagger(std::make_shared<const Model>(std::move(first)));
  CHECK(ensemble_accuracy >= evaluate(first_tagger, gold).upos.accuracy() + 0.2);
  // The model card's dev figures (91.73, 97.89, 86.28), less a little for bfloat16 on other
  // CPUs.
  CHECK(100.0 * evaluation.words.f1() >= 91.5);
  CHECK(100.0 * evaluation.sentences.f1() >= 97.0);
  CHECK(100.0 * evaluation.upos.f1() >= 86.0);
}

}  // namespace sawtag
