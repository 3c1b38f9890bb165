// What `sawtag eval` prints (app/eval_report.hpp), with and without lemma and feature heads, on
// the hand-computed samples of morphology_samples.hpp.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "eval_report.hpp"
#include "morphology_samples.hpp"

namespace sawtag {
namespace {

using testing::kGold;
using testing::kPredicted;
using testing::kRawGold;
using testing::kRawSystem;
using testing::parse_conllu;
using testing::split_lines;
using testing::tags_of;
using testing::unseen_in_test;

std::vector<std::string> first_lines(const std::string& text, std::size_t count) {
  std::vector<std::string> lines = split_lines(text);
  if (lines.size() > count) lines.resize(count);
  return lines;
}

Evaluation sample_evaluation(bool with_heads) {
  return score_tags(parse_conllu(kGold), tags_of(parse_conllu(kPredicted), with_heads, with_heads),
                    unseen_in_test);
}

cli::GoldWordsReportOptions sample_options() {
  cli::GoldWordsReportOptions options;
  options.gold_path = "gold.conllu";
  options.unseen_in_training = true;
  return options;
}

TEST_CASE("gold_words_report: UFeats, AllTags and Lemmas with those heads", "[eval_report]") {
  const std::string report = cli::gold_words_report(sample_evaluation(true), sample_options());
  CHECK(first_lines(report, 9) ==
        std::vector<std::string>{
            "gold: gold.conllu",
            "UPOS accuracy 87.50 (7 / 8 words)",
            "XPOS accuracy 75.00 (6 / 8 words)",
            "UFeats accuracy 75.00 (6 / 8 words)",
            "AllTags accuracy 37.50 (3 / 8 words)",
            "Lemmas accuracy 62.50 (5 / 8 words)",
            "words unseen in training: 2 (25.0%), UPOS 50.00, XPOS 50.00, UFeats 100.00, "
            "Lemmas 50.00",
            "calibration error (ECE, 10 bins): UPOS 0.1250, XPOS 0.2500, FEATS 0.6250, "
            "Lemmas 0.1250",
            "",
        });
}

TEST_CASE("gold_words_report: as before without those heads", "[eval_report]") {
  const std::string report = cli::gold_words_report(sample_evaluation(false), sample_options());
  CHECK(first_lines(report, 7) == std::vector<std::string>{
                                      "gold: gold.conllu",
                                      "UPOS accuracy 87.50 (7 / 8 words)",
                                      "XPOS accuracy 75.00 (6 / 8 words)",
                                      "words unseen in training: 2 (25.0%), UPOS 50.00, XPOS 50.00",
                                      "calibration error (ECE, 10 bins): UPOS 0.1250, XPOS 0.2500",
                                      "",
                                      "UPOS per tag",
                                  });
}

TEST_CASE("raw_text_report and raw_json_report: rows and keys for the heads there are",
          "[eval_report]") {
  const RawEvaluation evaluation = evaluate_raw(parse_conllu(kRawGold), parse_conllu(kRawSystem));
  const std::vector<std::string> tag_rows = {
      "UPOS           80.00     66.67     72.73      100.00",
      "XPOS           60.00     50.00     54.55       75.00",
  };
  const std::string ufeats_row = "UFeats         60.00     50.00     54.55       75.00";
  const std::string alltags_row = "AllTags        40.00     33.33     36.36       50.00";
  const std::string lemmas_row = "Lemmas         20.00     16.67     18.18       25.00";
  // The last rows: tag rows, then the rows of the heads there are.
  auto last_rows = [&](cli::PredictedColumns columns, std::size_t count) {
    const std::vector<std::string> lines =
        split_lines(cli::raw_text_report(evaluation, columns, "gold.conllu"));
    REQUIRE(lines.size() >= count);
    return std::vector<std::string>(lines.end() - static_cast<std::ptrdiff_t>(count), lines.end());
  };
  CHECK(last_rows({true, true}, 5) ==
        std::vector<std::string>{tag_rows[0], tag_rows[1], ufeats_row, alltags_row, lemmas_row});
  CHECK(last_rows({false, false}, 2) == tag_rows);
  CHECK(last_rows({true, false}, 4) ==
        std::vector<std::string>{tag_rows[0], tag_rows[1], ufeats_row, alltags_row});
  CHECK(last_rows({false, true}, 3) ==
        std::vector<std::string>{tag_rows[0], tag_rows[1], lemmas_row});

  auto keys = [&](cli::PredictedColumns columns) {
    std::set<std::string> result;
    // Named, so that it outlives the loop: items() refers to it.
    const nlohmann::json report = nlohmann::json::parse(cli::raw_json_report(evaluation, columns));
    for (const auto& item : report.items())
      result.insert(item.key());
    return result;
  };
  const std::set<std::string> before = {"tokens", "sentences", "words", "upos", "xpos"};
  CHECK(keys({false, false}) == before);
  std::set<std::string> all = before;
  all.insert({"ufeats", "alltags", "lemmas"});
  CHECK(keys({true, true}) == all);
  const nlohmann::json object =
      nlohmann::json::parse(cli::raw_json_report(evaluation, {true, true}));
  CHECK(object["lemmas"]["f1"].get<double>() == Approx(100.0 * 2.0 / 11.0).margin(1e-4));
  CHECK(object["ufeats"]["aligned_accuracy"].get<double>() == Approx(75.0));
}

}  // namespace
}  // namespace sawtag
