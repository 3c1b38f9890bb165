#include "calibrate_command.hpp"

#include <cstdio>
#include <memory>

#include <spdlog/spdlog.h>

#include "model_encoding.hpp"
#include "model_locator.hpp"
#include "overwrite_check.hpp"
#include "sawtag/calibration.hpp"
#include "sawtag/evaluation.hpp"
#include "treebank_file.hpp"

namespace sawtag::cli {
namespace {

struct CalibrateArguments {
  std::string model_path;
  std::string dev_path;
  std::string output_path;
  bool float16 = false;
  int threads = 2;
};

std::string errors_of(const Tagger& tagger, const std::vector<Sentence>& gold, int threads) {
  const Evaluation evaluation = evaluate(tagger, gold, threads);
  char text[96];
  std::snprintf(text, sizeof text, "UPOS %.4f, XPOS %.4f",
                evaluation.upos_reliability.expected_calibration_error(),
                evaluation.xpos_reliability.expected_calibration_error());
  return text;
}

void run_calibrate(const CalibrateArguments& arguments) {
  const std::string path = locate_model(arguments.model_path);
  refuse_output_over_input({{"-m", path}, {"--dev", arguments.dev_path}},
                           {{"-o", arguments.output_path}});
  Model model = load_model(path, Int8WordTable::keep);
  const std::vector<Sentence> dev = read_tagged_treebank(arguments.dev_path);
  const auto shared = std::make_shared<const Model>(model);
  const Tagger tagger(shared);
  const std::string before = errors_of(tagger, dev, arguments.threads);
  model.calibration = fit_calibration(tagger, dev, arguments.threads);
  const auto calibrated = std::make_shared<const Model>(model);
  const std::string after = errors_of(Tagger(calibrated), dev, arguments.threads);
  spdlog::info("temperatures UPOS {:.4f}, XPOS {:.4f}; calibration error on {}: {} before, {} after",
               model.calibration.upos_temperature, model.calibration.xpos_temperature,
               arguments.dev_path, before, after);
  save_model(model, arguments.output_path, rewritten_model_encoding(model, arguments.float16));
  spdlog::info("wrote {}", arguments.output_path);
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto arguments = std::make_shared<CalibrateArguments>();
  CLI::App* command = app.add_subcommand(
      "calibrate",
      "Fit the temperatures that make a model's probabilities honest, on held-out gold words");
  command->add_option("-m,--model", arguments->model_path, "Model file (default: see README)");
  command->add_option("--dev", arguments->dev_path,
                      "Held-out gold treebank (CoNLL-U), never the test set")
      ->required();
  command->add_option("-o,--output", arguments->output_path, "Calibrated model file")->required();
  command->add_flag("--float16", arguments->float16,
                    "Write tensors as base64 float16 (as `train --float16`); a model with int8 "
                    "word rows keeps them and float16 for the rest");
  command->add_option("-j,--threads", arguments->threads, "Threads")
      ->capture_default_str()->check(CLI::Range(1, 256));
  command->callback([arguments] { run_calibrate(*arguments); });
}

}  // namespace sawtag::cli
