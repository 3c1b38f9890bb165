#include "lemma_tables_command.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "line_source.hpp"
#include "model_encoding.hpp"
#include "model_locator.hpp"
#include "overwrite_check.hpp"
#include "sawtag/error.hpp"
#include "sawtag/lemma_casing.hpp"
#include "sawtag/lemma_dictionary.hpp"
#include "sawtag/tokenizer.hpp"
#include "sawtag/training.hpp"
#include "treebank_file.hpp"

namespace sawtag::cli {
namespace {

struct LemmaTablesArguments {
  std::string model_path;
  std::string treebank_path;
  std::vector<std::string> text_paths;
  std::string dictionary_path;
  std::string output_path;
  LemmaCasingOptions options;
  bool float16 = false;
};

// Model::lemma_casing from `text_paths`, each line a paragraph (or more) of running text, as
// for `sawtag pretrain`, split by the model's own tokenizer.
void count_spellings(const std::vector<std::string>& text_paths, const LemmaCasingOptions& options,
                     Model& model) {
  const Tokenizer tokenizer(model.tokenizer);
  SpellingCounter counter(model.words);
  std::string sources;
  for (const std::string& text : text_paths) {
    LineSource source(text);
    std::string line;
    while (source.next(line)) {
      for (const Sentence& sentence : tokenizer.tokenize(line)) counter.add(sentence);
    }
    // File names alone, as the training record names every input.
    sources += (sources.empty() ? "" : ", ") + std::filesystem::path(text).filename().string();
  }
  const std::vector<std::string> spellings = counter.usual_spellings(options);
  model.lemma_casing.clear();
  for (const std::string& spelling : spellings) {
    model.lemma_casing += (model.lemma_casing.empty() ? "" : " ") + spelling;
  }
  spdlog::info(
      "{} words of the vocabulary counted; {} usually written otherwise than in lower "
      "case",
      counter.words_counted(), spellings.size());
  model.training.fields["lemma_casing"] = std::to_string(spellings.size()) +
                                          " usual spellings from " + sources + " (" +
                                          std::to_string(counter.words_counted()) + " words)";
}

// A dictionary file (sawtag/lemma_dictionary.hpp), a line at a time.
LemmaDictionarySource read_dictionary(const std::string& path) {
  LemmaDictionarySource source;
  LineSource lines(path);
  std::string line;
  while (lines.next(line)) {
    source.add_line(line, lines.name() + ":" + std::to_string(lines.line_number()));
  }
  if (source.entries.empty()) throw InputError(lines.name() + ": no entries: an empty dictionary");
  return source;
}

// Says what the dictionary gave, and records it in the model's training record.
void add_dictionary_record(const std::string& path, Model& model) {
  const std::string summary =
      describe(model.lemma_dictionary) + " from " + std::filesystem::path(path).filename().string();
  spdlog::info("{}", summary);
  model.training.fields["lemma_dictionary"] = summary;
}

void run_lemma_tables(const LemmaTablesArguments& arguments) {
  const std::string path = locate_model(arguments.model_path);
  std::vector<FileArgument> inputs = {{"-m", path}, {"--treebank", arguments.treebank_path}};
  for (const std::string& text : arguments.text_paths) inputs.push_back({"--text", text});
  if (!arguments.dictionary_path.empty()) {
    inputs.push_back({"--dictionary", arguments.dictionary_path});
  }
  refuse_output_over_input(inputs, {{"-o", arguments.output_path}});
  Model model = load_model(path, Int8WordTable::keep);
  if (!model.has_lemmas()) throw InputError(path + ": the model has no lemma head");
  if (!arguments.treebank_path.empty()) {
    const std::vector<Sentence> treebank = read_treebank(arguments.treebank_path);
    derive_lemma_tables(treebank, model);
    spdlog::info("from {}: {} lemma lexicon entries, {} characters dropped by a UPOS",
                 arguments.treebank_path, model.lemma_lexicon.size(), model.lemma_deletions.size());
    if (!arguments.dictionary_path.empty()) {
      model.lemma_dictionary =
          make_lemma_dictionary(read_dictionary(arguments.dictionary_path), treebank, model);
      add_dictionary_record(arguments.dictionary_path, model);
    }
  }
  if (!arguments.text_paths.empty())
    count_spellings(arguments.text_paths, arguments.options, model);
  save_model(model, arguments.output_path, rewritten_model_encoding(model, arguments.float16));
  spdlog::info("wrote {}", arguments.output_path);
}

}  // namespace

void add_lemma_tables_command(CLI::App& app) {
  auto arguments = std::make_shared<LemmaTablesArguments>();
  CLI::App* command = app.add_subcommand(
      "lemma-tables",
      "Recompute the tables a model's lemmas use that need no training: from a treebank (the "
      "lemma lexicon, characters a UPOS drops) and from unlabelled text (how words are usually "
      "written: \"kerala\" -> \"Kerala\")");
  command->add_option("-m,--model", arguments->model_path,
                      "Model with a lemma head (default: see README)");
  command->add_option("--treebank", arguments->treebank_path,
                      "The model's training treebank (CoNLL-U with lemmas)");
  command->add_option("--text", arguments->text_paths,
                      "Unlabelled UTF-8 text, a paragraph or more per line ('-' for stdin); "
                      "may be repeated");
  command->add_option("--dictionary", arguments->dictionary_path,
                      "With --treebank: a dictionary of the language, lines of form, UPOS and "
                      "lemma separated by tabs ('#' comments: its source and licence), whose "
                      "known lemmas and irregular forms the lemma choice uses");
  command->add_option("-o,--output", arguments->output_path, "Model file to write")->required();
  command
      ->add_option("--min-count", arguments->options.min_count,
                   "With --text: words seen fewer times (outside sentence starts) are not "
                   "listed")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000'000));
  command
      ->add_option("--max-lower-share", arguments->options.max_lower_share,
                   "With --text: list a word only when at most this share of its uses is in "
                   "lower case")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  command->add_flag("--float16", arguments->float16,
                    "Write tensors as base64 float16 (as `train --float16`); a model with int8 "
                    "word rows keeps them and float16 for the rest");
  command->callback([arguments] {
    if (!arguments->dictionary_path.empty() && arguments->treebank_path.empty()) {
      throw CLI::ValidationError("--dictionary",
                                 "needs --treebank (the model's training treebank)");
    }
    if (arguments->treebank_path.empty() && arguments->text_paths.empty()) {
      throw CLI::ValidationError("lemma-tables", "give --treebank, --text or both");
    }
    run_lemma_tables(*arguments);
  });
}

}  // namespace sawtag::cli
