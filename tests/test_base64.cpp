// Base64 round trips and error positions, for every length and position around the vector
// decoder's 32-character blocks.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "io/base64.hpp"

using namespace sawtag;

TEST_CASE("base64: decode(encode(bytes)) == bytes for lengths 0 to 400", "[base64]") {
  std::mt19937 random(4);
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::size_t length = 1; length <= 400; ++length) {
    std::vector<unsigned char> bytes(length);
    for (unsigned char& value : bytes) value = static_cast<unsigned char>(byte(random));
    std::string text;
    base64::encode_append(bytes.data(), bytes.size(), text);
    REQUIRE(base64::decoded_size(text) == length);
    std::vector<unsigned char> decoded(length);
    INFO("length " << length);
    REQUIRE(base64::decode(text, decoded.data()) == std::string_view::npos);
    REQUIRE(decoded == bytes);
  }
}

TEST_CASE("base64: every character of the alphabet decodes in every position", "[base64]") {
  const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string text;
  for (int repeat = 0; repeat < 7; ++repeat) text += alphabet.substr(repeat) + alphabet.substr(0, repeat);
  std::vector<unsigned char> decoded(*base64::decoded_size(text));
  REQUIRE(base64::decode(text, decoded.data()) == std::string_view::npos);
  std::string again;
  base64::encode_append(decoded.data(), decoded.size(), again);
  REQUIRE(again == text);
}

TEST_CASE("base64: the first bad character is found wherever it is", "[base64]") {
  const std::string good(400, 'Q');
  for (const char bad : {'*', '-', '_', '=', ' ', '\0', '\x80', '\xff', '.', '@', '[', '`', '{'}) {
    for (std::size_t position = 0; position < good.size() - 4; ++position) {
      std::string text = good;
      text[position] = bad;
      text[position + 3 < good.size() - 4 ? position + 3 : position] = bad;  // a second one later
      std::vector<unsigned char> decoded(300);
      INFO("character " << static_cast<int>(static_cast<unsigned char>(bad)) << " at "
                        << position);
      REQUIRE(base64::decode(text, decoded.data()) == position);
    }
  }
}
