// Training's products at every level this CPU and build have (lib/src/nn/levels/): each against
// a reference computed in double, and the same floats when run again (the same seed and the same
// level give the same model); nn/products.hpp's wrappers against Eigen at the build's flags.
#include <catch2/catch.hpp>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "infer/cpu_level.hpp"
#include "nn/products.hpp"

using namespace sawtag;
using infer::CpuLevel;

namespace {

std::vector<float> random_values(std::mt19937& rng, int count) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(static_cast<std::size_t>(count));
  for (float& value : values) value = uniform(rng);
  return values;
}

// The levels' product code this CPU can run, lowest first.
std::vector<const nn::LevelProducts*> runnable_products() {
  std::vector<const nn::LevelProducts*> all;
  for (const CpuLevel level : infer::supported_cpu_levels()) {
    const nn::LevelProducts* code = level == CpuLevel::baseline ? nn::product_levels::baseline()
                                    : level == CpuLevel::avx2   ? nn::product_levels::avx2()
                                    : level == CpuLevel::avx512 ? nn::product_levels::avx512()
                                                                : nullptr;
    if (code != nullptr) all.push_back(code);
  }
  return all;
}

}  // namespace

TEST_CASE("products: every level equals the double reference and repeats itself exactly",
          "[products]") {
  std::mt19937 rng(5);
  // Sizes around Eigen's switch from coefficient loops to blocked GEMM, and past a block.
  for (const auto& [m, k, n] :
       std::vector<std::array<int, 3>>{{3, 5, 7}, {37, 65, 129}, {300, 256, 70}}) {
    const std::vector<float> a = random_values(rng, m * k);   // [m, k]
    const std::vector<float> b = random_values(rng, k * n);   // [k, n]
    const std::vector<float> at = random_values(rng, k * m);  // [k, m]
    const std::vector<float> bt = random_values(rng, n * k);  // [n, k]
    const std::vector<float> start = random_values(rng, m * n);
    std::vector<double> times(static_cast<std::size_t>(m) * n, 0.0), added(times),
        transposed(times);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double sum = 0, sum_added = start[static_cast<std::size_t>(i) * n + j], sum_transposed = 0;
        for (int p = 0; p < k; ++p) {
          sum += double{a[static_cast<std::size_t>(i) * k + p]} *
                 b[static_cast<std::size_t>(p) * n + j];
          sum_added += double{at[static_cast<std::size_t>(p) * m + i]} *
                       b[static_cast<std::size_t>(p) * n + j];
          sum_transposed += double{a[static_cast<std::size_t>(i) * k + p]} *
                            bt[static_cast<std::size_t>(j) * k + p];
        }
        times[static_cast<std::size_t>(i) * n + j] = sum;
        added[static_cast<std::size_t>(i) * n + j] = sum_added;
        transposed[static_cast<std::size_t>(i) * n + j] = sum_transposed;
      }
    }
    const std::vector<const nn::LevelProducts*> levels = runnable_products();
    REQUIRE_FALSE(levels.empty());
    for (std::size_t l = 0; l < levels.size(); ++l) {
      INFO("level " << l << ", " << m << " x " << k << " x " << n);
      const nn::LevelProducts& code = *levels[l];
      std::vector<float> c(static_cast<std::size_t>(m) * n), again(c.size());
      const auto check = [&](const std::vector<double>& expected) {
        for (std::size_t e = 0; e < c.size(); ++e) {
          REQUIRE(std::abs(c[e] - expected[e]) <= 1e-4 * (1.0 + std::abs(expected[e])));
        }
        CHECK(again == c);
      };
      code.multiply(a.data(), b.data(), c.data(), m, k, n);
      code.multiply(a.data(), b.data(), again.data(), m, k, n);
      check(times);
      c = start;
      again = start;
      code.add_transposed_times(at.data(), b.data(), c.data(), m, k, n);
      code.add_transposed_times(at.data(), b.data(), again.data(), m, k, n);
      check(added);
      code.times_transposed(a.data(), bt.data(), c.data(), m, k, n);
      code.times_transposed(a.data(), bt.data(), again.data(), m, k, n);
      check(transposed);
    }
  }
}

TEST_CASE("products: the Matrix wrappers, empty shapes included", "[products]") {
  std::mt19937 rng(6);
  nn::Matrix x = nn::Matrix::Random(9, 4), d_y = nn::Matrix::Random(9, 6);
  Tensor values({4, 6});
  for (float& value : values.data) value = std::uniform_real_distribution<float>(-1, 1)(rng);
  const Tensor& weight = values;
  const nn::Matrix expected_y = x * nn::as_matrix(weight);
  CHECK(nn::times(x, nn::as_matrix(weight)).isApprox(expected_y, 1e-5f));
  CHECK(nn::times_transposed(d_y, nn::as_matrix(weight))
            .isApprox(d_y * nn::as_matrix(weight).transpose(), 1e-5f));
  Tensor d_weight({4, 6});
  nn::add_transposed_times(x, d_y, nn::as_matrix(d_weight));
  nn::add_transposed_times(x, d_y, nn::as_matrix(d_weight));
  CHECK(nn::as_matrix(d_weight).isApprox(2 * x.transpose() * d_y, 1e-5f));
  // No rows, or an inner size of zero: empty or zero results, no call into Eigen with null data.
  CHECK(nn::times(nn::Matrix(0, 4), nn::as_matrix(weight)).rows() == 0);
  const Tensor no_inputs({0, 6});
  CHECK(nn::times(nn::Matrix(3, 0), nn::as_matrix(no_inputs)).isZero());
}
