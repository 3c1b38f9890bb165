#include <catch2/catch.hpp>

#include <algorithm>

#include "train/batching.hpp"

namespace sawtag {

TEST_CASE("Batches cover every sentence once, hold similar lengths and depend only on the seed",
          "[batching]") {
  std::vector<std::size_t> lengths;
  for (std::size_t i = 0; i < 1000; ++i) lengths.push_back(1 + (i * 37) % 60);
  const auto batches = train::make_batches(lengths, 32, 5);

  std::vector<std::size_t> seen;
  for (const auto& batch : batches) {
    REQUIRE(!batch.empty());
    REQUIRE(batch.size() <= 32);
    seen.insert(seen.end(), batch.begin(), batch.end());
  }
  std::sort(seen.begin(), seen.end());
  REQUIRE(seen.size() == lengths.size());
  for (std::size_t i = 0; i < seen.size(); ++i) REQUIRE(seen[i] == i);

  // Bucketing: the mean spread of lengths inside a batch is far below the corpus's (1..60).
  double spread = 0.0;
  for (const auto& batch : batches) {
    const auto [low, high] = std::minmax_element(batch.begin(), batch.end(), [&](auto a, auto b) {
      return lengths[a] < lengths[b];
    });
    spread += static_cast<double>(lengths[*high] - lengths[*low]);
  }
  CHECK(spread / static_cast<double>(batches.size()) < 10.0);

  CHECK(train::make_batches(lengths, 32, 5) == batches);
  CHECK(train::make_batches(lengths, 32, 6) != batches);
}

}  // namespace sawtag
