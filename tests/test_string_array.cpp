// The fast reader of a JSON array of strings (the model file's vocabulary): what it accepts, a
// JSON parser reads as the same strings; what it refuses is left to the parser.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
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

using Rows = std::vector<Strings>;

// The rows for_each_string_row reads, all at once; std::nullopt where it returns false.
std::optional<Rows> read_rows(const std::string& text, std::size_t begin, std::size_t width,
                              std::size_t* end) {
  Rows rows;
  const bool valid = json::for_each_string_row(text, begin, width, end,
                                               [&](Strings& row) { rows.push_back(row); });
  if (!valid) return std::nullopt;
  return rows;
}

// The rows nlohmann reads from `text`, or std::nullopt when it is not an array of arrays of
// `width` strings.
std::optional<Rows> parsed_rows(const std::string& text, std::size_t width) {
  const auto document = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!document.is_array()) return std::nullopt;
  Rows rows;
  for (const auto& row : document) {
    std::optional<Strings> strings = parsed(row.dump());
    if (!row.is_array() || !strings || strings->size() != width) return std::nullopt;
    rows.push_back(std::move(*strings));
  }
  return rows;
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
    // count_string_array accepts what read_string_array accepts, and counts the same.
    std::size_t count_end = 0;
    const std::optional<std::size_t> counted = json::count_string_array(text, 0, &count_end);
    REQUIRE(counted.has_value() == fast.has_value());
    if (!fast) continue;
    ++accepted;
    CHECK(*counted == fast->size());
    CHECK(count_end == end);
    REQUIRE(end <= text.size());
    CHECK(parsed(text.substr(0, end)) == fast);
    // The first string seen twice, as a set of the strings read says.
    std::set<std::string> seen;
    std::optional<std::size_t> repeated_at;
    for (std::size_t i = 0; i < fast->size() && !repeated_at; ++i) {
      if (!seen.insert((*fast)[i]).second) repeated_at = i;
    }
    const std::optional<json::RepeatedString> repeated =
        json::first_repeated_string(text, 0, *counted);
    REQUIRE(repeated.has_value() == repeated_at.has_value());
    if (repeated) {
      CHECK(repeated->index == *repeated_at);
      CHECK(repeated->text == (*fast)[*repeated_at]);
    }
    if (!fast->empty()) CHECK(json::first_of_string_array(text, 0) == fast->front());
  }
  CHECK(accepted > 1000);
}

TEST_CASE("for_each_string_row reads a table of rows of strings, each of one width",
          "[model_file]") {
  const auto rows = [](const std::string& text, std::size_t width) {
    std::size_t end = 0;
    return read_rows(text, 0, width, &end);
  };
  CHECK(rows("[]", 2) == Rows{});
  CHECK(rows(R"([["a","b"], [ "c" , "d\"e" ]])", 2) == Rows{{"a", "b"}, {"c", "d\"e"}});
  std::size_t end = 0;
  CHECK(read_rows(R"([["a"]], "x")", 0, 1, &end) == Rows{{"a"}});
  CHECK(end == 7);
  std::size_t count_end = 0;
  CHECK(json::count_string_rows(R"([["a"]], "x")", 0, 1, &count_end) == 1u);
  CHECK(count_end == 7);
  // Left to the parser: another width, escapes it leaves to it, anything but rows of strings.
  for (const std::string text :
       {R"([["a","b"],["c"]])", R"([["a","b","c"]])", R"([[]])", R"([["\u0041","b"]])",
        R"([["a","b"],])", R"([["a","b"] ["c","d"]])", R"([["a",1]])", R"([{"a":"b"}])",
        R"([["a","b"])", R"(["a","b"])", R"([[["a","b"]]])", ""}) {
    INFO(text);
    CHECK_FALSE(rows(text, 2).has_value());
    CHECK_FALSE(json::count_string_rows(text, 0, 2, &count_end).has_value());
  }
  CHECK_FALSE(rows("[[]]", 0).has_value());  // no width: no table
}

TEST_CASE("for_each_string_row agrees with a JSON parser on random tables", "[model_file]") {
  const std::vector<std::string> strings = {"\"a\"",        "\"\"",     "\"\\u00e9\"", "\"\\\"\"",
                                            "\"\xC3\xA9\"", "\"\x01\"", "1",           "[]"};
  const std::vector<std::string> separators = {",", ", ", " ,\n", ""};
  std::mt19937 random(11);
  int accepted = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const std::size_t width = 1 + random() % 3;
    std::string text = "[";
    const int count = static_cast<int>(random() % 4);
    for (int r = 0; r < count; ++r) {
      if (r > 0) text += separators[random() % separators.size()];
      text += "[";
      // Mostly the table's width; now and then one more or less.
      const std::size_t row_width = random() % 8 == 0 ? random() % 4 : width;
      for (std::size_t k = 0; k < row_width; ++k) {
        if (k > 0) text += separators[random() % separators.size()];
        text += strings[random() % (random() % 2 == 0 ? 2 : strings.size())];
      }
      text += "]";
    }
    text += "]";
    INFO(text << " width " << width);
    std::size_t end = 0;
    const std::optional<Rows> fast = read_rows(text, 0, width, &end);
    std::size_t count_end = 0;
    const std::optional<std::size_t> counted = json::count_string_rows(text, 0, width, &count_end);
    REQUIRE(counted.has_value() == fast.has_value());
    if (!fast) continue;
    ++accepted;
    CHECK(*counted == fast->size());
    CHECK(count_end == end);
    CHECK(end == text.size());
    CHECK(parsed_rows(text, width) == fast);
  }
  CHECK(accepted > 1000);
}

TEST_CASE("first_repeated_string finds the first string seen twice, once unescaped",
          "[model_file]") {
  const auto repeated =
      [](const std::string& text) -> std::optional<std::pair<std::size_t, std::string>> {
    std::size_t end = 0;
    const std::optional<std::size_t> count = json::count_string_array(text, 0, &end);
    REQUIRE(count.has_value());
    const auto found = json::first_repeated_string(text, 0, *count);
    if (!found) return std::nullopt;
    return std::make_pair(found->index, found->text);
  };
  using Found = std::optional<std::pair<std::size_t, std::string>>;
  CHECK(repeated(R"(["a", "b", "c"])") == Found());
  CHECK(repeated(R"([])") == Found());
  CHECK(repeated(R"(["a", "b", "b", "a"])") == Found({2, "b"}));
  CHECK(repeated(R"(["", "x", ""])") == Found({2, ""}));
  CHECK(repeated(R"(["a/b", "q\"", "a\/b"])") == Found({2, "a/b"}));
  // The first string, and what there is of it when the text ends inside it.
  CHECK(json::first_of_string_array(R"([ "say \"hi\"", "b"])", 0) == "say \"hi\"");
  CHECK(json::first_of_string_array(R"(["abcdef)", 0) == "abcdef");
}

}  // namespace sawtag
