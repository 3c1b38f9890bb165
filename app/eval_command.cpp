#include "eval_command.hpp"

#include <memory>
#include <unordered_set>

#include "eval_report.hpp"
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

// Tags the words of `system` in place: UPOS and XPOS, and LEMMA and FEATS where the model has
// those heads.
PredictedColumns tag_system(const Tagger& tagger, std::vector<Sentence>& system) {
  std::vector<std::vector<std::string>> sentences;
  for (const Sentence& sentence : system) sentences.push_back(word_forms(sentence));
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
  GoldWordsReportOptions report_options;
  report_options.gold_path = arguments.gold_path;
  report_options.unseen_in_training = !arguments.train_path.empty();
  report_options.confusions = static_cast<std::size_t>(arguments.confusions);
  const std::string report = arguments.json ? to_json(evaluation, report_options.confusions) + "\n"
                                            : gold_words_report(evaluation, report_options);
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
                    "float32 matrix products even where int8 or bfloat16 ones (AVX512_VNNI, "
                    "AVX512_BF16, AMX) are available");
  command->add_option("--confusions", arguments->confusions, "Confusions to list")
      ->capture_default_str()->check(CLI::Range(0, 10000));
  command->callback([arguments] { run_eval(*arguments); });
}

}  // namespace sawtag::cli
