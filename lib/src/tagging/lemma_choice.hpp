// A word's lemma from the lemma head's logits (Tagger): the most likely rule that applies,
// preferring lemmas that are words and are written as words usually are, and lemmas a
// dictionary knows for the word's UPOS (or its irregular form's), less the characters its UPOS
// drops, then the lemma lexicon. docs/lemmas-and-features.md, "How they are predicted" and "A
// dictionary", says the same for users.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sawtag/lemma_rule.hpp"
#include "sawtag/model.hpp"

namespace sawtag {

class LemmaChooser {
 public:
  // Reads Model::lemma_rules and lemma_lexicon; keeps references to Model::words,
  // lemma_deletions, lemma_casing and lemma_dictionary, so `model` must outlive the chooser.
  explicit LemmaChooser(const Model& model);

  // The lemma of `form`, tagged `upos` and `xpos`, from the lemma head's `logits` (one per
  // rule) and its calibration `temperature`. `rule` is set to the index of the rule the lemma
  // head chose, or -1 when none applied (the lemma lexicon may still have given the lemma).
  std::string choose(const float* logits, float temperature, const std::string& form,
                     const std::string& upos, const std::string& xpos, int& rule) const;
  // The same lemma without the rule: a word of the lemma lexicon takes its lemma without the
  // rules being tried.
  std::string choose(const float* logits, float temperature, const std::string& form,
                     const std::string& upos, const std::string& xpos) const;
  // Asks memory for what choose() of `form` will most likely look up first (the form in the
  // lemma lexicon; the form lower-cased, which is most words' lemma, in the vocabulary): called
  // for a batch's words before their choose(), it saves most of the waits on a table's memory.
  void prefetch(const std::string& form) const;

 private:
  // The lemma head's kSize most likely rules, most likely first (ties: the lower index first).
  struct TopRules {
    static constexpr int kSize = 8;
    int index[kSize];
    int count = 0;
  };
  // One word's lemma-head logits (one per rule) and their calibration temperature, with the
  // most likely rule and, found the first time a step of the choice needs them (most words
  // never do), the kSize most likely.
  class RuleScores {
   public:
    RuleScores(const float* logits, int rules, float temperature);
    const TopRules& top() const;

    const float* logits;
    int rules;
    float temperature;
    int best = -1;  // the most likely rule (the first on a tie); -1 when there are none

   private:
    // Not a std::optional: Clang 14 cannot construct one of a class nested in the class using it.
    mutable TopRules top_;
    mutable bool has_top_ = false;
  };

  // The lemma from the lemma head, the tables and the dictionary: choose() but the lexicon.
  std::string from_head(const float* logits, float temperature, const std::string& form,
                        const std::string& upos, int& rule) const;
  // The lemma the lemma lexicon gives the word, or null.
  const std::string* lexicon_lemma(const std::string& form, const std::string& upos,
                                   const std::string& xpos) const;

  // A lemma, the rule that gave it (-1: none) and, once looked up, the index in Model::words of
  // the lemma lower-cased (-1: not a word).
  struct Choice {
    static constexpr int kNotLookedUp = -2;
    std::string lemma;
    int rule = -1;
    int word = kNotLookedUp;
  };
  // Choice::word, looked up the first time it is asked for.
  int word_of(Choice& choice) const;

  Choice from_rules(const RuleScores& scores, const std::string& form) const;
  // Sets `choice` to the most likely lemma of the first rules whose rule is at least `odds`
  // times as likely as the most likely one and which `known` accepts, lower-cased (absolute
  // rules only when `absolute_too`), and says whether there was one.
  template <class Known>
  bool likeliest_known(const RuleScores& scores, const std::string& form, float odds,
                       bool absolute_too, const Known& known, Choice& choice) const;
  // Leaves `choice` unless its lemma is not a word of the vocabulary and `form` is: then the
  // most likely lemma of the first rules that is one, if any is likely enough.
  void known_word_if_known_form(const RuleScores& scores, const std::string& form,
                                Choice& choice) const;
  // Whether the lemma of vocabulary word `word` (-1: none) is written otherwise than usual.
  bool is_unusual_casing(int word, const std::string& lemma) const;
  // What Model::lemma_dictionary says of one UPOS: views into it, its irregular forms copied.
  struct DictionaryClass {
    std::string upos;
    std::vector<bool> words;                                           // by Model::words: known
    std::vector<std::string_view> other_lemmas;                        // known, not words; sorted
    Vocabulary irregular_forms;                                        // lower-cased
    std::vector<std::string_view> irregular_lemmas;                    // by irregular form
    // `word` is the index of `lemma` (lower-cased) in Model::words, or -1.
    bool knows(int word, std::string_view lemma) const;
    std::optional<std::string_view> lemma_of(std::string_view form) const;
  };
  // The dictionary's class of `upos`, or null where it says nothing of it.
  const DictionaryClass* dictionary_class(const std::string& upos) const;
  // Whether `known` holds the lemma of `choice`; else sets `choice` to the most likely lemma of
  // the first rules that it holds, if any is likely enough, and says whether there was one.
  // `lower_form` is the form lower-cased.
  bool known_lemma(const RuleScores& scores, const std::string& form, std::string_view lower_form,
                   const DictionaryClass& known, Choice& choice) const;

  const Vocabulary& words_;
  std::vector<LemmaRule> rules_;       // Model::lemma_rules, parsed
  std::vector<bool> adds_lower_case_;  // per rule: keeps the casing, adds lower-case letters
  // Model::lemma_lexicon by form: the forms (found without allocating), and per form its
  // entries (a few UPOS and XPOS).
  Vocabulary lexicon_forms_;
  std::vector<std::vector<const LemmaLexiconEntry*>> lexicon_entries_;
  const std::vector<LemmaDeletion>& deletions_;  // Model::lemma_deletions
  const std::string& spellings_;                 // Model::lemma_casing
  // By word of Model::words: 1 + where the word's usual spelling starts in spellings_, or 0.
  // Made at the first lemma that needs it, so that tagging without lemmas never pays for it.
  mutable std::once_flag usual_made_;
  mutable std::vector<std::size_t> usual_;
  const LemmaDictionary& dictionary_;  // Model::lemma_dictionary
  // By UPOS, made at the first lemma that needs them, so that tagging without lemmas, or with
  // a model without a dictionary, never pays for them.
  mutable std::once_flag dictionary_made_;
  mutable std::vector<DictionaryClass> dictionary_classes_;
};

}  // namespace sawtag
