// int8 rows with a scale per row (sawtag/quantized_rows.hpp): widening is scale * q exactly,
// quantizing rounds to the nearest of 127 steps per side.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sawtag/quantized_rows.hpp"

namespace sawtag {

TEST_CASE("widen_row is scale * q, row by row", "[quantized_rows]") {
  // rows: 0.5 * (1, -2, 3) and -2 * (127, 0, -127)
  const QuantizedRows table{2, 3, {1, -2, 3, 127, 0, -127}, {0.5f, -2.0f}};
  std::vector<float> row(3);
  widen_row(table, 0, row.data());
  CHECK(row == std::vector<float>{0.5f, -1.0f, 1.5f});
  widen_row(table, 1, row.data());
  CHECK(row == std::vector<float>{-254.0f, -0.0f, 254.0f});
  CHECK(std::signbit(row[1]));  // -2 * 0 is -0, as float arithmetic gives it
  std::vector<float> all(6);
  widen_rows(table, all.data());
  CHECK(all == std::vector<float>{0.5f, -1.0f, 1.5f, -254.0f, 0.0f, 254.0f});
}

TEST_CASE("widen_rows gives the bits of scales[r] * float(q) for every value", "[quantized_rows]") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> byte(-127, 127);
  std::uniform_real_distribution<float> scale(1e-4f, 1.0f);
  QuantizedRows table{40, 7, QuantizedValues(280), std::vector<float>(40)};
  for (std::int8_t& value : table.values) value = static_cast<std::int8_t>(byte(rng));
  for (float& value : table.scales) value = scale(rng);
  std::vector<float> all(280);
  widen_rows(table, all.data());
  for (std::size_t i = 0; i < all.size(); ++i) {
    INFO("value " << i);
    REQUIRE(all[i] == table.scales[i / 7] * static_cast<float>(table.values[i]));
  }
}

TEST_CASE("quantize_rows: the largest magnitude becomes 127, the rest round to the nearest step",
          "[quantized_rows]") {
  Tensor tensor({3, 3});
  tensor.data = {1.0f,  -0.6f, 0.25f,   // scale 1/127: 127, -76.2 -> -76, 31.75 -> 32
                 0.0f,  0.0f,  0.0f,    // a row of zeros: scale 0, values 0
                 -4.0f, 1.0f,  0.01f};  // scale 4/127: -127, 31.75 -> 32, 0.3175 -> 0
  const QuantizedRows table = quantize_rows(tensor);
  CHECK(table.rows == 3);
  CHECK(table.cols == 3);
  CHECK(table.scales ==
        std::vector<float>{static_cast<float>(1.0 / 127), 0.0f, static_cast<float>(4.0 / 127)});
  CHECK(table.values == QuantizedValues{127, -76, 32, 0, 0, 0, -127, 32, 0});
  std::vector<float> widened(9);
  widen_rows(table, widened.data());
  for (std::size_t i = 0; i < 9; ++i) {
    INFO("value " << i);
    CHECK(std::fabs(widened[i] - tensor.data[i]) <= table.scales[i / 3] / 2 * 1.0001f);
  }
}

}  // namespace sawtag
