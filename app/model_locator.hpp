// Finds the model to use: --model, else $SAWTAG_MODEL, else the model installed beside the
// binary (<prefix>/share/sawtag/en_ewt.json), else the source tree's models/en_ewt.json.
#pragma once

#include <memory>
#include <string>

#include "sawtag/model.hpp"
#include "sawtag/task_runner.hpp"

namespace sawtag::cli {

// The path of the model to load. `model_option` is --model ("" when not given). Throws
// InputError when $SAWTAG_MODEL names a missing file, or when no default model exists (the
// message lists the places tried and how to fix it).
std::string locate_model(const std::string& model_option);

// locate_model + load_model, for tagging: an int8 word embedding is kept as it is stored. The
// model's parts are read as tasks of `run_tasks` (may be empty: in turn, on this thread).
std::shared_ptr<const Model> load_located_model(const std::string& model_option,
                                                const TaskRunner& run_tasks = {});

}  // namespace sawtag::cli
