// The fast reader of a JSON array of strings (the model file's vocabulary): what it accepts, a
// JSON parser reads as the same strings; what it refuses is left to the parser.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "io/string_array.hpp"

namespace sawtag {
namespace {

using Strings = std::vector<std::string>;

std::optional<Strings> read(const std::string& text, std::size_t* end = nullptr) {
  std::size_t ignored = 0;
  return json::read_string_array(text, 0, end != nullptr ? end : &ignored);
}

// The strings nlohmann reads from `text`, or std::nullopt when it is not an array of strings.
std::optional<Strings> parsed(const std::string& text) {
  const auto document = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!document.is_array()) return std::nullopt;
  Strings strings;
  for (const auto& item : document) {
    if (!item.is_string()) return std::nullopt;
    strings.push_back(item.get<std::string>());
  }
  return strings;
}

}  // namespace

TEST_CASE("read_string_array reads strings, escapes and UTF-8", "[model_file]") {
  CHECK(read("[]") == Strings{});
  CHECK(read("[ \n\t]") == Strings{});
  CHECK(read(R"(["a","bc" , "" ])") == Strings{"a", "bc", ""});
  CHECK(read(R"(["say \"hi\"","back\\slash","a\/b"])") ==
        Strings{"say \"hi\"", "back\\slash", "a/b"});
  CHECK(read("[\"caf\xC3\xA9\",\"\xE6\x97\xA5\",\"\xF0\x9F\x98\x80\"]") ==
        Strings{"caf\xC3\xA9", "\xE6\x97\xA5", "\xF0\x9F\x98\x80"});
  std::size_t end = 0;
  CHECK(read(R"(["x"],"chars":[])", &end) == Strings{"x"});
  CHECK(end == 5);
}

TEST_CASE("read_string_array leaves to the parser what it does not handle", "[model_file]") {
  for (const std::string text : {
           R"(["\u0041"])",          // \u escapes
           R"(["a\x"])",             // not an escape
           "[\"tab\there\"]",        // a raw control character
           R"(["a\tb"])", R"(["\n"])",  // an escaped one: no string of a model holds it
           "[\"\x7F\"]",             // DEL
           "[\"\xC2\x85\"]",         // a C1 control character
           "[\"a\xE2\x80\xA8\"]",    // U+2028
           "[\"\xC0\x80\"]",         // overlong
           "[\"\xED\xA0\x80\"]",     // a surrogate
           "[\"\xF4\x90\x80\x80\"]", // above U+10FFFF
           "[\"\xE6\x97\"]",         // cut short
           "[\"\xFF\"]",
           R"(["a" "b"])", R"(["a",])", R"(["a",,"b"])", R"([1])", R"(["a")", R"(["a)",
           R"({"a"})", R"( ["a"])", ""}) {
    INFO(text);
    CHECK_FALSE(read(text).has_value());
  }
}

TEST_CASE("read_string_array agrees with a JSON parser on random text", "[model_file]") {
  // Random arrays built from pieces that matter: quotes, escapes, separators, UTF-8 (valid and
  // not), control characters. Whatever the reader accepts, nlohmann reads the same way.
  const std::vector<std::string> pieces = {
      "\"", "\"", "\"", ",", ", ", "a", "word", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u00e9",
      "\\x", "\\", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xC3", "\x80", "\xED\xA0\x80",
      "\x01", " ", "\n", "]", "["};
  std::mt19937 random(7);
  int accepted = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text = "[";
    const int count = static_cast<int>(random() % 12);
    for (int p = 0; p < count; ++p) text += pieces[random() % pieces.size()];
    if (random() % 2 == 0) text += "]";
    // Mostly well-formed arrays too: "[" + quoted strings of pieces + "]".
    if (trial % 2 == 1) {
      text = "[";
      const int strings = static_cast<int>(random() % 4);
      for (int s = 0; s < strings; ++s) {
        text += s > 0 ? ",\"" : "\"";
        for (int p = static_cast<int>(random() % 4); p > 0; --p) {
          const std::string& piece = pieces[random() % pieces.size()];
          if (piece != "\"") text += piece;
        }
        text += "\"";
      }
      text += "]";
    }
    INFO(text);
    std::size_t end = 0;
    const std::optional<Strings> fast = json::read_string_array(text, 0, &end);
    if (!fast) continue;
    ++accepted;
    REQUIRE(end <= text.size());
    CHECK(parsed(text.substr(0, end)) == fast);
  }
  CHECK(accepted > 1000);
}

}  // namespace sawtag
