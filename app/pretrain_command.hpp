// `sawtag pretrain`: pre-trains the encoder on raw text (sawtag/pretraining.hpp).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace sawtag::cli {

void add_pretrain_command(CLI::App& app, const std::vector<std::string>& arguments_of_run);

}  // namespace sawtag::cli
