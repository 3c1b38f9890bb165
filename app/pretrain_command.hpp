// `sawtag pretrain`: pre-trains the encoder on raw text (sawtag/pretraining.hpp).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace sawtag::cli {

void add_pretrain_command(CLI::App& app, const std::vector<std::string>& arguments_of_run);

// The command line as recorded in a model file: arguments that are paths keep their file name
// only ("/work/vectors/wiki.vec" -> "wiki.vec"), so no file names a directory of the machine
// that made it.
std::string recorded_command_line(const std::vector<std::string>& arguments_of_run);

}  // namespace sawtag::cli
