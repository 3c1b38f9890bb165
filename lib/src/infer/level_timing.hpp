// Times the matrix products of an encoder layer at each CPU level, to run the fastest
// (infer/level_choice.hpp). A CPU's feature flags say what it can run, not what it runs
// fastest: vdpbf16ps is twice float32's rate on AMD Zen 4 but half of it on Intel cores
// without AMX, so the levels are timed on the products tagging runs.
#pragma once

#include <vector>

#include "infer/cpu_level.hpp"

namespace sawtag::infer {

// The products timed: `rows` words through one encoder layer's four projections,
// [rows, d_model] x [d_model, 3 d_model], x [d_model, d_model], x [d_model, d_ff] and
// [rows, d_ff] x [d_ff, d_model], each in bfloat16 where the level has a bfloat16 kernel (what
// `sawtag tag` runs by default) and in float32 elsewhere.
struct LayerShapes {
  int rows = 64;
  int d_model = 256;
  int d_ff = 512;
};

struct LevelTiming {
  CpuLevel level = CpuLevel::baseline;
  double milliseconds = 0;  // the fastest of the rounds, for one layer's products
};

// Each level in `levels` (all must be runnable here) in turns, `rounds` rounds after a warm-up;
// a level's time is its fastest round, so a round slowed by another process counts less.
// About 1-2 ms a level on a current core at the default shapes, ~10 ms for baseline.
std::vector<LevelTiming> time_levels(const std::vector<CpuLevel>& levels,
                                     const LayerShapes& shapes = {}, int rounds = 3);

}  // namespace sawtag::infer
