// `sawtag eval`: a model scored on a gold treebank.
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

void add_eval_command(CLI::App& app);

}  // namespace sawtag::cli
