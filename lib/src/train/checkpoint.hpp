// Everything needed to continue a stopped training run exactly where it stopped: written at
// the end of every epoch, read by --resume.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
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

// The pieces checkpoint files are made of (also used by the pre-training checkpoint):
// a "KEY SIZE" line, SIZE bytes and a newline;
void write_blob(std::ostream& out, const std::string& key, const std::string& bytes);
// that section read back (InputError naming `path` when it is missing or truncated);
std::string read_blob(std::istream& in, const std::string& expected_key, const std::string& path);
// every tensor's floats, raw little-endian, in for_each_parameter order, and back.
std::string parameter_bytes(const Parameters& parameters, const ModelConfig& config);
Parameters parameters_from_bytes(const std::string& bytes, const ModelConfig& config,
                                 const std::string& path);

}  // namespace sawtag::train
