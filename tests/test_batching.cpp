#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "train/batching.hpp"
#include "train/derive_seed.hpp"

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

TEST_CASE("Derived seeds differ for every run seed, purpose and point", "[batching]") {
  // Every random choice of training (initial weights, each epoch's batches, each sentence's
  // dropout) has its own seed: were they all the same, the run's --seed would change nothing.
  std::set<std::uint64_t> seeds;
  std::size_t derived = 0;
  for (std::uint64_t run : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{1} << 32}) {
    for (std::uint64_t purpose = 0; purpose < 20; ++purpose) {
      for (std::uint64_t point = 0; point < 20; ++point) {
        seeds.insert(train::derive_seed(run, purpose, point));
        ++derived;
      }
    }
  }
  CHECK(seeds.size() == derived);
  CHECK(train::derive_seed(7, 3, 4) == train::derive_seed(7, 3, 4));
}

}  // namespace sawtag
