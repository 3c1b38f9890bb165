// Length-bucketed, shuffled batches of sentence indices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sawtag::train {

// Splits sentence indices into batches of `batch_size` sentences of similar length: indices
// are shuffled, cut into pools of 50 batches, each pool sorted by length and cut into batches,
// and the batches shuffled. The same seed gives the same batches.
std::vector<std::vector<std::size_t>> make_batches(const std::vector<std::size_t>& lengths,
                                                   int batch_size, std::uint64_t seed);

}  // namespace sawtag::train
