// When a predicted column of a word counts as right, by the CoNLL 2018 shared task's definitions
// (conll18_ud_eval.py): UFeats, AllTags and Lemmas. Used by evaluate() on gold words and by
// evaluate_raw() on aligned words, so the two can never disagree.
#pragma once

#include <string>

#include "sawtag/sentence.hpp"

namespace sawtag {

// The universal features of a FEATS column as conll18_ud_eval.py keeps them: the features whose
// name is one of its 21 UNIVERSAL_FEATURES (PronType, NumType, Poss, Reflex, Foreign, Abbr,
// Gender, Animacy, Number, Case, Definite, Degree, VerbForm, Mood, Tense, Aspect, Voice, Evident,
// Polarity, Person, Polite), sorted by byte value and joined by "|".
// "Number=Plur|Typo=Yes|Case=Nom" -> "Case=Nom|Number=Plur"; "_", "" and "Number[psor]=Sing" -> "".
std::string universal_features(const std::string& feats);

// UFeats: the same universal features, in any order; other features are ignored.
bool universal_features_match(const std::string& gold_feats, const std::string& predicted_feats);

// Every feature, universal or not, in any order ("_" and "" both mean none): what a FEATS
// prediction's probability is the probability of.
bool all_features_match(const std::string& gold_feats, const std::string& predicted_feats);

// AllTags: UPOS, XPOS and the universal features all right.
bool all_tags_match(const Word& gold, const Word& predicted);

// Lemmas: the same lemma, or the gold lemma is "_" (not annotated), which matches any lemma.
bool lemma_matches(const std::string& gold_lemma, const std::string& predicted_lemma);

}  // namespace sawtag
