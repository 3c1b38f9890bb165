#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "fixtures.hpp"
#include "io/float16.hpp"
#include "sawtag/model.hpp"

namespace sawtag {

TEST_CASE("float16 conversion rounds to the nearest half and widens exactly", "[float16]") {
  CHECK(float16::from_float(0.0f) == 0x0000);
  CHECK(float16::from_float(-0.0f) == 0x8000);
  CHECK(float16::from_float(1.0f) == 0x3C00);
  CHECK(float16::from_float(-2.0f) == 0xC000);
  CHECK(float16::from_float(0.1f) == 0x2E66);
  CHECK(float16::from_float(65504.0f) == 0x7BFF);                // largest half
  CHECK(float16::from_float(65520.0f) == 0x7C00);                // rounds up to infinity
  CHECK(float16::from_float(std::ldexp(1.0f, -24)) == 0x0001);   // smallest subnormal
  CHECK(float16::from_float(std::ldexp(1.0f, -25)) == 0x0000);   // halfway: ties to even
  CHECK(float16::from_float(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);  // halfway, even stays
  CHECK(float16::from_float(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);  // halfway, rounds up
  CHECK(std::isnan(float16::to_float(float16::from_float(std::nanf("")))));
  CHECK(float16::to_float(0x2E66) == 0.0999755859375f);
  CHECK(float16::to_float(0x0001) == std::ldexp(1.0f, -24));
  for (std::uint32_t half = 0; half < 0x7C00; ++half) {  // every finite positive half round-trips
    REQUIRE(float16::from_float(float16::to_float(static_cast<std::uint16_t>(half))) == half);
  }
}

TEST_CASE("model file: float16 tensors load as the rounded values", "[float16][model_file]") {
  const Model model = testing::make_random_model();
  const std::string text = serialize_model(model, TensorEncoding::base64_float16);
  CHECK(text.find("\"dtype\": \"float16\"") != std::string::npos);
  CHECK(text.size() < serialize_model(model, TensorEncoding::base64).size());
  const Model loaded = parse_model(text, "half.json");
  const auto& expected = model.parameters.encoder.word_embedding.data;
  const auto& actual = loaded.parameters.encoder.word_embedding.data;
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    REQUIRE(actual[i] == float16::to_float(float16::from_float(expected[i])));
    REQUIRE(std::abs(actual[i] - expected[i]) <= std::abs(expected[i]) * 1e-3f + 1e-7f);
  }
}

}  // namespace sawtag
