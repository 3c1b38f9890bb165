// `sawtag walkthrough`: every step of self-attention for one sentence with the model's own
// numbers (sawtag/walkthrough.hpp), in the terminal, as JSON (docs/walkthrough-format.md) or as
// an HTML page (docs/walkthrough.md).
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

// Adds the `walkthrough` subcommand; parsing it runs the command. Errors are thrown
// (sawtag::Error, CLI::ValidationError, OutputClosed) for main to report.
void add_walkthrough_command(CLI::App& app);

}  // namespace sawtag::cli
