// A soft-targets file (sawtag/soft_targets.hpp) as training examples of a student: the
// teacher's classes mapped to the student's, its probabilities softened to the distillation
// temperature.
#pragma once

#include <string>
#include <vector>

#include "sawtag/model.hpp"
#include "train/batch_step.hpp"

namespace sawtag::train {

// Every sentence of the file at `path` as an Example of `model` whose hard targets are all -1
// and whose soft targets hold, per head the student has, each word's distribution over the
// student's classes: q_c^(1/T) renormalised over the teacher's classes the student also has
// (a word none of whose classes the student has gets no target for that head). Throws
// InputError for an unreadable or malformed file or one without sentences.
std::vector<Example> read_soft_examples(const Model& model, const std::string& path,
                                        float temperature);

}  // namespace sawtag::train
