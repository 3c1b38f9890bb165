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

std::string text_report(const Evaluation& evaluation, const EvalArguments& arguments) {
  std::string out;
  out += "gold: " + arguments.gold_path + "\n";
  out += format("UPOS accuracy %.2f", evaluation.upos.accuracy()) + " (" +
         std::to_string(evaluation.upos.correct) + " / " + std::to_string(evaluation.upos.words) +
         " words)\n";
  out += format("XPOS accuracy %.2f", evaluation.xpos.accuracy()) + " (" +
         std::to_string(evaluation.xpos.correct) + " / " + std::to_string(evaluation.xpos.words) +
         " words)\n";
  const double unseen_share = evaluation.upos.words
                                  ? 100.0 * evaluation.unseen_upos.words / evaluation.upos.words
                                  : 0.0;
  out += (arguments.train_path.empty() ? "words not in the model's vocabulary: "
                                       : "words unseen in training: ") +
         std::to_string(evaluation.unseen_upos.words) +
         format(" (%.1f%%), UPOS %.2f, XPOS %.2f\n", unseen_share,
                evaluation.unseen_upos.accuracy(), evaluation.unseen_xpos.accuracy());
  out += format("calibration error (ECE, 10 bins): UPOS %.4f, XPOS %.4f\n",
                evaluation.upos_reliability.expected_calibration_error(),
                evaluation.xpos_reliability.expected_calibration_error());
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

// The whole pipeline on the gold text: sentences and words from the model's tokenizer, then
// tags; scored against gold as conll18_ud_eval.py does.
void run_raw_eval(const EvalArguments& arguments, const Tagger& tagger,
                  const std::vector<Sentence>& gold) {
  const Tokenizer tokenizer(tagger.model().tokenizer);
  std::vector<Sentence> system = tokenizer.tokenize(raw_text_from_gold(gold));
  for (Sentence& sentence : system) {
    std::vector<std::string> forms;
    for (const Word& word : sentence.words) forms.push_back(word.form);
    const TagResult result = tagger.tag(forms);
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
      sentence.words[i].upos = result.words[i].upos;
      sentence.words[i].xpos = result.words[i].xpos;
    }
  }
  const RawEvaluation evaluation = evaluate_raw(gold, system);
  std::string report;
  if (arguments.json) {
    report = "{" + raw_score_json("tokens", evaluation.tokens) + ", " +
             raw_score_json("sentences", evaluation.sentences) + ", " +
             raw_score_json("words", evaluation.words) + ", " +
             raw_score_json("upos", evaluation.upos) + ", " +
             raw_score_json("xpos", evaluation.xpos) + "}\n";
  } else {
    report = "gold: " + arguments.gold_path + " (raw text, CoNLL 2018 scoring)\n";
    report += "metric     precision    recall        F1  aligned accuracy (%)\n";
    report += score_line("Tokens", evaluation.tokens, false);
    report += score_line("Sentences", evaluation.sentences, false);
    report += score_line("Words", evaluation.words, true);
    report += score_line("UPOS", evaluation.upos, true);
    report += score_line("XPOS", evaluation.xpos, true);
  }
  OutputFile output("-");
  output.stream() << report;
  output.close();
}

void run_eval(const EvalArguments& arguments) {
  const std::shared_ptr<const Model> model = load_located_model(arguments.model_path);
  const Tagger tagger(model, arguments.float32 ? TagPrecision::float32 : TagPrecision::fastest);
  const std::vector<Sentence> gold = read_tagged_treebank(arguments.gold_path);
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
                    "Tokenize the gold '# text' and score tokens, words, sentences and tags "
                    "as the CoNLL 2018 shared task does");
  command->add_option("-j,--threads", arguments->threads, "Threads")
      ->capture_default_str()->check(CLI::Range(1, 256));
  command->add_flag("--float32", arguments->float32,
                    "float32 matrix products even where bfloat16 ones (AMX, AVX512_BF16) are available");
  command->add_option("--confusions", arguments->confusions, "Confusions to list")
      ->capture_default_str()->check(CLI::Range(0, 10000));
  command->callback([arguments] { run_eval(*arguments); });
}

}  // namespace sawtag::cli
