// `sawtag attention`: the attention weights of every layer and head for a few sentences, as a
// terminal heat map, JSON (the attention file), an HTML page or an SVG heat map.
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

// Adds the `attention` subcommand; parsing it runs the command. Errors are thrown
// (sawtag::Error, CLI::ValidationError for options the model or input cannot satisfy,
// OutputClosed) for main to report.
void add_attention_command(CLI::App& app);

}  // namespace sawtag::cli
