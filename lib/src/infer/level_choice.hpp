// Which CPU level runs, and why: forced by SAWTAG_CPU, remembered from an earlier run on this
// CPU, or measured now (infer/level_timing.hpp) and remembered (infer/level_cache.hpp).
//
// The choice never changes a tag beyond what the levels already may: levels with a bfloat16
// kernel round the encoder's products to bfloat16 (`sawtag tag --float32` does not), and the
// float32 kernels of different levels may differ in the last bits (fused multiply-adds).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "infer/cpu_level.hpp"
#include "infer/level_timing.hpp"

namespace sawtag::infer {

enum class LevelReason {
  forced,    // SAWTAG_CPU named it
  only,      // the only level this CPU (and build) can run
  cached,    // measured by an earlier run on this CPU model and sawtag version
  measured,  // measured by this run
};

// "forced", "only", "cached", "measured".
const char* level_reason_name(LevelReason reason);

struct LevelChoice {
  CpuLevel level = CpuLevel::baseline;
  LevelReason reason = LevelReason::only;
  // For `sawtag info`: the timings ("avx512bf16 0.31 ms, avx512 0.62 ms, ..."), where they are
  // remembered, or why they could not be.
  std::string note;
};

struct LevelChoiceRequest {
  std::string forced;              // SAWTAG_CPU's value; empty: none
  std::vector<CpuLevel> runnable;  // what this CPU and build can run, lowest first, not empty
  std::string cache_path;          // level_cache_path(); empty: remember nothing
  std::string cache_key;           // sawtag's version, the CPU's model, the shapes timed
};

using MeasureLevels = std::function<std::vector<LevelTiming>(const std::vector<CpuLevel>&)>;

// Forced beats everything (throws Error for a level that is unknown or not runnable, as
// choose_cpu_level does); then a cached entry for this key naming a runnable level; else
// `measure` runs over `runnable` and the fastest is taken (the higher level on a tie) and
// written to the cache. A cache that cannot be read or written is never an error.
LevelChoice choose_level(const LevelChoiceRequest& request, const MeasureLevels& measure);

// The request for this process: SAWTAG_CPU, the levels with code in this build that this CPU
// runs, level_cache_path(), and a key of sawtag's version, what the build's baseline level was
// compiled for (a native build's is not a portable one's), cpu_model() and `shapes`.
LevelChoiceRequest level_choice_request(const LayerShapes& shapes);

}  // namespace sawtag::infer
