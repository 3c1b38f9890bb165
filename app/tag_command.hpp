// `sawtag tag`: the default command.
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

// Adds the `tag` subcommand; parsing it runs the command. Errors are thrown (sawtag::Error,
// OutputClosed) for main to report.
void add_tag_command(CLI::App& app);

}  // namespace sawtag::cli
