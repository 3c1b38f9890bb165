// `sawtag ensemble`: the file it writes holds every tagger, tags as the library's ensemble does,
// and what it refuses it refuses in one line.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {
namespace {

using testing::CliFixture;
using testing::RunResult;
using testing::run_sawtag;

const char* kDev =
    "1\tI\tI\tPRON\tPRP\t_\t0\troot\t_\t_\n2\tsaw\tsee\tVERB\tVBD\t_\t1\tdep\t_\t_\n"
    "3\ta\ta\tDET\tDT\t_\t1\tdep\t_\t_\n4\tsaw\tsaw\tNOUN\tNN\t_\t1\tdep\t_\t_\n\n";

}  // namespace

TEST_CASE_METHOD(CliFixture, "sawtag ensemble writes one file that tags with the mean",
                 "[cli][ensemble_model]") {
  Model second = testing::make_random_model(testing::tiny_config(), 7);
  second.self_tests.push_back({{"I"}, {"X"}});  // a further tagger's self-test is not kept
  save_model(second, dir.file("second.json"));
  const std::string dev = dir.write("dev.conllu", kDev);
  const std::string output = dir.file("both.json");
  const RunResult result = run_sawtag({"ensemble", "-m", model, "-m", dir.file("second.json"),
                                       "-o", output, "--dev", dev, "-j", "1"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.find("the first tagger alone: UPOS") != std::string::npos);
  CHECK(result.err.find("the ensemble: UPOS") != std::string::npos);

  const Model written = load_model(output);
  REQUIRE(written.ensemble.size() == 1);
  CHECK(written.ensemble[0]->self_tests.empty());
  CHECK(written.tokenizer.multiword_tokens.count("don't") == 1);  // the first model's
  CHECK(written.training.fields.at("ensemble_taggers") == "2");
  CHECK(written.calibration.upos_temperature != 1.0f);  // fitted on --dev

  // `sawtag tag` with the file gives what the library's Tagger gives for the two taggers.
  const RunResult tagged = run_sawtag({"tag", "-m", output, "-f", "tsv", "--float32", "--probs"},
                                      "I saw a saw\n");
  REQUIRE(tagged.exit_code == 0);
  const Tagger tagger(std::make_shared<const Model>(written), TagPrecision::float32);
  const TagResult expected = tagger.tag({"I", "saw", "a", "saw"});
  std::string upos;  // tsv: the text, its UPOS tags, their probabilities
  for (const WordTags& word : expected.words) upos += (upos.empty() ? "" : " ") + word.upos;
  CHECK(testing::split_on(tagged.out, '\t').at(1) == upos);
  // An ensemble given to `sawtag ensemble` gives all its taggers.
  const RunResult again =
      run_sawtag({"ensemble", "-m", output, "-m", output, "-o", dir.file("four.json")});
  REQUIRE(again.exit_code == 0);
  CHECK(load_model(dir.file("four.json")).ensemble.size() == 3);
  const RunResult info = run_sawtag({"info", "-m", dir.file("four.json")});
  CHECK(info.out.find("ensemble: 4 taggers") != std::string::npos);
  CHECK(info.out.find("  tagger 4: 2 layers, d_model 8") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "sawtag ensemble refuses in one line", "[cli][ensemble_model]") {
  testing::check_one_line_error(run_sawtag({"ensemble", "-m", model, "-o", dir.file("x.json")}),
                                1, "at least two models");
  testing::check_one_line_error(
      run_sawtag({"ensemble", "-m", model, "-m", model, "-o", model}), 1,
      "would overwrite the input");
  Model other = testing::make_random_model(testing::tiny_config(), 2);
  other.upos = Vocabulary({"NOUN", "VERB"}, "upos");
  sync_vocabulary_sizes(other);
  other.parameters = zero_parameters(other.config);
  save_model(other, dir.file("other.json"));
  testing::check_one_line_error(
      run_sawtag({"ensemble", "-m", model, "-m", dir.file("other.json"), "-o", dir.file("x.json")}),
      1, "its tag sets are not those of");
  testing::check_one_line_error(
      run_sawtag({"ensemble", "-m", model, "-m", dir.file("missing.json"), "-o",
                  dir.file("x.json")}),
      1, "missing.json");
  std::vector<std::string> seventeen = {"ensemble", "-o", dir.file("x.json")};
  for (int i = 0; i < 17; ++i) seventeen.insert(seventeen.end(), {"-m", model});
  testing::check_one_line_error(run_sawtag(seventeen), 1, "at most 16 taggers");
  CHECK_FALSE(std::ifstream(dir.file("x.json")).good());
}

}  // namespace sawtag
