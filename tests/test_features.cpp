// Word features: shapes, lower-casing, vocabulary ids and character ids.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fixtures.hpp"
#include "sawtag/features.hpp"

namespace sawtag {
namespace {

TEST_CASE("word shapes", "[features]") {
  const std::vector<std::pair<std::string, WordShape>> examples = {
      {"saw", WordShape::lower},           {"don't", WordShape::lower},
      {"école", WordShape::lower},         {"Saw", WordShape::capitalized},
      {"Mr.", WordShape::capitalized},     {"SAW", WordShape::upper},
      {"I", WordShape::upper},             {"U.S.", WordShape::upper},
      {"ÉCOLE", WordShape::upper},         {"iPhone", WordShape::mixed_case},
      {"McDonald", WordShape::mixed_case}, {"1984", WordShape::digits},
      {"3.5", WordShape::number},          {"1,000", WordShape::number},
      {"B2B", WordShape::alphanumeric},    {"4th", WordShape::alphanumeric},
      {".", WordShape::punctuation},       {"--", WordShape::punctuation},
      {"?!", WordShape::punctuation},      {"$", WordShape::symbol},
      {"%", WordShape::symbol},            {"+", WordShape::symbol},
      {"http://x.org", WordShape::url_or_email},
      {"a@b.com", WordShape::url_or_email},
      {"\xF0\x9F\x98\x80", WordShape::other},  // U+1F600 grinning face
      {"p\xD0\xB0ss", WordShape::other},       // Latin with a Cyrillic a
      {"", WordShape::other},
  };
  for (const auto& [word, expected_shape] : examples) {
    INFO("word '" << word << "'");
    CHECK(static_cast<int>(word_shape(word)) == static_cast<int>(expected_shape));
  }
}

TEST_CASE("to_lower is Unicode-aware", "[features]") {
  CHECK(to_lower("ÉCOLE") == "école");
  CHECK(to_lower("Saw") == "saw");
  CHECK(to_lower("ΣΟΦΙΑ") == "σοφια");
  CHECK(to_lower("1,000") == "1,000");
  // Invalid bytes become U+FFFD (EF BF BD) one byte at a time.
  CHECK(to_lower("A\xFF" "B") == "a\xEF\xBF\xBD" "b");
}

TEST_CASE("word ids are looked up lower-cased; unknown words get kUnknownWord", "[features]") {
  const Model model = testing::make_random_model();
  CHECK(word_features(model, "saw").word_id == model.words.find("saw"));
  CHECK(word_features(model, "Saw").word_id == model.words.find("saw"));
  CHECK(word_features(model, "SAW").word_id == model.words.find("saw"));
  CHECK(word_features(model, "zebra").word_id == kUnknownWord);
  CHECK(word_features(model, "").word_id == kUnknownWord);
  CHECK(word_features(model, "Saw").shape == static_cast<int>(WordShape::capitalized));
}

TEST_CASE("character ids keep case and mark the word's ends", "[features]") {
  const Model model = testing::make_random_model();
  const auto id = [&](const char* c) { return model.chars.find(c); };
  CHECK(word_features(model, "Saw").char_ids ==
        std::vector<int>{kWordStartChar, id("S"), id("a"), id("w"), kWordEndChar});
  // "é" and "Q" are not in the test model's character list.
  CHECK(word_features(model, "éQ").char_ids ==
        std::vector<int>{kWordStartChar, kUnknownChar, kUnknownChar, kWordEndChar});
}

TEST_CASE("long words keep their first and last halves", "[features]") {
  const Model model = testing::make_random_model();  // max_word_chars = 8
  REQUIRE(model.config.max_word_chars == 8);
  std::vector<int> expected = {kWordStartChar};
  for (const char* c : {"i", "n", "t", "e", "t", "i", "o", "n"}) {
    expected.push_back(model.chars.find(c));
  }
  expected.push_back(kWordEndChar);
  CHECK(word_features(model, "internationalization").char_ids == expected);

  // An odd limit keeps one more character at the front: "abcdefg", 5 -> "abc" + "fg".
  Model odd = testing::make_random_model();
  odd.config.max_word_chars = 5;
  std::vector<int> expected_odd = {kWordStartChar};
  for (const char* c : {"a", "b", "c", "f", "g"}) expected_odd.push_back(odd.chars.find(c));
  expected_odd.push_back(kWordEndChar);
  CHECK(word_features(odd, "abcdefg").char_ids == expected_odd);
}

TEST_CASE("short words are padded to the widest convolution", "[features]") {
  Model model = testing::make_random_model();
  model.config.char_widths = {2, 5};
  CHECK(word_features(model, "a").char_ids ==
        std::vector<int>{kWordStartChar, model.chars.find("a"), kWordEndChar, kPaddingChar,
                         kPaddingChar});
  CHECK(word_features(model, "").char_ids ==
        std::vector<int>{kWordStartChar, kWordEndChar, kPaddingChar, kPaddingChar,
                         kPaddingChar});
}

TEST_CASE("edge characters: a word's first and last, padding and cuts aside", "[features]") {
  Model model = testing::make_random_model();
  model.config.char_widths = {2, 5};  // "a" is padded to 5 ids
  const auto id = [&](const char* c) { return model.chars.find(c); };
  const auto edges = [&](const char* word) {
    const EdgeChars e = edge_chars(word_features(model, word));
    return std::vector<int>{e.first, e.last};
  };
  CHECK(edges("Saw") == std::vector<int>{id("S"), id("w")});
  CHECK(edges("a") == std::vector<int>{id("a"), id("a")});
  CHECK(edges("éQ") == std::vector<int>{kUnknownChar, kUnknownChar});
  // Cut to "inte" + "tion" (max_word_chars 8): the edges are the whole word's.
  CHECK(edges("internationalization") == std::vector<int>{id("i"), id("n")});
  CHECK(edges("") == std::vector<int>{kWordEndChar, kWordStartChar});
  // Ids that word_features cannot give (no </w>) read as the empty word's.
  WordFeatures odd;
  odd.char_ids = {kWordStartChar, id("a")};
  CHECK(edge_chars(odd).first == kWordEndChar);
  CHECK(edge_chars(odd).last == kWordStartChar);
}

TEST_CASE("invalid UTF-8 does not crash and becomes unknown characters", "[features]") {
  const Model model = testing::make_random_model();
  const WordFeatures features = word_features(model, "a\xFF" "b");
  CHECK(features.char_ids == std::vector<int>{kWordStartChar, model.chars.find("a"),
                                              kUnknownChar, model.chars.find("b"),
                                              kWordEndChar});
  CHECK(features.word_id == kUnknownWord);
  for (const char* bad : {"\xC3", "\xE2\x82", "\xF0\x9F\x98", "\xC0\xAF", "\xED\xA0\x80",
                          "\x80\x80\x80"}) {
    const WordFeatures bad_features = word_features(model, bad);
    CHECK(bad_features.char_ids.size() >= 3);
    CHECK(bad_features.shape >= 0);
    CHECK(bad_features.shape < kNumWordShapes);
  }
}

}  // namespace
}  // namespace sawtag
