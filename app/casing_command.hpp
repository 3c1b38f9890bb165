// `sawtag casing`: learns from unlabelled text how words are usually written, for the lemmas
// (Model::lemma_casing, sawtag/lemma_casing.hpp).
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

void add_casing_command(CLI::App& app);

}  // namespace sawtag::cli
