// Random starting weights for training.
#pragma once

#include <cstdint>

#include "sawtag/config.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag {

// Allocates every tensor of `parameters` to its shape (for_each_parameter) and fills it:
// weight matrices Glorot/Xavier-uniform in +-sqrt(6 / (in + out)), biases 0, layer-norm
// gamma 1 and beta 0, embeddings N(0, 0.1^2), relative-position biases 0. Uses its own
// std::mt19937_64 seeded with `seed`: the same seed gives the same weights.
void initialize_parameters(Parameters& parameters, const ModelConfig& config, std::uint64_t seed);

}  // namespace sawtag
