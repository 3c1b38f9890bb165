// Seeds for the random choices of training.
#pragma once

#include <array>
#include <cstdint>
#include <random>

namespace sawtag::train {

// A seed for one purpose (`a`) at one point of training (`b`), so that every random choice
// depends only on the run's seed and where it is made (not on threads or on where a run was
// resumed).
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0) {
  std::seed_seq sequence{seed, seed >> 32, a, a >> 32, b, b >> 32};
  // Generated as 32-bit words and then joined. (Written through a uint32_t* into a uint64_t,
  // they broke strict aliasing, and the optimiser returned 0 for every seed and purpose.)
  std::array<std::uint32_t, 2> words{};
  sequence.generate(words.begin(), words.end());
  return std::uint64_t{words[0]} << 32 | words[1];
}

}  // namespace sawtag::train
