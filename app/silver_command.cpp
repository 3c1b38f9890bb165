#include "silver_command.hpp"

#include <spdlog/spdlog.h>

#include <fstream>
#include <memory>

#include "model_locator.hpp"
#include "output_file.hpp"
#include "overwrite_check.hpp"
#include "sawtag/conllu.hpp"
#include "sawtag/ensemble.hpp"
#include "sawtag/error.hpp"
#include "sawtag/soft_targets.hpp"
#include "sawtag/tokenizer.hpp"
#include "treebank_file.hpp"

namespace sawtag::cli {
namespace {

struct SilverArguments {
  std::vector<std::string> model_paths;
  std::string text_path;    // raw text, one paragraph a line
  std::string conllu_path;  // or the words of a CoNLL-U file
  std::string output_path = "-";
  long long max_words = 0;  // 0 = all of the text
  int max_sentence_words = 100;
  EnsembleOptions ensemble;
  int soft = 0;  // > 0: write the ensemble's top `soft` classes per word and head instead
};

// Lines of raw text are tokenized and tagged this many at a time: memory stays bounded.
constexpr std::size_t kLinesPerChunk = 2000;

// Writes the ensemble's soft targets for `sentences` and adds their words to `total`.
void write_soft_targets(const std::vector<const Tagger*>& models,
                        const std::vector<Sentence>& sentences, const SilverArguments& arguments,
                        OutputFile& output, EnsembleReport& total) {
  std::vector<std::vector<std::string>> words;
  for (const Sentence& sentence : sentences) {
    words.push_back(word_forms(sentence));
    total.words += sentence.words.size();
  }
  SoftTargetOptions options;
  options.top_k = arguments.soft;
  options.threads = arguments.ensemble.threads;
  for (const SoftSentence& sentence : teacher_distributions(models, words, options)) {
    write_soft_sentence(output.stream(), sentence);
  }
  output.check();
}

// Tags `sentences` with the ensemble, writes them and adds to `total`.
void tag_and_write(const std::vector<const Tagger*>& models, std::vector<Sentence>& sentences,
                   const SilverArguments& arguments, OutputFile& output, EnsembleReport& total) {
  if (arguments.soft > 0) {
    write_soft_targets(models, sentences, arguments, output, total);
    return;
  }
  const EnsembleReport report = ensemble_tag(models, sentences, arguments.ensemble);
  total.words += report.words;
  total.upos_kept += report.upos_kept;
  total.xpos_kept += report.xpos_kept;
  for (const Sentence& sentence : sentences) write_conllu(output.stream(), sentence);
  output.check();
}

void run_silver(const SilverArguments& arguments) {
  std::vector<FileArgument> inputs{{"--text", arguments.text_path},
                                   {"--conllu", arguments.conllu_path}};
  std::vector<std::string> model_paths;  // none given: the default model
  for (const std::string& given : arguments.model_paths) model_paths.push_back(locate_model(given));
  if (model_paths.empty()) model_paths.push_back(locate_model(""));
  for (const std::string& path : model_paths) inputs.push_back({"-m", path});
  refuse_output_over_input(inputs, {{"-o", arguments.output_path}});

  std::vector<Tagger> taggers;
  taggers.reserve(model_paths.size());
  for (const std::string& path : model_paths) taggers.emplace_back(load_located_model(path));
  std::vector<const Tagger*> models;
  for (const Tagger& tagger : taggers) models.push_back(&tagger);

  OutputFile output(arguments.output_path);
  if (arguments.soft > 0) {
    write_soft_targets_header(output.stream(), soft_targets_header(models.front()->model()));
  }
  EnsembleReport total;
  const auto within_budget = [&arguments, &total] {
    return arguments.max_words <= 0 || static_cast<long long>(total.words) < arguments.max_words;
  };
  if (!arguments.conllu_path.empty()) {
    std::vector<Sentence> sentences = read_treebank(arguments.conllu_path);
    tag_and_write(models, sentences, arguments, output, total);
  } else {
    std::ifstream in(arguments.text_path);
    if (!in) throw InputError(arguments.text_path + ": cannot open the text");
    // The first model's tokenizer splits the text; silver data for a student of the same
    // treebank should be split as that treebank is.
    const Tokenizer tokenizer(models.front()->model().tokenizer);
    std::string line;
    while (within_budget() && in) {
      std::vector<Sentence> chunk;
      for (std::size_t read = 0; read < kLinesPerChunk && std::getline(in, line); ++read) {
        for (Sentence& sentence : tokenizer.tokenize(line)) {
          const std::size_t length = sentence.words.size();
          if (length == 0 || length > static_cast<std::size_t>(arguments.max_sentence_words)) {
            continue;
          }
          sentence.word_spans.clear();
          chunk.push_back(std::move(sentence));
        }
      }
      if (chunk.empty()) continue;
      tag_and_write(models, chunk, arguments, output, total);
      spdlog::debug("{} words tagged", total.words);
    }
  }
  output.close();
  const auto percent = [&total](std::size_t kept) {
    return total.words ? 100.0 * static_cast<double>(kept) / static_cast<double>(total.words) : 0.0;
  };
  if (arguments.soft > 0) {
    spdlog::info("{} words tagged by {} models: their top {} classes per head", total.words,
                 models.size(), arguments.soft);
    return;
  }
  spdlog::info("{} words tagged by {} models; UPOS kept for {:.2f} %, XPOS for {:.2f} %",
               total.words, models.size(), percent(total.upos_kept), percent(total.xpos_kept));
}

}  // namespace

void add_silver_command(CLI::App& app) {
  auto arguments = std::make_shared<SilverArguments>();
  CLI::App* command = app.add_subcommand(
      "silver",
      "Tag text with an ensemble of models (their mean probabilities) as CoNLL-U, or write "
      "their soft targets (--soft): silver training data for `train --silver`");
  command->add_option("-m,--model", arguments->model_paths,
                      "A model of the ensemble; repeat for more (default: the default model)");
  CLI::Option* text = command->add_option(
      "--text", arguments->text_path,
      "Raw UTF-8 text, one paragraph a line, split by the first model's tokenizer");
  CLI::Option* conllu =
      command->add_option("--conllu", arguments->conllu_path,
                          "Or tag the words of a CoNLL-U file (its other columns are kept)");
  text->excludes(conllu);
  conllu->excludes(text);
  command->add_option("-o,--output", arguments->output_path, "CoNLL-U output (default: stdout)")
      ->capture_default_str();
  command
      ->add_option("--max-words", arguments->max_words,
                   "Stop after about this many words of text (0 = all)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--max-sentence-words", arguments->max_sentence_words,
                   "Leave out longer sentences of the text")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--min-prob", arguments->ensemble.min_probability,
                   "A tag whose mean probability is lower is written as _ (left out of "
                   "training)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  CLI::Option* soft =
      command
          ->add_option("--soft", arguments->soft,
                       "Write each word's K most likely classes of every head with the mean "
                       "probabilities (soft targets for distillation, docs/distillation.md) "
                       "instead of CoNLL-U")
          ->check(CLI::Range(1, 1000))
          ->type_name("K");
  soft->excludes("--min-prob");
  command->add_option("-j,--threads", arguments->ensemble.threads, "Threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  command->callback([arguments, text, conllu] {
    if (text->count() + conllu->count() == 0) {
      throw CLI::RequiredError("silver: --text or --conllu");
    }
    run_silver(*arguments);
  });
}

}  // namespace sawtag::cli
