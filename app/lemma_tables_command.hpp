// `sawtag lemma-tables`: recomputes the tables of a model's lemmatizer that need no training,
// from a treebank (Model::lemma_lexicon, lemma_deletions) and from unlabelled text
// (Model::lemma_casing, sawtag/lemma_casing.hpp).
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

void add_lemma_tables_command(CLI::App& app);

}  // namespace sawtag::cli
