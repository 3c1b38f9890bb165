// `sawtag train`: a model from any UD treebank.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "sawtag/model.hpp"

namespace sawtag::cli {

// "I/PRON saw/VERB" -> words and UPOS tags (--self-test). Throws InputError for an item that
// is not word/TAG.
SelfTest parse_self_test(const std::string& text);

// `arguments_of_run` is the whole command line, recorded in the model file; it must outlive
// parsing (main fills it before parsing).
void add_train_command(CLI::App& app, const std::vector<std::string>& arguments_of_run);

}  // namespace sawtag::cli
