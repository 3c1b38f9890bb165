#include "infer/level_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>

#include "infer/kernels.hpp"
#include "infer/packed_linear.hpp"

namespace sawtag::infer {

namespace {

// Deterministic values in [-0.5, 0.5): the timing must not depend on a global RNG.
template <class Values>
void fill(Values& values, std::uint32_t seed) {
  std::uint32_t state = seed;
  for (float& value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
  }
}

LinearParameters random_linear(int in, int out, std::uint32_t seed) {
  LinearParameters linear{Tensor({in, out}), Tensor({out})};
  fill(linear.weight.data, seed);
  fill(linear.bias.data, seed + 1);
  return linear;
}

// One level's products, packed for it, with their inputs and outputs.
struct LevelProducts {
  Kernels kernels;
  std::vector<std::unique_ptr<PackedLinear>> products;
  std::vector<float> output;
};

}  // namespace

std::vector<LevelTiming> time_levels(const std::vector<CpuLevel>& levels, const LayerShapes& shapes,
                                     int rounds) {
  const int d = shapes.d_model;
  const int ff = shapes.d_ff;
  const LinearParameters weights[] = {random_linear(d, 3 * d, 1), random_linear(d, d, 3),
                                      random_linear(d, ff, 5), random_linear(ff, d, 7)};
  std::vector<float> input(static_cast<std::size_t>(shapes.rows) * std::max(d, ff));
  fill(input, 9);

  std::vector<LevelProducts> all(levels.size());
  for (std::size_t l = 0; l < levels.size(); ++l) {
    all[l].kernels = kernels_for(levels[l]);
  }
  std::size_t widest = 0;
  for (LevelProducts& level : all) {
    for (const LinearParameters& linear : weights) {
      level.products.push_back(std::make_unique<PackedLinear>(
          std::vector<const LinearParameters*>{&linear}, Precision::reduced, level.kernels));
      widest = std::max(widest, static_cast<std::size_t>(level.products.back()->stride()));
    }
    level.output.resize(widest * static_cast<std::size_t>(shapes.rows));
  }
  const auto run = [&](LevelProducts& level) {
    for (const auto& product : level.products) {
      product->apply(input.data(), product->in(), shapes.rows, level.output.data());
    }
  };

  std::vector<LevelTiming> timings(levels.size());
  for (std::size_t l = 0; l < levels.size(); ++l) {
    timings[l].level = levels[l];
    timings[l].milliseconds = std::numeric_limits<double>::infinity();
    run(all[l]);  // warm-up: code, weights and scratch into the caches
  }
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const auto start = std::chrono::steady_clock::now();
      run(all[l]);
      const std::chrono::duration<double, std::milli> took =
          std::chrono::steady_clock::now() - start;
      timings[l].milliseconds = std::min(timings[l].milliseconds, took.count());
    }
  }
  return timings;
}

}  // namespace sawtag::infer
