// The commands that make or score models refuse bad input as `tag` does: a treebank without
// tags (or without words), a thread count beyond reason, an output that is an input. Each is
// one line on stderr, exit 1 (bad input) or 2 (usage), and nothing is written.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using sawtag::testing::check_one_line_error;
using sawtag::testing::CliFixture;
using sawtag::testing::read_file;
using sawtag::testing::run_sawtag;

// Two sentences, 7 words, every UPOS and XPOS "_": the columns a tagger learns, stripped.
constexpr const char* kUntagged =
    "# text = I saw a saw.\n"
    "1\tI\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "2\tsaw\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "3\ta\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "4\tsaw\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n"
    "5\t.\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "\n"
    "# text = It cuts\n"
    "1\tIt\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "2\tcuts\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "\n";

constexpr const char* kUntaggedMessage =
    "untagged.conllu: no UPOS tags: column 4 is _ in all 7 words (a treebank to train on or "
    "score against needs its tags)";

struct RefusalFixture : CliFixture {
  std::string tagged = dir.write("tagged.conllu", read_file(SAWTAG_TEST_DATA "/sample.conllu"));
  std::string untagged = dir.write("untagged.conllu", kUntagged);
  std::string empty = dir.write("empty.conllu", "");
  std::string output = dir.file("out.json");

  bool nothing_written() const {
    return !std::filesystem::exists(output) && !std::filesystem::exists(output + ".ckpt");
  }
};

}  // namespace

TEST_CASE_METHOD(RefusalFixture, "train refuses a training treebank without tags",
                 "[cli][refusals]") {
  check_one_line_error(
      run_sawtag({"train", "--train", untagged, "--dev", tagged, "-o", output, "--epochs", "1"}), 1,
      kUntaggedMessage);
  CHECK(nothing_written());
}

TEST_CASE_METHOD(RefusalFixture, "train refuses a dev treebank without tags", "[cli][refusals]") {
  check_one_line_error(
      run_sawtag({"train", "--train", tagged, "--dev", untagged, "-o", output, "--epochs", "1"}), 1,
      kUntaggedMessage);
  CHECK(nothing_written());
}

TEST_CASE_METHOD(RefusalFixture, "train refuses a treebank without words", "[cli][refusals]") {
  check_one_line_error(
      run_sawtag({"train", "--train", empty, "--dev", tagged, "-o", output, "--epochs", "1"}), 1,
      "empty.conllu: no words: an empty treebank");
  CHECK(nothing_written());
}

TEST_CASE_METHOD(RefusalFixture, "eval, calibrate and ensemble refuse gold without tags",
                 "[cli][refusals]") {
  check_one_line_error(run_sawtag({"eval", "-m", model, untagged}), 1, kUntaggedMessage);
  check_one_line_error(run_sawtag({"eval", "-m", model, "--raw", untagged}), 1, kUntaggedMessage);
  check_one_line_error(run_sawtag({"calibrate", "-m", model, "--dev", untagged, "-o", output}), 1,
                       kUntaggedMessage);
  check_one_line_error(
      run_sawtag({"ensemble", "-m", model, "-m", model, "--dev", untagged, "-o", output}), 1,
      kUntaggedMessage);
  CHECK(nothing_written());
}

TEST_CASE_METHOD(RefusalFixture, "every command's -j is bounded: 0 and 100000 are usage errors",
                 "[cli][refusals]") {
  const std::vector<std::vector<std::string>> commands = {
      {"tag", "-m", model},
      {"train", "--train", tagged, "--dev", tagged, "-o", output},
      {"pretrain", "--text", tagged, "--vectors", tagged, "-o", output},
      {"train-tokenizer", "-m", model, "--train", tagged, "--dev", tagged, "-o", output},
      {"eval", "-m", model, tagged},
      {"calibrate", "-m", model, "--dev", tagged, "-o", output},
      {"ensemble", "-m", model, "-m", model, "-o", output},
      {"silver", "-m", model, "--conllu", tagged},
      {"explain", "-m", model, "I saw"},
  };
  for (std::vector<std::string> arguments : commands) {
    INFO("sawtag " << arguments.front());
    for (const std::string threads : {"0", "100000"}) {
      std::vector<std::string> with_threads = arguments;
      with_threads.insert(with_threads.end(), {"-j", threads});
      check_one_line_error(run_sawtag(with_threads), 2, "--threads: Value " + threads);
    }
  }
  CHECK(nothing_written());
}

TEST_CASE_METHOD(RefusalFixture, "train-tokenizer refuses an output that is one of its inputs",
                 "[cli][refusals]") {
  const std::string before = read_file(tagged);
  check_one_line_error(run_sawtag({"train-tokenizer", "-m", model, "--train", tagged, "--dev",
                                   tagged, "-o", tagged}),
                       1, "-o " + tagged + ": would overwrite the input " + tagged);
  CHECK(read_file(tagged) == before);
  const std::string model_before = read_file(model);
  check_one_line_error(
      run_sawtag({"train-tokenizer", "-m", model, "--train", tagged, "--dev", tagged, "-o", model}),
      1, "would overwrite the input " + model);
  CHECK(read_file(model) == model_before);
}

TEST_CASE_METHOD(RefusalFixture, "number options refuse NaN, infinity and negative rates",
                 "[cli][refusals]") {
  const std::vector<std::string> train{"train", "--train", tagged, "--dev", tagged, "-o", output};
  const auto with = [](std::vector<std::string> arguments, const std::string& option,
                       const std::string& value) {
    arguments.insert(arguments.end(), {option, value});
    return arguments;
  };
  // Before, each of these trained (a network of NaN, or clipping switched off) or ran on.
  check_one_line_error(run_sawtag(with(train, "--lr", "nan")), 2,
                       "--lr: Value nan is not a finite number");
  check_one_line_error(run_sawtag(with(train, "--clip", "inf")), 2,
                       "--clip: Value inf is not a finite number");
  check_one_line_error(run_sawtag(with(train, "--dropout", "nan")), 2,
                       "--dropout: Value nan is not a finite number");
  check_one_line_error(run_sawtag(with(train, "--lr", "-1")), 2, "--lr: Value -1");
  check_one_line_error(run_sawtag(with(train, "--warmup", "-5")), 2, "--warmup: Value -5");
  check_one_line_error(run_sawtag(with(train, "--word-dropout", "-3")), 2,
                       "--word-dropout: Value -3");
  check_one_line_error(run_sawtag(with(train, "--weight-decay", "-0.1")), 2,
                       "--weight-decay: Value -0.1");
  check_one_line_error(
      run_sawtag({"pretrain", "--text", tagged, "--vectors", tagged, "-o", output, "--lr", "inf"}),
      2, "--lr: Value inf is not a finite number");
  check_one_line_error(run_sawtag({"silver", "-m", model, "--conllu", tagged, "--min-prob", "nan"}),
                       2, "--min-prob: Value nan is not a finite number");
  CHECK(nothing_written());
}
