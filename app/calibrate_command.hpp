// `sawtag calibrate`: fits a model's probability temperatures on held-out gold words.
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

void add_calibrate_command(CLI::App& app);

}  // namespace sawtag::cli
