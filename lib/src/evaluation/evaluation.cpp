#include "sawtag/evaluation.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "io/json_text.hpp"
#include "sawtag/column_match.hpp"
#include "sawtag/error.hpp"
#include "sawtag/features.hpp"
#include "train/on_threads.hpp"

namespace sawtag {

double TagCounts::f1() const {
  const double p = precision();
  const double r = recall();
  return p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
}

void TagSetScores::add(const std::string& gold, const std::string& predicted) {
  ++words;
  ++tags[gold].gold;
  ++tags[predicted].predicted;
  if (gold == predicted) {
    ++correct;
    ++tags[gold].correct;
  } else {
    ++confusions[{gold, predicted}];
  }
}

std::vector<std::pair<std::pair<std::string, std::string>, std::size_t>>
TagSetScores::top_confusions(std::size_t count) const {
  std::vector<std::pair<std::pair<std::string, std::string>, std::size_t>> sorted(
      confusions.begin(), confusions.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (sorted.size() > count) sorted.resize(count);
  return sorted;
}

std::vector<TagResult> tag_gold_words(const Tagger& tagger, const std::vector<Sentence>& gold,
                                      int threads, const TagOptions& options) {
  std::vector<TagResult> results(gold.size());
  const std::size_t thread_count = static_cast<std::size_t>(std::max(1, threads));
  train::on_threads(thread_count, [&](std::size_t t) {
    for (std::size_t i = t; i < gold.size(); i += thread_count) {
      results[i] = tagger.tag(word_forms(gold[i]), options);
    }
  });
  return results;
}

namespace {

// The predicted columns as a Word, for the column_match rules.
Word predicted_word(const WordTags& predicted) {
  Word word;
  word.upos = predicted.upos;
  word.xpos = predicted.xpos;
  word.lemma = predicted.lemma;
  word.feats = predicted.feats;
  return word;
}

void add_word(const Word& gold, const WordTags& predicted, bool unseen, Evaluation& evaluation) {
  evaluation.upos.add(gold.upos, predicted.upos);
  evaluation.xpos.add(gold.xpos, predicted.xpos);
  evaluation.upos_reliability.add(predicted.upos_probability, gold.upos == predicted.upos);
  evaluation.xpos_reliability.add(predicted.xpos_probability, gold.xpos == predicted.xpos);
  if (unseen) {
    evaluation.unseen_upos.add(gold.upos, predicted.upos);
    evaluation.unseen_xpos.add(gold.xpos, predicted.xpos);
  }
  if (!predicted.feats.empty()) {
    const bool ufeats_right = universal_features_match(gold.feats, predicted.feats);
    evaluation.ufeats.add(ufeats_right);
    evaluation.alltags.add(all_tags_match(gold, predicted_word(predicted)));
    evaluation.feats_reliability.add(predicted.feats_probability,
                                     all_features_match(gold.feats, predicted.feats));
    if (unseen) evaluation.unseen_ufeats.add(ufeats_right);
  }
  if (!predicted.lemma.empty()) {
    const bool lemma_right = lemma_matches(gold.lemma, predicted.lemma);
    evaluation.lemmas.add(lemma_right);
    evaluation.lemma_reliability.add(predicted.lemma_probability, lemma_right);
    if (unseen) evaluation.unseen_lemmas.add(lemma_right);
  }
}

}  // namespace

Evaluation score_tags(const std::vector<Sentence>& gold, const std::vector<TagResult>& predicted,
                      const std::function<bool(const std::string& form)>& is_unseen) {
  if (predicted.size() != gold.size()) {
    throw InputError("scoring " + std::to_string(predicted.size()) + " tagged sentences against " +
                     std::to_string(gold.size()) + " gold ones");
  }
  Evaluation evaluation;
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const std::vector<Word>& words = gold[i].words;
    if (predicted[i].words.size() != words.size()) {
      throw InputError("gold sentence " + std::to_string(i + 1) + " has " +
                       std::to_string(words.size()) + " words, its tags " +
                       std::to_string(predicted[i].words.size()));
    }
    for (std::size_t w = 0; w < words.size(); ++w) {
      const bool unseen = is_unseen && is_unseen(words[w].form);
      add_word(words[w], predicted[i].words[w], unseen, evaluation);
    }
  }
  return evaluation;
}

Evaluation evaluate(const Tagger& tagger, const std::vector<Sentence>& gold, int threads,
                    const std::unordered_set<std::string>& training_words) {
  // Tagged in parallel, then scored in order, so the result does not depend on the thread count.
  TagOptions options;
  options.morphology_probabilities = true;  // for the heads' calibration error
  const std::vector<TagResult> results = tag_gold_words(tagger, gold, threads, options);
  const Model& model = tagger.model();
  return score_tags(gold, results, [&](const std::string& form) {
    const std::string lower = to_lower(form);
    return training_words.empty() ? model.words.find(lower) < 0 : training_words.count(lower) == 0;
  });
}

namespace {

std::string percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

void append_scores(std::string& out, const TagSetScores& scores, std::size_t max_confusions) {
  out += "{\"accuracy\": " + percent(scores.accuracy()) +
         ", \"words\": " + std::to_string(scores.words) +
         ", \"correct\": " + std::to_string(scores.correct) + ", \"tags\": {";
  bool first = true;
  for (const auto& [tag, counts] : scores.tags) {
    if (!first) out += ", ";
    first = false;
    append_json_string(out, tag);
    out += ": {\"gold\": " + std::to_string(counts.gold) +
           ", \"predicted\": " + std::to_string(counts.predicted) +
           ", \"correct\": " + std::to_string(counts.correct) +
           ", \"precision\": " + percent(counts.precision()) +
           ", \"recall\": " + percent(counts.recall()) + ", \"f1\": " + percent(counts.f1()) +
           "}";
  }
  out += "}, \"confusions\": [";
  first = true;
  for (const auto& [pair, count] : scores.top_confusions(max_confusions)) {
    if (!first) out += ", ";
    first = false;
    out += "{\"gold\": ";
    append_json_string(out, pair.first);
    out += ", \"predicted\": ";
    append_json_string(out, pair.second);
    out += ", \"count\": " + std::to_string(count) + "}";
  }
  out += "]}";
}

void append_matches(std::string& out, const char* name, const MatchCounts& counts) {
  out += std::string(", \"") + name + "\": {\"accuracy\": " + percent(counts.accuracy()) +
         ", \"words\": " + std::to_string(counts.words) +
         ", \"correct\": " + std::to_string(counts.correct) + "}";
}

}  // namespace

std::string to_json(const Evaluation& evaluation, std::size_t max_confusions) {
  std::string out = "{\"upos\": ";
  append_scores(out, evaluation.upos, max_confusions);
  out += ", \"xpos\": ";
  append_scores(out, evaluation.xpos, max_confusions);
  if (evaluation.has_feats()) {
    append_matches(out, "ufeats", evaluation.ufeats);
    append_matches(out, "alltags", evaluation.alltags);
  }
  if (evaluation.has_lemmas()) append_matches(out, "lemmas", evaluation.lemmas);
  out += ", \"unseen\": {\"words\": " + std::to_string(evaluation.unseen_upos.words) +
         ", \"upos_accuracy\": " + percent(evaluation.unseen_upos.accuracy()) +
         ", \"xpos_accuracy\": " + percent(evaluation.unseen_xpos.accuracy());
  if (evaluation.has_feats()) {
    out += ", \"ufeats_accuracy\": " + percent(evaluation.unseen_ufeats.accuracy());
  }
  if (evaluation.has_lemmas()) {
    out += ", \"lemmas_accuracy\": " + percent(evaluation.unseen_lemmas.accuracy());
  }
  out += "}, \"calibration_error\": {\"upos\": " +
         percent(evaluation.upos_reliability.expected_calibration_error()) +
         ", \"xpos\": " + percent(evaluation.xpos_reliability.expected_calibration_error());
  if (evaluation.has_feats()) {
    out += ", \"feats\": " + percent(evaluation.feats_reliability.expected_calibration_error());
  }
  if (evaluation.has_lemmas()) {
    out += ", \"lemma\": " + percent(evaluation.lemma_reliability.expected_calibration_error());
  }
  out += "}}";
  return out;
}

}  // namespace sawtag
