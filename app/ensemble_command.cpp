// sawtag ensemble -m a.json -m b.json [-m c.json] -o ab.json [--dev dev.conllu]
//
// The first model gives the file everything but the further networks: its tokenizer (rules or
// learned), self-tests, training record and, without --dev, its calibration. The others give
// their networks only; a model that is an ensemble already gives all of its taggers.
#include "ensemble_command.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "overwrite_check.hpp"
#include "sawtag/calibration.hpp"
#include "sawtag/error.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/training.hpp"
#include "treebank_file.hpp"

namespace sawtag::cli {
namespace {

struct EnsembleArguments {
  std::vector<std::string> model_paths;
  std::string output_path;
  std::string dev_path;
  bool float16 = false;
  bool int8_words = false;
  int threads = 2;
};

std::string accuracy_of(const Tagger& tagger, const std::vector<Sentence>& dev, int threads) {
  const Evaluation evaluation = evaluate(tagger, dev, threads);
  char text[64];
  std::snprintf(text, sizeof text, "UPOS %.2f, XPOS %.2f", evaluation.upos.accuracy(),
                evaluation.xpos.accuracy());
  return text;
}

Model combine(const std::vector<std::string>& paths) {
  Model model = load_model(paths.front(), Int8WordTable::keep);
  for (std::size_t m = 1; m < paths.size(); ++m) {
    Model other = load_model(paths[m], Int8WordTable::keep);
    if (!same_tag_sets(other, model)) {
      throw InputError(paths[m] + ": its tag sets are not those of " + paths.front() +
                       " (the same UPOS and XPOS lists, in the same order): taggers of one "
                       "ensemble must share them");
    }
    // The file keeps only a further tagger's network (serialize_model leaves the rest out).
    std::vector<std::shared_ptr<const Model>> members = std::move(other.ensemble);
    other.ensemble.clear();
    model.ensemble.push_back(std::make_shared<const Model>(std::move(other)));
    model.ensemble.insert(model.ensemble.end(), members.begin(), members.end());
  }
  if (model.ensemble.size() + 1 > kMaxEnsembleTaggers) {
    throw InputError("an ensemble holds at most " + std::to_string(kMaxEnsembleTaggers) +
                     " taggers, got " +
                     std::to_string(model.ensemble.size() + 1));
  }
  return model;
}

TensorEncoding encoding_of(const EnsembleArguments& arguments, const Model& first) {
  if (arguments.int8_words) return TensorEncoding::base64_float16_int8_words;
  if (arguments.float16) return TensorEncoding::base64_float16;
  // As `sawtag calibrate`: a first model with int8 word rows was written that way.
  return first.word_embedding_int8 ? TensorEncoding::base64_float16_int8_words
                                   : TensorEncoding::base64;
}

void run_ensemble(const EnsembleArguments& arguments, const std::string& command_line) {
  if (arguments.model_paths.size() < 2) {
    throw InputError("sawtag ensemble needs at least two models (-m A.json -m B.json)");
  }
  std::vector<FileArgument> inputs;
  for (const std::string& path : arguments.model_paths) inputs.push_back({"-m", path});
  if (!arguments.dev_path.empty()) inputs.push_back({"--dev", arguments.dev_path});
  refuse_output_over_input(inputs, {{"-o", arguments.output_path}});
  std::vector<Sentence> dev;
  if (!arguments.dev_path.empty()) dev = read_tagged_treebank(arguments.dev_path);  // before the work

  Model model = combine(arguments.model_paths);
  std::string sources;
  for (const std::string& path : arguments.model_paths) {
    sources += (sources.empty() ? "" : ", ") + path;
  }
  model.training.fields["ensemble_command"] = command_line;
  model.training.fields["ensemble_taggers"] = std::to_string(model.ensemble.size() + 1);
  spdlog::info("{} taggers, from {}", model.ensemble.size() + 1, sources);

  const Tagger ensemble(std::make_shared<const Model>(model));  // checks the self-tests
  if (!dev.empty()) {
    Model first = model;
    first.ensemble.clear();
    spdlog::info("{}: the first tagger alone: {}", arguments.dev_path,
                 accuracy_of(Tagger(std::make_shared<const Model>(std::move(first))), dev,
                             arguments.threads));
    spdlog::info("{}: the ensemble: {}", arguments.dev_path,
                 accuracy_of(ensemble, dev, arguments.threads));
    model.calibration = fit_calibration(ensemble, dev, arguments.threads);
    spdlog::info("temperatures fitted on {}: UPOS {:.4f}, XPOS {:.4f}", arguments.dev_path,
                 model.calibration.upos_temperature, model.calibration.xpos_temperature);
  } else {
    spdlog::warn("no --dev: the first model's temperatures are kept, which may not suit the "
                 "ensemble's mean (run sawtag calibrate on it)");
  }
  save_model(model, arguments.output_path, encoding_of(arguments, model));
  spdlog::info("wrote {}", arguments.output_path);
}

}  // namespace

void add_ensemble_command(CLI::App& app, const std::vector<std::string>& arguments_of_run) {
  auto arguments = std::make_shared<EnsembleArguments>();
  CLI::App* command = app.add_subcommand(
      "ensemble",
      "Put taggers of the same tag sets into one model file that tags with their mean logits");
  command->add_option("-m,--model", arguments->model_paths,
                      "A model file (give two or more: the first gives the tokenizer, "
                      "self-tests and training record)")
      ->required();
  command->add_option("-o,--output", arguments->output_path, "The ensemble's model file")
      ->required();
  command->add_option("--dev", arguments->dev_path,
                      "Held-out gold treebank (CoNLL-U): report the first tagger's and the "
                      "ensemble's accuracy and fit the ensemble's temperatures");
  command->add_flag("--float16", arguments->float16, "Write tensors as base64 float16");
  command->add_flag("--int8-words", arguments->int8_words,
                    "Write every tagger's word embedding as int8 rows and the rest as float16");
  command->add_option("-j,--threads", arguments->threads, "Threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  command->callback([arguments, &arguments_of_run] {
    run_ensemble(*arguments, recorded_command_line(arguments_of_run));
  });
}

}  // namespace sawtag::cli
