// The sawtag command line. Each subcommand lives in its own file and registers itself with
// add_<name>_command(app); `tag` is the default. main is the only place that catches errors:
// it prints one line on stderr and sets the exit status (0 ok, 1 bad input or model, 2 usage).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <exception>
#include <string>
#include <vector>

#include "attention_command.hpp"
#include "batch_output.hpp"
#include "calibrate_command.hpp"
#include "ensemble_command.hpp"
#include "eval_command.hpp"
#include "explain_command.hpp"
#include "finite_numbers.hpp"
#include "pretrain_command.hpp"
#include "info_command.hpp"
#include "lemma_tables_command.hpp"
#include "output_file.hpp"
#include "sawtag/cpu_kernels.hpp"
#include "sawtag/error.hpp"
#include "silver_command.hpp"
#include "tag_command.hpp"
#include "train_command.hpp"
#include "train_tokenizer_command.hpp"
#include "walkthrough_command.hpp"

#ifndef SAWTAG_VERSION
#define SAWTAG_VERSION "unknown"
#endif

namespace {

constexpr int kExitSuccess = 0;
constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

// Messages go to stderr, one line each: "sawtag: error: notes.conllu:12: ...".
void set_up_logging() {
  auto logger = spdlog::stderr_color_st("sawtag");
  logger->set_pattern("sawtag: %^%l%$: %v");
  spdlog::set_default_logger(logger);
}

std::string one_line(std::string message) {
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!message.empty() && message.back() == ' ') message.pop_back();
  return message;
}

// `sawtag [options] [files]` means `sawtag tag [options] [files]`.
std::vector<std::string> with_default_command(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  const auto is_known = [&app](const std::string& arg) {
    if (arg == "-h" || arg == "--help" || arg == "--version") return true;
    for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
      if (command->get_name() == arg) return true;
    }
    return false;
  };
  if (args.size() < 2 || !is_known(args[1])) args.insert(args.begin() + 1, "tag");
  return args;
}

int run(int argc, char** argv) {
  CLI::App app{"sawtag: part-of-speech tagging with multi-head self-attention", "sawtag"};
  app.set_version_flag("--version", [] {
    std::string kernels;
    try {
      kernels = sawtag::cpu_kernels();
    } catch (const sawtag::Error& error) {
      kernels = error.what();
    }
    return std::string("sawtag ") + SAWTAG_VERSION + "\nkernels: " + kernels;
  });
  app.require_subcommand(1);
  const std::vector<std::string> arguments_of_run(argv, argv + argc);  // recorded by train
  sawtag::cli::add_tag_command(app);
  sawtag::cli::add_train_command(app, arguments_of_run);
  sawtag::cli::add_pretrain_command(app, arguments_of_run);
  sawtag::cli::add_train_tokenizer_command(app, arguments_of_run);
  sawtag::cli::add_eval_command(app);
  sawtag::cli::add_calibrate_command(app);
  sawtag::cli::add_lemma_tables_command(app);
  sawtag::cli::add_ensemble_command(app, arguments_of_run);
  sawtag::cli::add_info_command(app);
  sawtag::cli::add_attention_command(app);
  sawtag::cli::add_explain_command(app);
  sawtag::cli::add_silver_command(app);
  sawtag::cli::add_walkthrough_command(app);
  sawtag::cli::require_finite_numbers(app);  // after every command: each FLOAT option, NaN refused
  std::vector<std::string> args = with_default_command(app, argc, argv);
  std::vector<char*> pointers;
  for (std::string& arg : args) pointers.push_back(arg.data());
  try {
    app.parse(static_cast<int>(pointers.size()), pointers.data());
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    spdlog::error("{} (see sawtag --help)", one_line(error.what()));
    return kExitUsage;
  }
  return kExitSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe shows up as EPIPE on write, handled where we write.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    set_up_logging();
    return run(argc, argv);
  } catch (const sawtag::cli::OutputClosed&) {
    return kExitSuccess;  // `sawtag tag big.txt | head`: the reader has what it wanted
  } catch (const sawtag::cli::BatchFailed&) {
    return kExitBadInput;  // each failure and a summary are on stderr already
  } catch (const sawtag::Error& error) {
    spdlog::error("{}", one_line(error.what()));
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    spdlog::error("out of memory");
    return kExitBadInput;
  } catch (const std::exception& error) {
    spdlog::error("internal error: {}", one_line(error.what()));
    return kExitBadInput;
  } catch (...) {
    spdlog::error("internal error: unknown exception");
    return kExitBadInput;
  }
}
