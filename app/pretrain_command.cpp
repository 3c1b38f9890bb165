#include "pretrain_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include <spdlog/spdlog.h>

#include "finite_numbers.hpp"
#include "overwrite_check.hpp"
#include "progress_bar.hpp"
#include "training_heap.hpp"
#include "sawtag/pretraining.hpp"
#include "sawtag/training.hpp"

namespace sawtag::cli {
namespace {

struct PretrainArguments {
  std::string output_path;
  double max_minutes = 0.0;
  double checkpoint_minutes = 10.0;
  PretrainOptions options;
};

void draw_progress(const PretrainProgress& progress) {
  const double fraction =
      static_cast<double>(progress.words_done) / static_cast<double>(std::max<std::int64_t>(1, progress.max_words));
  const double remaining = static_cast<double>(progress.max_words - progress.words_done) /
                           std::max(1e-9, progress.words_per_second);
  char details[128];
  std::snprintf(details, sizeof details, "%.0f words/s  loss %.4f  ETA %s",
                progress.words_per_second, progress.loss, format_duration(remaining).c_str());
  draw_progress_bar("pretrain", fraction, details);
}

void run_pretrain(PretrainArguments& arguments, const std::string& command_line) {
  keep_freed_memory();
  PretrainOptions& options = arguments.options;
  options.command = command_line;
  options.checkpoint_seconds = arguments.checkpoint_minutes * 60.0;
  options.max_seconds = arguments.max_minutes * 60.0;
  if (options.checkpoint_path.empty()) options.checkpoint_path = arguments.output_path + ".ckpt";
  // Before anything is read or written (the checkpoint may be the one resumed from).
  const std::vector<FileArgument> read{{"--text", options.text_path},
                                       {"--vectors", options.vectors_path}};
  refuse_training_overwrites(read, {"--resume", options.resume_path},
                             {"-o", arguments.output_path}, {"--checkpoint", options.checkpoint_path});
  const auto start = std::chrono::steady_clock::now();
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  PretrainObserver observer;
  auto last_log = start;
  auto last_draw = start;
  observer.on_progress = [terminal, &last_log, &last_draw](const PretrainProgress& progress) {
    if (terminal) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_draw < std::chrono::milliseconds(250)) return;
      last_draw = now;
      draw_progress(progress);
      return;
    }
    // A log line a minute when stderr is a file.
    const auto now = std::chrono::steady_clock::now();
    if (now - last_log < std::chrono::minutes(1)) return;
    last_log = now;
    spdlog::info("{} of {} words, loss {:.4f}, {:.0f} words/s", progress.words_done,
                 progress.max_words, progress.loss, progress.words_per_second);
  };
  observer.on_message = [terminal](const std::string& message) {
    if (terminal) clear_progress_bar();
    spdlog::info("{}", message);
  };
  const Model encoder = pretrain_encoder(options, observer);
  if (terminal) clear_progress_bar();
  save_model(encoder, arguments.output_path);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("wrote {} ({} words, {} steps, {})", arguments.output_path,
               encoder.training.fields.at("words"), encoder.training.fields.at("steps"),
               format_duration(seconds));
}

}  // namespace

void add_pretrain_command(CLI::App& app, const std::vector<std::string>& arguments_of_run) {
  auto arguments = std::make_shared<PretrainArguments>();
  PretrainOptions& options = arguments->options;
  ModelConfig& config = options.config;
  CLI::App* command = app.add_subcommand(
      "pretrain",
      "Pre-train the encoder on raw text: hidden words predict their pre-trained vectors, or "
      "pick themselves among other words by them");
  command->add_option("--text", options.text_path,
                      "Raw UTF-8 text, a paragraph per line (read again from the start when "
                      "the budget is larger)")
      ->required();
  command->add_option("--vectors", options.vectors_path,
                      "Word vectors (word2vec/fastText text format): the encoder's frozen word "
                      "embedding and the targets")
      ->required();
  command->add_option("--vector-words", options.max_vector_words,
                      "Most frequent words of the vectors file to use")
      ->capture_default_str();
  command->add_option("-o,--output", arguments->output_path, "Encoder file to write")->required();
  command->add_option("--checkpoint", options.checkpoint_path,
                      "Checkpoint, written every --checkpoint-minutes and at the end "
                      "(default: OUTPUT.ckpt)");
  command->add_option("--checkpoint-minutes", arguments->checkpoint_minutes,
                      "Minutes between checkpoints")
      ->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--resume", options.resume_path, "Continue a stopped run from a checkpoint");
  command->add_option("--max-words", options.max_words,
                      "Budget in words of text; the learning rate decays to zero over it")
      ->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--max-time", arguments->max_minutes,
                      "Stop after this many minutes of training (0 = no limit)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  const std::map<std::string, PretrainObjective> objectives{{"vector", PretrainObjective::vector},
                                                             {"word", PretrainObjective::word}};
  command->add_option("--objective", options.objective,
                      "What a hidden word's output learns: 'vector' (to predict the word's "
                      "vector) or 'word' (to pick the word among --negatives random words and "
                      "the step's hidden words, by their vectors)")
      ->transform(CLI::CheckedTransformer(objectives))->default_str("vector");
  command->add_option("--negatives", options.negatives,
                      "Random words each hidden word is told apart from (--objective word)")
      ->capture_default_str()->check(CLI::Range(1, 1000000));
  command->add_option("--mask-rate", options.mask_rate, "Share of words hidden")
      ->capture_default_str()->check(CLI::Range(0.01, 0.9));
  command->add_option("--batch-words", options.batch_words, "Words per optimiser step")
      ->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--lr", options.learning_rate, "Peak learning rate")->capture_default_str()
      ->check(positive_number());
  command->add_option("--warmup", options.warmup_steps, "Warm-up steps")->capture_default_str()
      ->check(non_negative_number());
  command->add_option("--dropout", options.dropout, "Dropout rate")->capture_default_str()
      ->check(CLI::Range(0.0, 0.95));
  const auto size = [command](const char* name, int& value, const char* help) {
    command->add_option(name, value, help)->capture_default_str()->check(CLI::PositiveNumber);
  };
  size("--word-dim", config.word_dim, "Word embedding size (the vectors' dimension)");
  size("--d-model", config.d_model, "Encoder width");
  size("--heads", config.num_heads, "Attention heads");
  size("--layers", config.num_layers, "Encoder layers");
  size("--d-ff", config.d_ff, "Feed-forward hidden size");
  command->add_option("--seed", options.seed, "Random seed: the same seed, the same encoder")
      ->capture_default_str();
  command->add_option("-j,--threads", options.threads, "Threads")->capture_default_str()
      ->check(CLI::Range(1, 1024));
  command->callback([arguments, &arguments_of_run] {
    run_pretrain(*arguments, recorded_command_line(arguments_of_run));
  });
}

}  // namespace sawtag::cli
