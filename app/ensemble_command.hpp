// `sawtag ensemble`: puts several taggers of the same tag sets into one model file, which tags
// with the mean of their logits.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace sawtag::cli {

void add_ensemble_command(CLI::App& app, const std::vector<std::string>& arguments_of_run);

}  // namespace sawtag::cli
