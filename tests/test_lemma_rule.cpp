// Lemma rules (sawtag/lemma_rule.hpp): derived from (form, lemma), applied, written and read.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <string>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"
#include "sawtag/lemma_rule.hpp"

namespace sawtag {
namespace {

using Casing = LemmaRule::Casing;

LemmaRule rule_of(Casing casing, int prefix_strip, std::string prefix_add, int suffix_strip,
                  std::string suffix_add) {
  LemmaRule rule;
  rule.casing = casing;
  rule.prefix_strip = prefix_strip;
  rule.prefix_add = std::move(prefix_add);
  rule.suffix_strip = suffix_strip;
  rule.suffix_add = std::move(suffix_add);
  return rule;
}

std::string ewt_train_path() {
  const char* directory = std::getenv("SAWTAG_UD_DIR");
  return (directory ? std::string(directory)
                    : std::string(SAWTAG_SOURCE_DIR) + "/../shared/data/ud-english-ewt") +
         "/en_ewt-ud-train.conllu";
}

}  // namespace

TEST_CASE("A lemma rule is the shortest edit around the longest common substring", "[lemma]") {
  CHECK(lemma_rule("cats", "cat") == rule_of(Casing::keep, 0, "", 1, ""));
  CHECK(lemma_rule("cat", "cat") == rule_of(Casing::keep, 0, "", 0, ""));
  CHECK(lemma_rule("studies", "study") == rule_of(Casing::keep, 0, "", 3, "y"));
  // Lower-casing costs nothing, editing the capital one: "The" -> "the" lower-cases.
  CHECK(lemma_rule("The", "the") == rule_of(Casing::lower, 0, "", 0, ""));
  CHECK(lemma_rule("Running", "run") == rule_of(Casing::lower, 0, "", 4, ""));
  // A name keeps its capital: keep wins the tie.
  CHECK(lemma_rule("John", "John") == rule_of(Casing::keep, 0, "", 0, ""));
  // Names written in lower or upper case get their capital back.
  CHECK(lemma_rule("google", "Google") == rule_of(Casing::title, 0, "", 0, ""));
  CHECK(lemma_rule("TEHRAN", "Tehran") == rule_of(Casing::title, 0, "", 0, ""));
  CHECK(lemma_rule("ÉCOLES", "École") == rule_of(Casing::title, 0, "", 1, ""));
  // No character in common: the lemma itself.
  CHECK(lemma_rule("went", "go") == rule_of(Casing::absolute, 0, "go", 0, ""));
  // A prefix edit (German participle): "gesagt" -> "sagen".
  CHECK(lemma_rule("gesagt", "sagen") == rule_of(Casing::keep, 2, "", 1, "en"));
  // Code points, not bytes: "Äpfel" -> "Apfel" edits one character at the front.
  CHECK(lemma_rule("Äpfel", "Apfel") == rule_of(Casing::keep, 1, "A", 0, ""));
}

TEST_CASE("A lemma rule applies to other forms, or says it cannot", "[lemma]") {
  const LemmaRule plural = lemma_rule("cats", "cat");
  CHECK(apply_lemma_rule(plural, "dogs") == std::optional<std::string>("dog"));
  CHECK(apply_lemma_rule(lemma_rule("studies", "study"), "flies") ==
        std::optional<std::string>("fly"));
  CHECK(apply_lemma_rule(lemma_rule("Running", "run"), "Cutting") ==
        std::optional<std::string>("cut"));
  CHECK(apply_lemma_rule(lemma_rule("google", "Google"), "mississippi") ==
        std::optional<std::string>("Mississippi"));
  CHECK(apply_lemma_rule(lemma_rule("went", "go"), "anything") == std::optional<std::string>("go"));
  // Strips more than the form has, or would leave nothing.
  CHECK_FALSE(apply_lemma_rule(lemma_rule("studies", "study"), "is"));
  CHECK_FALSE(apply_lemma_rule(plural, "s"));
  CHECK(lower_case("ÄPFEL Straße") == "äpfel straße");
}

TEST_CASE("A lemma rule is written as one line and read back", "[lemma]") {
  for (const LemmaRule& rule :
       {lemma_rule("cats", "cat"), lemma_rule("Running", "run"), lemma_rule("went", "go"),
        lemma_rule("gesagt", "sagen"), lemma_rule("n't", "not"), lemma_rule("a|b%", "c|d%"),
        lemma_rule("x", "%7C")}) {
    CHECK(parse_lemma_rule(to_string(rule)) == rule);
  }
  CHECK(to_string(lemma_rule("studies", "study")) == "keep|0||3|y");
  CHECK(to_string(lemma_rule("went", "go")) == "absolute|0|go|0|");
  CHECK(to_string(lemma_rule("x", "|%")) == "absolute|0|%7C%25|0|");
  CHECK_THROWS_WITH(parse_lemma_rule("keep|0||3"), Catch::Contains("expected 5 fields"));
  CHECK_THROWS_WITH(parse_lemma_rule("upper|0||3|y"),
                    Catch::Contains("casing must be keep, lower, title or absolute"));
  CHECK_THROWS_WITH(parse_lemma_rule("keep|-1||3|y"), Catch::Contains("strip count"));
  CHECK_THROWS_WITH(parse_lemma_rule("keep|0||99999999|y"), Catch::Contains("strip count"));
  CHECK_THROWS_WITH(parse_lemma_rule("absolute|0||0|"), Catch::Contains("needs its lemma"));
  CHECK_THROWS_WITH(parse_lemma_rule("keep|0||0|50%"), Catch::Contains("%25 or %7C"));
  CHECK_THROWS_AS(parse_lemma_rule(""), ModelError);
}

TEST_CASE("A very long form gets a rule in linear time, and it still round-trips", "[lemma]") {
  const std::string form(200000, 'a');
  const std::string lemma = form.substr(0, 199990) + "b";
  CHECK(apply_lemma_rule(lemma_rule(form, lemma), form) == std::optional<std::string>(lemma));
}

TEST_CASE("Every (form, lemma) of EWT train round-trips through its rule", "[lemma][ewt]") {
  const std::string path = ewt_train_path();
  std::ifstream in(path);
  if (!in) {
    WARN("skipped: " << path << " not found (set SAWTAG_UD_DIR to the UD English EWT folder)");
    return;
  }
  ConlluReader reader(in, path);
  Sentence sentence;
  std::size_t words = 0;
  std::size_t wrong = 0;
  while (reader.next(sentence)) {
    for (const Word& word : sentence.words) {
      if (word.lemma == "_") continue;
      ++words;
      if (apply_lemma_rule(lemma_rule(word.form, word.lemma), word.form) != word.lemma) {
        ++wrong;
        UNSCOPED_INFO(word.form << " -> " << word.lemma);
      }
    }
  }
  CHECK(words > 200000);
  CHECK(wrong == 0);
}

}  // namespace sawtag
