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

 private:
  // The lemma head's kSize most likely rules, most likely first (ties: the lower index first):
  // found once a word, for every step of the choice.
  struct TopRules {
    static constexpr int kSize = 8;
    int index[kSize];
    int count = 0;
  };
  static TopRules top_rules(const float* logits, int rules);

  std::string from_rules(const float* logits, const TopRules& top, float temperature,
                         const std::string& form, int& rule) const;
  // The most likely lemma of the first rules whose rule is at least `odds` times as likely as
  // the most likely one and which `known` accepts, lower-cased (absolute rules only when
  // `absolute_too`): `rule` is then set to its rule. Else nothing.
  template <class Known>
  std::optional<std::string> likeliest_known(const float* logits, const TopRules& top,
                                             float temperature, const std::string& form, float odds,
                                             bool absolute_too, const Known& known,
                                             int& rule) const;
  // `lemma`, unless it is not a word of the vocabulary and `form` is: then the most likely
  // lemma of the first rules that is one, if any is likely enough (and `rule` is set to it).
  std::string known_word_if_known_form(const float* logits, const TopRules& top, float temperature,
                                       const std::string& form, std::string lemma, int& rule) const;
  bool is_unusual_casing(const std::string& lemma) const;
  // What Model::lemma_dictionary says of one UPOS: views into it.
  struct DictionaryClass {
    std::string upos;
    std::vector<std::string_view> lemmas;                              // known, lower-cased; sorted
    std::vector<std::pair<std::string_view, std::string_view>> forms;  // irregular, by form
    bool knows(std::string_view lemma) const;
    std::optional<std::string_view> lemma_of(std::string_view form) const;
  };
  // The dictionary's class of `upos`, or null where it says nothing of it.
  const DictionaryClass* dictionary_class(const std::string& upos) const;
  // `lemma`, if `known` holds it; else the most likely lemma of the first rules that it holds,
  // if any is likely enough (`rule` is then set to its rule); else nothing. `lower_form` is
  // the form lower-cased.
  std::optional<std::string> known_lemma(const float* logits, const TopRules& top,
                                         float temperature, const std::string& form,
                                         std::string_view lower_form, const std::string& lemma,
                                         const DictionaryClass& known, int& rule) const;

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
