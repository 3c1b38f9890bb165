// Scoring a tagger on gold words: accuracy, per-tag precision/recall/F1, confusions; UFeats,
// AllTags and Lemmas as the CoNLL 2018 shared task defines them (sawtag/column_match.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sawtag/calibration.hpp"
#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {

struct TagCounts {
  std::size_t gold = 0;       // words with this gold tag
  std::size_t predicted = 0;  // words given this tag
  std::size_t correct = 0;    // both

  double precision() const { return predicted ? 100.0 * correct / predicted : 0.0; }
  double recall() const { return gold ? 100.0 * correct / gold : 0.0; }
  double f1() const;
};

struct TagSetScores {
  std::size_t words = 0;
  std::size_t correct = 0;
  std::map<std::string, TagCounts> tags;
  std::map<std::pair<std::string, std::string>, std::size_t> confusions;  // (gold, predicted)

  double accuracy() const { return words ? 100.0 * correct / words : 0.0; }
  // The `count` most frequent confusions, most frequent first.
  std::vector<std::pair<std::pair<std::string, std::string>, std::size_t>> top_confusions(
      std::size_t count) const;
  void add(const std::string& gold, const std::string& predicted);
};

// Words counted right or wrong on one column (UFeats, AllTags, Lemmas).
struct MatchCounts {
  std::size_t words = 0;
  std::size_t correct = 0;

  double accuracy() const { return words ? 100.0 * correct / words : 0.0; }
  void add(bool right) {
    ++words;
    correct += right ? 1 : 0;
  }
};

struct Evaluation {
  TagSetScores upos;
  TagSetScores xpos;
  TagSetScores unseen_upos;  // only words unseen in training (see evaluate())
  TagSetScores unseen_xpos;
  // The reported probability of each chosen tag against whether it was right.
  ReliabilityBins upos_reliability;
  ReliabilityBins xpos_reliability;

  // Only words whose prediction has the column: none when the model has no feature head
  // (WordTags::feats empty) or no lemma head (WordTags::lemma empty).
  MatchCounts ufeats;   // universal_features_match
  MatchCounts alltags;  // all_tags_match
  MatchCounts lemmas;   // lemma_matches
  MatchCounts unseen_ufeats;
  MatchCounts unseen_lemmas;
  ReliabilityBins feats_reliability;  // feats_probability against all_features_match
  ReliabilityBins lemma_reliability;  // lemma_probability against lemma_matches

  bool has_feats() const { return ufeats.words > 0; }
  bool has_lemmas() const { return lemmas.words > 0; }
};

// The tags of the gold words of every sentence of `gold`, in order, tagged with `threads`
// threads.
std::vector<TagResult> tag_gold_words(const Tagger& tagger, const std::vector<Sentence>& gold,
                                      int threads = 1, const TagOptions& options = {});

// Scores tags already predicted for the gold words: predicted[s].words[w] tags
// gold[s].words[w]. A word counts as unseen when is_unseen(its form) is true (none when null).
// Throws InputError when the sentence or word counts differ.
Evaluation score_tags(const std::vector<Sentence>& gold, const std::vector<TagResult>& predicted,
                      const std::function<bool(const std::string& form)>& is_unseen = nullptr);

// Tags the gold words of `gold` with `threads` threads and scores them (score_tags). A word counts
// as unseen when its lower-cased form is not in `training_words`; with an empty set, when it is not
// in the model's vocabulary.
Evaluation evaluate(const Tagger& tagger, const std::vector<Sentence>& gold, int threads = 1,
                    const std::unordered_set<std::string>& training_words = {});

// The scores as one JSON object: {"upos": {"accuracy", "words", "correct", "tags": {TAG: {"gold",
// "predicted", "correct", "precision", "recall", "f1"}}, "confusions": [{"gold", "predicted",
// "count"}]}, "xpos": {...}, "unseen": {"words", "upos_accuracy", "xpos_accuracy"},
// "calibration_error": {"upos", "xpos"}} (expected calibration error, 10 bins). With a feature
// head also "ufeats" and "alltags", with a lemma head "lemmas", each {"accuracy", "words",
// "correct"}, after "xpos"; "unseen" gains "ufeats_accuracy" / "lemmas_accuracy" and
// "calibration_error" gains "feats" / "lemma" likewise. Without those heads the object is as
// before.
std::string to_json(const Evaluation& evaluation, std::size_t max_confusions = 20);

}  // namespace sawtag
