#include "train/batching.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace sawtag::train {

std::vector<std::vector<std::size_t>> make_batches(const std::vector<std::size_t>& lengths,
                                                   int batch_size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> order(lengths.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), rng);

  const std::size_t size = static_cast<std::size_t>(std::max(1, batch_size));
  const std::size_t pool_size = size * 50;
  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t pool_start = 0; pool_start < order.size(); pool_start += pool_size) {
    const std::size_t pool_end = std::min(order.size(), pool_start + pool_size);
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(pool_start),
                     order.begin() + static_cast<std::ptrdiff_t>(pool_end),
                     [&lengths](std::size_t a, std::size_t b) { return lengths[a] < lengths[b]; });
    for (std::size_t start = pool_start; start < pool_end; start += size) {
      const std::size_t end = std::min(pool_end, start + size);
      batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(start),
                           order.begin() + static_cast<std::ptrdiff_t>(end));
    }
  }
  std::shuffle(batches.begin(), batches.end(), rng);
  return batches;
}

}  // namespace sawtag::train
