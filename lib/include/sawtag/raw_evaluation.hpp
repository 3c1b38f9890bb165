// Scoring a system's sentences against gold ones that may be tokenized differently, as the
// CoNLL 2018 shared task's conll18_ud_eval.py does (the library part of `sawtag eval --raw`).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sawtag/sentence.hpp"

namespace sawtag {

// Counts behind one metric. For Tokens, Sentences and Words `correct` is the number of matching
// units; for UPOS, XPOS, UFeats, AllTags and Lemmas it is the number of aligned words whose
// columns also match (sawtag/column_match.hpp).
struct RawScore {
  std::size_t correct = 0;
  std::size_t gold_total = 0;
  std::size_t system_total = 0;
  std::size_t aligned_total = 0;  // aligned words (all but Tokens and Sentences)

  double precision() const;         // correct / system_total, 0 when there is nothing
  double recall() const;            // correct / gold_total
  double f1() const;                // 2 correct / (gold_total + system_total)
  double aligned_accuracy() const;  // correct / aligned_total
};

struct RawEvaluation {
  RawScore tokens;
  RawScore sentences;
  RawScore words;
  RawScore upos;
  RawScore xpos;
  // Always computed; meaningful only when the system sentences carry FEATS / LEMMA (a system
  // word's "_" is "no features" and the lemma "_").
  RawScore ufeats;   // universal_features_match
  RawScore alltags;  // all_tags_match
  RawScore lemmas;   // lemma_matches
};

// The raw text gold sentences were made from: each sentence's "# text" (rebuilt from its forms
// and SpaceAfter=No when missing), sentences of a paragraph joined by a space, paragraphs
// ("# newpar" or "# newdoc" on their first sentence) separated by a blank line; ends with "\n".
// {"# newpar", "# text = Hi."}, {"# text = Bye."} -> "Hi. Bye.\n"
std::string raw_text_from_gold(const std::vector<Sentence>& gold);

// Aligns `system` to `gold` by character spans over the text with whitespace (category Zs)
// removed; words inside multi-word tokens are aligned by the longest common subsequence of their
// lower-cased forms within the smallest span that holds the multi-word tokens of both sides.
// Throws InputError when the two texts differ, quoting 20 characters from the first difference.
RawEvaluation evaluate_raw(const std::vector<Sentence>& gold, const std::vector<Sentence>& system);

}  // namespace sawtag
