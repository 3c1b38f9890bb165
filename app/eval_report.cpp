#include "eval_report.hpp"

#include <cstdio>

namespace sawtag::cli {
namespace {

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

void append_tag_table(std::string& out, const char* title, const TagSetScores& scores,
                      std::size_t confusions) {
  out += std::string("\n") + title + " per tag\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-10s %8s %8s %8s %8s %8s\n", "tag", "gold", "predicted",
                "precision", "recall", "F1");
  out += line;
  for (const auto& [tag, counts] : scores.tags) {
    std::snprintf(line, sizeof line, "  %-10s %8zu %8zu %8.2f %8.2f %8.2f\n", tag.c_str(),
                  counts.gold, counts.predicted, counts.precision(), counts.recall(), counts.f1());
    out += line;
  }
  out += std::string("\n") + title + " most frequent confusions (gold -> predicted)\n";
  for (const auto& [pair, count] : scores.top_confusions(confusions)) {
    std::snprintf(line, sizeof line, "  %-10s -> %-10s %6zu\n", pair.first.c_str(),
                  pair.second.c_str(), count);
    out += line;
  }
}

// "UPOS accuracy 95.12 (1234 / 1297 words)"
std::string accuracy_line(const std::string& name, double accuracy, std::size_t correct,
                          std::size_t words) {
  return name + format(" accuracy %.2f", accuracy) + " (" + std::to_string(correct) + " / " +
         std::to_string(words) + " words)\n";
}

}  // namespace

std::string gold_words_report(const Evaluation& evaluation, const GoldWordsReportOptions& options) {
  std::string out;
  out += "gold: " + options.gold_path + "\n";
  out += accuracy_line("UPOS", evaluation.upos.accuracy(), evaluation.upos.correct,
                       evaluation.upos.words);
  out += accuracy_line("XPOS", evaluation.xpos.accuracy(), evaluation.xpos.correct,
                       evaluation.xpos.words);
  if (evaluation.has_feats()) {
    out += accuracy_line("UFeats", evaluation.ufeats.accuracy(), evaluation.ufeats.correct,
                         evaluation.ufeats.words);
    out += accuracy_line("AllTags", evaluation.alltags.accuracy(), evaluation.alltags.correct,
                         evaluation.alltags.words);
  }
  if (evaluation.has_lemmas()) {
    out += accuracy_line("Lemmas", evaluation.lemmas.accuracy(), evaluation.lemmas.correct,
                         evaluation.lemmas.words);
  }
  const double unseen_share =
      evaluation.upos.words ? 100.0 * evaluation.unseen_upos.words / evaluation.upos.words : 0.0;
  out += (options.unseen_in_training ? "words unseen in training: "
                                     : "words not in the model's vocabulary: ") +
         std::to_string(evaluation.unseen_upos.words) +
         format(" (%.1f%%), UPOS %.2f, XPOS %.2f", unseen_share, evaluation.unseen_upos.accuracy(),
                evaluation.unseen_xpos.accuracy());
  if (evaluation.has_feats()) out += format(", UFeats %.2f", evaluation.unseen_ufeats.accuracy());
  if (evaluation.has_lemmas()) out += format(", Lemmas %.2f", evaluation.unseen_lemmas.accuracy());
  out += format("\ncalibration error (ECE, 10 bins): UPOS %.4f, XPOS %.4f",
                evaluation.upos_reliability.expected_calibration_error(),
                evaluation.xpos_reliability.expected_calibration_error());
  if (evaluation.has_feats()) {
    out += format(", FEATS %.4f", evaluation.feats_reliability.expected_calibration_error());
  }
  if (evaluation.has_lemmas()) {
    out += format(", Lemmas %.4f", evaluation.lemma_reliability.expected_calibration_error());
  }
  out += "\n";
  append_tag_table(out, "UPOS", evaluation.upos, options.confusions);
  append_tag_table(out, "XPOS", evaluation.xpos, options.confusions);
  return out;
}

namespace {

// RawScore's figures are fractions; reports show percentages.
std::string score_line(const char* name, const RawScore& score, bool aligned) {
  char line[160];
  std::snprintf(line, sizeof line, "%-10s %9.2f %9.2f %9.2f", name, 100 * score.precision(),
                100 * score.recall(), 100 * score.f1());
  std::string text = line;
  if (aligned) {
    std::snprintf(line, sizeof line, " %11.2f", 100 * score.aligned_accuracy());
    text += line;
  }
  return text + "\n";
}

std::string raw_score_json(const char* name, const RawScore& score) {
  char text[256];
  std::snprintf(text, sizeof text,
                "\"%s\": {\"precision\": %.4f, \"recall\": %.4f, \"f1\": %.4f, "
                "\"aligned_accuracy\": %.4f}",
                name, 100 * score.precision(), 100 * score.recall(), 100 * score.f1(),
                100 * score.aligned_accuracy());
  return text;
}

}  // namespace

std::string raw_json_report(const RawEvaluation& evaluation, PredictedColumns columns) {
  std::string report = "{" + raw_score_json("tokens", evaluation.tokens) + ", " +
                       raw_score_json("sentences", evaluation.sentences) + ", " +
                       raw_score_json("words", evaluation.words) + ", " +
                       raw_score_json("upos", evaluation.upos) + ", " +
                       raw_score_json("xpos", evaluation.xpos);
  if (columns.feats) {
    report += ", " + raw_score_json("ufeats", evaluation.ufeats) + ", " +
              raw_score_json("alltags", evaluation.alltags);
  }
  if (columns.lemmas) report += ", " + raw_score_json("lemmas", evaluation.lemmas);
  return report + "}\n";
}

std::string raw_text_report(const RawEvaluation& evaluation, PredictedColumns columns,
                            const std::string& gold_path) {
  std::string report = "gold: " + gold_path + " (raw text, CoNLL 2018 scoring)\n";
  report += "metric     precision    recall        F1  aligned accuracy (%)\n";
  report += score_line("Tokens", evaluation.tokens, false);
  report += score_line("Sentences", evaluation.sentences, false);
  report += score_line("Words", evaluation.words, true);
  report += score_line("UPOS", evaluation.upos, true);
  report += score_line("XPOS", evaluation.xpos, true);
  if (columns.feats) {
    report += score_line("UFeats", evaluation.ufeats, true);
    report += score_line("AllTags", evaluation.alltags, true);
  }
  if (columns.lemmas) report += score_line("Lemmas", evaluation.lemmas, true);
  return report;
}

}  // namespace sawtag::cli
