// `sawtag explain`: which words each tag depends on, by occlusion (sawtag/explanation.hpp), as
// bars in the terminal or JSON (docs/explain-format.md).
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

// Adds the `explain` subcommand; parsing it runs the command. Errors are thrown
// (sawtag::Error, CLI::ValidationError, OutputClosed) for main to report.
void add_explain_command(CLI::App& app);

}  // namespace sawtag::cli
