// The morphology heads' classes and targets, learned from a treebank's FEATS and LEMMA columns:
// whole feature strings ("Mood=Ind|Number=Plur|...") and lemma rules (sawtag/lemma_rule.hpp).
#pragma once

#include <string>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"

namespace sawtag::train {

// The FEATS string in UD's canonical order: features sorted by name, case-insensitively
// ("Number=Plur|Case=Nom" -> "Case=Nom|Number=Plur"); "_" stays "_".
std::string canonical_feats(const std::string& feats);

// Whether any word of the treebank has a FEATS value other than "_" / a LEMMA other than "_":
// the treebank has the column, and training learns its head.
bool has_feats_column(const std::vector<Sentence>& treebank);
bool has_lemma_column(const std::vector<Sentence>& treebank);

// The classes of the FEATS head: the canonical FEATS strings of the treebank ("_" included) seen
// at least `min_count` times, most frequent first.
Vocabulary feats_classes(const std::vector<Sentence>& treebank, int min_count);

// The classes of the lemma head: the lemma rules of the treebank's (form, lemma) pairs (gold
// lemma "_" skipped) seen at least `min_count` times, most frequent first.
Vocabulary lemma_rule_classes(const std::vector<Sentence>& treebank, int min_count);

// Model::lemma_lexicon from the treebank: each (form, UPOS, XPOS) with its most frequent lemma
// (on a tie, the first in byte order), where that lemma is neither the form nor the form
// lower-cased (those the rules give easily); sorted.
std::vector<LemmaLexiconEntry> lemma_lexicon(const std::vector<Sentence>& treebank);

// Model::lemma_deletions from the treebank: each (UPOS, character) where at least
// kMinLemmaDeletions words of that UPOS hold the character (and something else), and at least
// kLemmaDeletionShare of them have a lemma that is the form without it ("12,000" -> "12000");
// sorted.
inline constexpr int kMinLemmaDeletions = 10;
inline constexpr double kLemmaDeletionShare = 0.95;
std::vector<LemmaDeletion> lemma_deletions(const std::vector<Sentence>& treebank);

// Per word of `sentence`: the index of its FEATS string / lemma rule in `model`'s classes, -1
// when unknown or without gold (ignored by the loss). Empty when the model lacks the head.
std::vector<int> feats_targets(const Model& model, const Sentence& sentence);
std::vector<int> lemma_targets(const Model& model, const Sentence& sentence);

}  // namespace sawtag::train
