// `sawtag train-tokenizer`: learns a tokenizer from a treebank and stores it in a model; and the
// step `sawtag train --tokenizer learned` shares with it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"
#include "sawtag/training.hpp"

namespace sawtag::cli {

// Trains a character model on `train` (epochs chosen on `dev`) with character_model_options(),
// the seed and threads of `tagger_options` and `epochs` (0 = the default), logs each epoch,
// and stores it in `model` as its learned tokenizer. Records the dev score in the model's
// training record.
void add_learned_tokenizer(Model& model, const std::vector<Sentence>& train,
                           const std::vector<Sentence>& dev, const TrainOptions& tagger_options,
                           int epochs);

void add_train_tokenizer_command(CLI::App& app, const std::vector<std::string>& arguments_of_run);

}  // namespace sawtag::cli
