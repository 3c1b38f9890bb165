#include "train_command.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "finite_numbers.hpp"
#include "overwrite_check.hpp"
#include "progress_bar.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"
#include "training_heap.hpp"
#include "sawtag/training.hpp"
#include "train_tokenizer_command.hpp"
#include "treebank_file.hpp"

namespace sawtag::cli {
namespace {

struct TrainArguments {
  std::string train_path;
  std::string dev_path;
  std::string output_path;
  std::string self_test;  // "I/PRON saw/VERB a/DET saw/NOUN"
  std::string tokenizer = "rules";  // or "learned"
  bool json_array = false;
  bool float16 = false;
  bool int8_words = false;
  TrainOptions options;
};

// The epoch's progress bar, redrawn in place on a terminal.
void draw_progress(const TrainProgress& progress) {
  const double fraction = progress.sentences_total
                              ? static_cast<double>(progress.sentences_done) /
                                    static_cast<double>(progress.sentences_total)
                              : 1.0;
  const double remaining =
      static_cast<double>(progress.sentences_total - progress.sentences_done) /
      std::max(1e-9, progress.sentences_per_second);
  char details[128];
  std::snprintf(details, sizeof details, "%.0f sentences/s  loss %.4f  ETA %s",
                progress.sentences_per_second, progress.loss, format_duration(remaining).c_str());
  draw_progress_bar("epoch " + std::to_string(progress.epoch) + "/" +
                        std::to_string(progress.epochs),
                    fraction, details);
}

// "upos, xpos, lemma (412 rules), feats (230 strings)": what the model predicts, and which of
// it this run learned.
std::string learned_heads(const Model& model, const TrainOptions& options) {
  std::string heads = options.base_model_path.empty() || options.fine_tune_base ? "upos, xpos" : "(upos, xpos kept)";
  if (model.has_lemmas()) {
    heads += ", lemma (" + std::to_string(model.lemma_rules.size()) + " rules)";
  }
  if (model.has_feats()) heads += ", feats (" + std::to_string(model.feats.size()) + " strings)";
  if (!model.has_lemmas() || !model.has_feats()) {
    heads += std::string("; the treebank has no ") +
             (!model.has_lemmas() && !model.has_feats() ? "LEMMA or FEATS column"
              : !model.has_lemmas()                   ? "LEMMA column"
                                                      : "FEATS column");
  }
  return heads;
}

void run_train(TrainArguments& arguments, const std::string& command_line) {
  keep_freed_memory();
  TrainOptions& options = arguments.options;
  if (!arguments.self_test.empty()) options.self_tests.push_back(parse_self_test(arguments.self_test));
  if (options.checkpoint_path.empty()) options.checkpoint_path = arguments.output_path + ".ckpt";
  options.corpus = std::filesystem::path(arguments.train_path).filename().string();
  options.command = command_line;
  // Before anything is read or written. The checkpoint may be the one resumed from: it is
  // read first and replaced whole after each epoch.
  const std::vector<FileArgument> read{{"--train", arguments.train_path},
                                       {"--dev", arguments.dev_path},
                                       {"--pretrained-embeddings", options.pretrained_embeddings},
                                       {"--encoder", options.encoder_path},
                                       {"--silver", options.silver_path},
                                       {"--base", options.base_model_path}};
  refuse_training_overwrites(read, {"--resume", options.resume_path},
                             {"-o", arguments.output_path}, {"--checkpoint", options.checkpoint_path});

  const auto start = std::chrono::steady_clock::now();
  const std::vector<Sentence> train = read_tagged_treebank(arguments.train_path);
  const std::vector<Sentence> dev = read_tagged_treebank(arguments.dev_path);
  spdlog::info("{}: {} sentences; {}: {} sentences", arguments.train_path, train.size(),
               arguments.dev_path, dev.size());

  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  TrainObserver observer;
  if (terminal) observer.on_progress = draw_progress;
  observer.on_epoch = [terminal](const EpochSummary& summary) {
    if (terminal) clear_progress_bar();
    std::string morphology;
    if (summary.has_lemmas) morphology += fmt::format(" lemma {:.2f}", summary.dev_lemmas);
    if (summary.has_feats) morphology += fmt::format(" FEATS {:.2f}", summary.dev_feats);
    spdlog::info("epoch {}: loss {:.4f}, dev UPOS {:.2f} XPOS {:.2f}{}, {:.0f} words/s, {}{}",
                 summary.epoch, summary.loss, summary.dev_upos, summary.dev_xpos, morphology,
                 summary.words_per_second, format_duration(summary.seconds),
                 summary.improved ? " (best so far)"
                 : summary.failed_self_test.empty()
                     ? ""
                     : " (not kept: fails the self-test '" + summary.failed_self_test + "')");
  };
  observer.on_message = [](const std::string& message) { spdlog::info("{}", message); };

  Model model = train_model(train, dev, options, observer);
  spdlog::info("heads learned: {}", learned_heads(model, options));
  if (arguments.tokenizer == "learned") add_learned_tokenizer(model, train, dev, options, 0);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  model.training.fields[options.base_model_path.empty() ? "training_seconds"
                                                        : "morphology_training_seconds"] =
      std::to_string(static_cast<long>(seconds));
  const TensorEncoding encoding = arguments.json_array ? TensorEncoding::json_array
                                 : arguments.int8_words ? TensorEncoding::base64_float16_int8_words
                                 : arguments.float16    ? TensorEncoding::base64_float16
                                                        : TensorEncoding::base64;
  save_model(model, arguments.output_path, encoding);
  spdlog::info("wrote {} (best dev UPOS {} XPOS {}, {} in all)", arguments.output_path,
               model.training.fields["dev_upos"], model.training.fields["dev_xpos"],
               format_duration(seconds));
}

}  // namespace

// "I/PRON saw/VERB" -> words and UPOS tags.
SelfTest parse_self_test(const std::string& text) {
  SelfTest test;
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    const auto slash = item.rfind('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == item.size()) {
      throw InputError("--self-test: expected word/UPOS items, got '" + item + "'");
    }
    test.words.push_back(item.substr(0, slash));
    test.upos.push_back(item.substr(slash + 1));
  }
  return test;
}

void add_train_command(CLI::App& app, const std::vector<std::string>& arguments_of_run) {
  auto arguments = std::make_shared<TrainArguments>();
  TrainOptions& options = arguments->options;
  ModelConfig& config = options.config;
  CLI::App* command = app.add_subcommand("train", "Train a model from a CoNLL-U treebank");
  command->add_option("--train", arguments->train_path, "Training treebank (CoNLL-U)")->required();
  command->add_option("--dev", arguments->dev_path, "Development treebank, for model selection")
      ->required();
  command->add_option("-o,--output", arguments->output_path, "Model file to write")->required();
  command->add_option("--checkpoint", options.checkpoint_path,
                      "Checkpoint written after every epoch (default: OUTPUT.ckpt)");
  command->add_option("--resume", options.resume_path, "Continue a stopped run from a checkpoint");
  command->add_option("--encoder", options.encoder_path,
                      "Start from a pre-trained encoder (sawtag pretrain); its sizes are used");
  command->add_option("--base", options.base_model_path,
                      "Add lemma and FEATS heads to this model: its network and UPOS/XPOS heads "
                      "stay exactly as they are, and only the new heads are learned");
  command->add_flag("--fine-tune-base", options.fine_tune_base,
                    "With --base: train the whole base model with the new heads (its encoder at "
                    "--encoder-lr-scale), not only the new heads");
  command->add_option("--min-lemma-rule-count", options.min_lemma_rule_count,
                      "Lemma rules seen fewer times in train are not classes")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  command->add_option("--min-feats-count", options.min_feats_count,
                      "FEATS strings seen fewer times in train are not classes")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  command->add_option("--lemma-weight", options.lemma_weight,
                      "How many times the lemma head's loss counts beside the tags' (the encoder "
                      "is shared)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  command->add_option("--encoder-lr-scale", options.encoder_lr_scale,
                      "Learning rate of the embeddings and encoder layers, as a share of --lr "
                      "(the tagging heads train with --lr)")
      ->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--pretrained-embeddings", options.pretrained_embeddings,
                      "Word vectors in word2vec/fastText text format");
  command->add_option("--pretrained-max-words", options.pretrained_max_words,
                      "Most frequent words of the vectors file to add to the vocabulary")
      ->capture_default_str();
  command->add_flag("--freeze-vectors", options.freeze_vectors,
                    "Keep every word vector read from --pretrained-embeddings fixed, "
                    "the treebank's words included");
  command->add_option("--vector-anchor", options.vector_anchor,
                      "Pull the treebank words' rows towards their pre-trained vectors with this "
                      "strength (like weight decay); 0 = fine-tune freely")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  command->add_option("--silver", options.silver_path,
                      "Silver training data (sawtag silver): CoNLL-U tagged by an ensemble, its _ "
                      "tags not trained on; or a teacher's soft targets (silver --soft), learnt "
                      "by distillation");
  command->add_option("--silver-ratio", options.silver_ratio,
                      "Silver words added to each epoch, per treebank word")
      ->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--distil-temperature", options.distillation_temperature,
                      "Temperature of the distillation loss on soft targets (teacher and student "
                      "softened alike)")
      ->capture_default_str()->check(CLI::Range(0.1, 10.0));
  command->add_option("--tokenizer", arguments->tokenizer,
                      "How the model splits raw text: rules (UD English conventions) or learned "
                      "(a character model trained on --train's text, for any language)")
      ->capture_default_str()->check(CLI::IsMember({"rules", "learned"}));
  command->add_option("--self-test", arguments->self_test,
                      "Sentence the model must tag right, stored in it: \"I/PRON saw/VERB\"");
  command->add_flag("--json-array", arguments->json_array,
                    "Write tensors as JSON numbers instead of base64");
  command->add_flag("--float16", arguments->float16,
                    "Write tensors as base64 float16: half the file size");
  command->add_flag("--int8-words", arguments->int8_words,
                    "As --float16, and the word embedding as int8 with a scale per row: "
                    "about a quarter of the file size")
      ->excludes("--json-array");

  const auto size = [command](const char* name, int& value, const char* help) {
    command->add_option(name, value, help)->capture_default_str()->check(CLI::PositiveNumber);
  };
  size("--word-dim", config.word_dim, "Word embedding size");
  size("--char-dim", config.char_dim, "Character embedding size");
  command->add_option("--char-widths", config.char_widths, "Character convolution widths")
      ->capture_default_str()->delimiter(',');
  size("--char-filters", config.char_filters, "Filters per character convolution width");
  size("--shape-dim", config.shape_dim, "Word-shape embedding size");
  command->add_option("--edge-char-dim", config.edge_char_dim,
                      "Size of the embeddings of each word's first and last characters "
                      "(0 = none)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  size("--d-model", config.d_model, "Encoder width");
  size("--heads", config.num_heads, "Attention heads");
  size("--layers", config.num_layers, "Encoder layers");
  size("--d-ff", config.d_ff, "Feed-forward hidden size");
  command->add_flag("--relative-position,!--no-relative-position", config.relative_position,
                    "Learned per-head relative-position bias in attention")
      ->capture_default_str();
  size("--max-relative-distance", config.max_relative_distance, "Clip of the relative bias");

  size("--min-word-count", options.min_word_count, "Rarer words are <unk>");
  size("--epochs", options.epochs, "Epochs at most");
  size("--batch-size", options.batch_size, "Sentences per batch");
  command->add_option("--lr", options.learning_rate, "Peak learning rate")->capture_default_str()
      ->check(positive_number());
  command->add_option("--warmup", options.warmup_steps, "Warm-up steps")->capture_default_str()
      ->check(non_negative_number());
  command->add_option("--weight-decay", options.weight_decay, "AdamW weight decay")
      ->capture_default_str()->check(non_negative_number());
  command->add_option("--clip", options.clip_norm, "Gradient-norm clip (0 = off)")
      ->capture_default_str()->check(non_negative_number());
  command->add_option("--dropout", options.dropout, "Dropout rate")->capture_default_str()
      ->check(CLI::Range(0.0, 0.95));
  command->add_option("--word-dropout", options.word_dropout,
                      "Word dropout alpha: p(<unk>) = alpha / (alpha + count)")
      ->capture_default_str()->check(non_negative_number());
  command->add_option("--label-smoothing", options.label_smoothing, "Label smoothing")
      ->capture_default_str()->check(CLI::Range(0.0, 0.99));
  command->add_option("--average-decay", options.average_decay,
                      "Score and keep a moving average of the weights with this decay "
                      "(0.999: about the last 1,000 steps); 0 = the weights themselves")
      ->capture_default_str()->check(CLI::Range(0.0, 0.99999));
  size("--patience", options.patience, "Stop after this many epochs without a better dev score");
  command->add_option("--seed", options.seed, "Random seed: the same seed, the same model")
      ->capture_default_str();
  command->add_option("-j,--threads", options.threads, "Threads")->capture_default_str()
      ->check(CLI::Range(1, 1024));

  command->callback([arguments, &arguments_of_run] {
    const std::string command_line = recorded_command_line(arguments_of_run);
    run_train(*arguments, command_line);
  });
}

}  // namespace sawtag::cli
