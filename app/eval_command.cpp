#include "eval_command.hpp"

#include <cstdio>
#include <memory>
#include <unordered_set>

#include "model_locator.hpp"
#include "output_file.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/features.hpp"
#include "sawtag/raw_evaluation.hpp"
#include "sawtag/tokenizer.hpp"
#include "treebank_file.hpp"

namespace sawtag::cli {
namespace {

struct EvalArguments {
  std::string model_path;
  std::string gold_path;
  std::string train_path;  // for "unseen in training"; else "not in the model's vocabulary"
  bool json = false;
  bool float32 = false;  // TagPrecision::float32
  bool raw = false;  // tokenize the gold text and score as the CoNLL 2018 shared task
  int threads = 2;
  int confusions = 10;
};

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

std::string text_report(const Evaluation& evaluation, const EvalArguments& arguments) {
  std::string out;
  out += "gold: " + arguments.gold_path + "\n";
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
  const double unseen_share = evaluation.upos.words
                                  ? 100.0 * evaluation.unseen_upos.words / evaluation.upos.words
                                  : 0.0;
  out += (arguments.train_path.empty() ? "words not in the model's vocabulary: "
                                       : "words unseen in training: ") +
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
  const auto confusions = static_cast<std::size_t>(arguments.confusions);
  append_tag_table(out, "UPOS", evaluation.upos, confusions);
  append_tag_table(out, "XPOS", evaluation.xpos, confusions);
  return out;
}

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

// Which of the optional columns the model predicted (its lemma and feature heads).
struct PredictedColumns {
  bool feats = false;
  bool lemmas = false;
};

// Tags the words of `system` in place: UPOS and XPOS, and LEMMA and FEATS where the model has
// those heads.
PredictedColumns tag_system(const Tagger& tagger, std::vector<Sentence>& system) {
  std::vector<std::vector<std::string>> sentences;
  for (const Sentence& sentence : system) {
    std::vector<std::string>& forms = sentences.emplace_back();
    for (const Word& word : sentence.words) forms.push_back(word.form);
  }
  const std::vector<TagResult> results = tagger.tag_batch(sentences);
  PredictedColumns columns;
  for (std::size_t s = 0; s < system.size(); ++s) {
    for (std::size_t i = 0; i < system[s].words.size(); ++i) {
      Word& word = system[s].words[i];
      const WordTags& tags = results[s].words[i];
      word.upos = tags.upos;
      word.xpos = tags.xpos;
      if (!tags.feats.empty()) {
        word.feats = tags.feats;
        columns.feats = true;
      }
      if (!tags.lemma.empty()) {
        word.lemma = tags.lemma;
        columns.lemmas = true;
      }
    }
  }
  return columns;
}

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

// The whole pipeline on the gold text: sentences and words from the model's tokenizer, then
// tags; scored against gold as conll18_ud_eval.py does.
void run_raw_eval(const EvalArguments& arguments, const Tagger& tagger,
                  const std::vector<Sentence>& gold) {
  const Tokenizer tokenizer(tagger.model().tokenizer);
  std::vector<Sentence> system = tokenizer.tokenize(raw_text_from_gold(gold));
  const PredictedColumns columns = tag_system(tagger, system);
  const RawEvaluation evaluation = evaluate_raw(gold, system);
  const std::string report = arguments.json
                                 ? raw_json_report(evaluation, columns)
                                 : raw_text_report(evaluation, columns, arguments.gold_path);
  OutputFile output("-");
  output.stream() << report;
  output.close();
}

void run_eval(const EvalArguments& arguments) {
  const std::shared_ptr<const Model> model = load_located_model(arguments.model_path);
  const Tagger tagger(model, arguments.float32 ? TagPrecision::float32 : TagPrecision::fastest);
  const std::vector<Sentence> gold = read_treebank(arguments.gold_path);
  if (arguments.raw) {
    run_raw_eval(arguments, tagger, gold);
    return;
  }
  std::unordered_set<std::string> training_words;
  if (!arguments.train_path.empty()) {
    for (const Sentence& sentence : read_treebank(arguments.train_path)) {
      for (const Word& word : sentence.words) training_words.insert(to_lower(word.form));
    }
  }
  const Evaluation evaluation = evaluate(tagger, gold, arguments.threads, training_words);
  const std::string report = arguments.json
                                 ? to_json(evaluation, static_cast<std::size_t>(arguments.confusions)) + "\n"
                                 : text_report(evaluation, arguments);
  OutputFile output("-");
  output.stream() << report;
  output.close();
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto arguments = std::make_shared<EvalArguments>();
  CLI::App* command = app.add_subcommand("eval", "Score a model on gold words of a treebank");
  command->add_option("gold", arguments->gold_path, "Gold treebank (CoNLL-U)")->required();
  command->add_option("-m,--model", arguments->model_path, "Model file (default: see README)");
  command->add_option("--train", arguments->train_path,
                      "Training treebank, to score words unseen in training exactly");
  command->add_flag("--json", arguments->json, "One JSON object instead of tables");
  command->add_flag("--raw", arguments->raw,
                    "Tokenize the gold '# text' and score tokens, words, sentences, tags, "
                    "features and lemmas as the CoNLL 2018 shared task does");
  command->add_option("-j,--threads", arguments->threads, "Threads")
      ->capture_default_str()->check(CLI::Range(1, 256));
  command->add_flag("--float32", arguments->float32,
                    "float32 matrix products even where bfloat16 ones (AMX, AVX512_BF16) are available");
  command->add_option("--confusions", arguments->confusions, "Confusions to list")
      ->capture_default_str()->check(CLI::Range(0, 10000));
  command->callback([arguments] { run_eval(*arguments); });
}

}  // namespace sawtag::cli
