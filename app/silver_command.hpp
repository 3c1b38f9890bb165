// `sawtag silver`: several models tag text as one ensemble, and the words it is sure of become
// silver training data for `sawtag train --silver`.
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

void add_silver_command(CLI::App& app);

}  // namespace sawtag::cli
