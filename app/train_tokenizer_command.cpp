#include "train_tokenizer_command.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>

#include "overwrite_check.hpp"
#include "progress_bar.hpp"
#include "sawtag/error.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"
#include "train_command.hpp"
#include "treebank_file.hpp"

namespace sawtag::cli {
namespace {

struct TrainTokenizerArguments {
  std::string model_path;
  std::string train_path;
  std::string dev_path;
  std::string output_path;
  std::string self_test;  // "我/PRON 看到/VERB"
  int epochs = 0;
  bool float16 = false;
  bool int8_words = false;
  TrainOptions options;  // seed and threads
};

void run_train_tokenizer(const TrainTokenizerArguments& arguments, const std::string& command) {
  // Before anything is read or written: `-o train.conllu` must not replace the treebank.
  refuse_output_over_input({{"-m", arguments.model_path},
                            {"--train", arguments.train_path},
                            {"--dev", arguments.dev_path}},
                           {{"-o", arguments.output_path}});
  Model model = load_model(arguments.model_path, Int8WordTable::keep);
  const std::vector<Sentence> train = read_treebank(arguments.train_path);
  const std::vector<Sentence> dev = read_treebank(arguments.dev_path);
  spdlog::info("{}: {} sentences; {}: {} sentences", arguments.train_path, train.size(),
               arguments.dev_path, dev.size());
  add_learned_tokenizer(model, train, dev, arguments.options, arguments.epochs);
  model.training.fields["tokenizer_command"] = command;
  if (!arguments.self_test.empty()) {
    model.self_tests.push_back(parse_self_test(arguments.self_test));
  }
  // Builds a tagger, which runs every self-test: a model failing one is not written.
  const Tagger check(std::make_shared<const Model>(model));
  const TensorEncoding encoding = arguments.int8_words ? TensorEncoding::base64_float16_int8_words
                                  : arguments.float16  ? TensorEncoding::base64_float16
                                                       : TensorEncoding::base64;
  save_model(check.model(), arguments.output_path, encoding);
  spdlog::info("wrote {}", arguments.output_path);
}

}  // namespace

void add_learned_tokenizer(Model& model, const std::vector<Sentence>& train,
                           const std::vector<Sentence>& dev, const TrainOptions& tagger_options,
                           int epochs) {
  TrainOptions options = character_model_options();
  options.seed = tagger_options.seed;
  options.threads = tagger_options.threads;
  if (epochs > 0) options.epochs = epochs;
  TrainObserver observer;
  observer.on_epoch = [](const EpochSummary& summary) {
    spdlog::info(
        "tokenizer epoch {}: loss {:.4f}, dev characters right {:.2f}%, {:.0f} "
        "characters/s, {}{}",
        summary.epoch, summary.loss, summary.dev_upos, summary.words_per_second,
        format_duration(summary.seconds), summary.improved ? " (best so far)" : "");
  };
  observer.on_message = [](const std::string& message) { spdlog::info("tokenizer: {}", message); };
  const auto start = std::chrono::steady_clock::now();
  Model character_model = train_character_model(train, dev, options, observer);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  model.training.fields["tokenizer_dev_characters"] = character_model.training.fields["dev_upos"];
  model.training.fields["tokenizer_training_seconds"] = std::to_string(static_cast<long>(seconds));
  model.tokenizer.character_model = std::make_shared<const Model>(std::move(character_model));
}

void add_train_tokenizer_command(CLI::App& app, const std::vector<std::string>& arguments_of_run) {
  auto arguments = std::make_shared<TrainTokenizerArguments>();
  CLI::App* command = app.add_subcommand(
      "train-tokenizer",
      "Learn a tokenizer from a treebank's text (for languages the English rules do not fit) "
      "and store it in a model");
  command->add_option("-m,--model", arguments->model_path, "Model to add the tokenizer to")
      ->required();
  command->add_option("--train", arguments->train_path, "Training treebank (CoNLL-U)")->required();
  command->add_option("--dev", arguments->dev_path, "Development treebank, for model selection")
      ->required();
  command->add_option("-o,--output", arguments->output_path, "Model file to write")->required();
  command->add_option("--epochs", arguments->epochs, "Epochs at most (default: 10)")
      ->check(CLI::PositiveNumber);
  command->add_option("--seed", arguments->options.seed, "Random seed")->capture_default_str();
  command->add_option("-j,--threads", arguments->options.threads, "Threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  command->add_option("--self-test", arguments->self_test,
                      "Sentence the finished model must tag right, stored in it: "
                      "\"我/PRON 看到/VERB\"");
  command->add_flag("--float16", arguments->float16,
                    "Write tensors as base64 float16: half the file size");
  command->add_flag("--int8-words", arguments->int8_words,
                    "As --float16, and the word embeddings as int8 with a scale per row");
  command->callback([arguments, &arguments_of_run] {
    std::string command_line;
    for (const std::string& argument : arguments_of_run) {
      command_line += (command_line.empty() ? "" : " ") + argument;
    }
    run_train_tokenizer(*arguments, command_line);
  });
}

}  // namespace sawtag::cli
