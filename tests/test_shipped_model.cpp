// The shipped English model: it loads, passes its self-tests, tags the README's example, and
// keeps its accuracy on UD English EWT dev (when ../shared/data is there).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <memory>

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

std::shared_ptr<const Tagger> shipped_tagger() {
  static const auto tagger =
      std::make_shared<const Tagger>(std::make_shared<const Model>(load_model(kModelPath)));
  return tagger;
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

// A regression guard just under the shipped model's measured level (dev UPOS 94.95, see
// models/MODEL_CARD.md). The training issue's target is 95.0: raise kMinimumDevUpos to it when a
// model that reaches it is shipped.
constexpr double kMinimumDevUpos = 94.8;

TEST_CASE("The shipped model keeps its UPOS accuracy on EWT dev", "[shipped]") {
  const std::string dev_path = ewt_directory() + "/en_ewt-ud-dev.conllu";
  std::ifstream in(dev_path);
  if (!in) {
    WARN("skipped: " << dev_path << " not found (set SAWTAG_UD_DIR to the UD English EWT folder)");
    return;
  }
  ConlluReader reader(in, dev_path);
  std::vector<Sentence> dev;
  Sentence sentence;
  while (reader.next(sentence)) dev.push_back(sentence);
  REQUIRE(dev.size() > 2000);
  const Evaluation evaluation = evaluate(*shipped_tagger(), dev, 2);
  INFO("dev UPOS " << evaluation.upos.accuracy() << ", XPOS " << evaluation.xpos.accuracy());
  CHECK(evaluation.upos.accuracy() >= kMinimumDevUpos);
}

}  // namespace sawtag
