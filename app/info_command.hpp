// `sawtag info`: what a model file holds.
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

// Adds the `info` subcommand; parsing it runs the command.
void add_info_command(CLI::App& app);

}  // namespace sawtag::cli
