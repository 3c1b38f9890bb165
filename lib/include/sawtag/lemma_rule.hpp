// Lemma rules: how a word form turns into its lemma, learned from a treebank's (form, lemma)
// pairs and predicted per word by the model's lemma head (as UDPipe 2's lemma rules: a casing
// step, then the shortest prefix and suffix edit around the longest common substring).
//   "cats" -> "cat":    keep,  strip 0 from the front, strip 1 ("s") from the end
//   "Running" -> "run": lower, strip 0, strip 4 ("ning") and add "n"
//   "went" -> "go":     absolute "go" (no character in common)
// Nothing here is specific to a language: casing uses Unicode's lower-case mapping, and lengths
// count code points.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sawtag {

struct LemmaRule {
  enum class Casing {
    keep,      // edit the form as written
    lower,     // edit the lower-cased form
    title,     // edit the form with its first code point upper-cased, the rest lower-cased
    absolute,  // the lemma is prefix_add, whatever the form
  };
  Casing casing = Casing::keep;
  int prefix_strip = 0;    // code points removed from the front
  std::string prefix_add;  // then added in front
  int suffix_strip = 0;    // code points removed from the end
  std::string suffix_add;  // then added at the end

  bool operator==(const LemmaRule& other) const;
};

// The rule that turns `form` into `lemma`: the one with the fewest code points stripped and
// added, keep before lower before title on a tie; absolute when the two share no character.
// ("google" -> "Google" and "TEHRAN" -> "Tehran" are title, with nothing stripped.)
// apply_lemma_rule(lemma_rule(form, lemma), form) == lemma for every form and non-empty lemma.
LemmaRule lemma_rule(std::string_view form, std::string_view lemma);

// The lemma `rule` gives `form`, or nothing when the rule cannot apply: it strips more code
// points than the form has, or would leave an empty lemma.
std::optional<std::string> apply_lemma_rule(const LemmaRule& rule, std::string_view form);

// The form lower-cased (Unicode simple lower-case mapping, code point by code point): the
// lemma of a word whose predicted rule cannot apply, when that rule lower-cases.
std::string lower_case(std::string_view form);

// Whether `text` holds a lower-case letter (a code point whose upper case differs from it).
bool has_lower_case_letter(std::string_view text);

// `text` without any occurrence of `character` (a whole UTF-8 sequence, so no code point is
// cut): without("12,000", ",") == "12000". Model::lemma_deletions' edit.
std::string without(std::string_view text, std::string_view character);

// A rule as one line of text, and back: five fields separated by "|": casing ("keep", "lower",
// "title", "absolute"), prefix_strip, prefix_add, suffix_strip, suffix_add, where the added texts
// have
// "%" written "%25" and "|" written "%7C". "keep|0||3|y" turns "studies" into "study";
// "absolute|0|be|0|" gives "be".
std::string to_string(const LemmaRule& rule);
// Throws ModelError naming the text when it is not such a line.
LemmaRule parse_lemma_rule(std::string_view text);

}  // namespace sawtag
