// Everything needed to continue a stopped training run exactly where it stopped: written at
// the end of every epoch, read by --resume.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sawtag/model.hpp"

namespace sawtag::train {

struct Checkpoint {
  Model current;               // the weights after `epochs_done` epochs
  Model best;                  // the best model on dev so far
  Parameters first_moments;    // AdamW state
  Parameters second_moments;
  std::optional<Parameters> averaged;  // moving average of the weights, when averaging
  std::int64_t steps = 0;      // optimizer steps taken
  int epochs_done = 0;
  int best_epoch = 0;
  double best_score = -1.0;    // dev UPOS + XPOS accuracy of `best`
  int epochs_without_improvement = 0;
};

// File layout: a "sawtag-checkpoint 2" line, "key value" lines for the counters, then the two
// models as length-prefixed model-file JSON, and the moments and the averaged weights (no bytes
// when not averaging) as raw little-endian float32 in for_each_parameter order. Written through a temporary file and a rename.
void save_checkpoint(const Checkpoint& checkpoint, const std::string& path);
Checkpoint load_checkpoint(const std::string& path);

}  // namespace sawtag::train
