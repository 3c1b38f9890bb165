// What `sawtag eval` prints: the tables and JSON objects of its scores. UFeats, AllTags and
// Lemmas appear only for a model with those heads, so a model without them prints what it
// always did.
#pragma once

#include <cstddef>
#include <string>

#include "sawtag/evaluation.hpp"
#include "sawtag/raw_evaluation.hpp"

namespace sawtag::cli {

struct GoldWordsReportOptions {
  std::string gold_path;
  bool unseen_in_training = false;  // else "unseen" means not in the model's vocabulary
  std::size_t confusions = 10;      // confusions listed per tag set
};

// Accuracies (UPOS, XPOS, then UFeats and AllTags with a feature head, Lemmas with a lemma head),
// unseen words, calibration errors, then per-tag tables and confusions:
// "UPOS accuracy 95.88 (24059 / 25094 words)\n" ... "Lemmas accuracy 97.61 (...)\n" ...
std::string gold_words_report(const Evaluation& evaluation, const GoldWordsReportOptions& options);

// Which of the optional columns the model predicted (its lemma and feature heads).
struct PredictedColumns {
  bool feats = false;
  bool lemmas = false;
};

// One row per metric, in conll18_ud_eval.py's order: "UPOS       95.21 95.20 95.21 95.90".
std::string raw_text_report(const RawEvaluation& evaluation, PredictedColumns columns,
                            const std::string& gold_path);

// {"tokens": {"precision", "recall", "f1", "aligned_accuracy"}, "sentences", "words", "upos",
// "xpos"[, "ufeats", "alltags"][, "lemmas"]} in percent, ending with "\n".
std::string raw_json_report(const RawEvaluation& evaluation, PredictedColumns columns);

}  // namespace sawtag::cli
