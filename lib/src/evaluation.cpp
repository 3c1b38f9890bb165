#include "sawtag/evaluation.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "io/json_text.hpp"
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

namespace {

std::vector<std::string> forms_of(const Sentence& sentence) {
  std::vector<std::string> forms;
  forms.reserve(sentence.words.size());
  for (const Word& word : sentence.words) forms.push_back(word.form);
  return forms;
}

}  // namespace

std::vector<TagResult> tag_gold_words(const Tagger& tagger, const std::vector<Sentence>& gold,
                                      int threads, const TagOptions& options) {
  std::vector<TagResult> results(gold.size());
  const std::size_t thread_count = static_cast<std::size_t>(std::max(1, threads));
  train::on_threads(thread_count, [&](std::size_t t) {
    for (std::size_t i = t; i < gold.size(); i += thread_count) {
      results[i] = tagger.tag(forms_of(gold[i]), options);
    }
  });
  return results;
}

Evaluation evaluate(const Tagger& tagger, const std::vector<Sentence>& gold, int threads,
                    const std::unordered_set<std::string>& training_words) {
  // Tagged in parallel, then scored in order, so the result does not depend on the thread count.
  const std::vector<TagResult> results = tag_gold_words(tagger, gold, threads);
  Evaluation evaluation;
  const Model& model = tagger.model();
  for (std::size_t i = 0; i < gold.size(); ++i) {
    for (std::size_t w = 0; w < gold[i].words.size(); ++w) {
      const Word& word = gold[i].words[w];
      const WordTags& predicted = results[i].words[w];
      evaluation.upos.add(word.upos, predicted.upos);
      evaluation.xpos.add(word.xpos, predicted.xpos);
      evaluation.upos_reliability.add(predicted.upos_probability, word.upos == predicted.upos);
      evaluation.xpos_reliability.add(predicted.xpos_probability, word.xpos == predicted.xpos);
      const std::string lower = to_lower(word.form);
      const bool unseen = training_words.empty() ? model.words.find(lower) < 0
                                                 : training_words.count(lower) == 0;
      if (unseen) {
        evaluation.unseen_upos.add(word.upos, predicted.upos);
        evaluation.unseen_xpos.add(word.xpos, predicted.xpos);
      }
    }
  }
  return evaluation;
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

}  // namespace

std::string to_json(const Evaluation& evaluation, std::size_t max_confusions) {
  std::string out = "{\"upos\": ";
  append_scores(out, evaluation.upos, max_confusions);
  out += ", \"xpos\": ";
  append_scores(out, evaluation.xpos, max_confusions);
  out += ", \"unseen\": {\"words\": " + std::to_string(evaluation.unseen_upos.words) +
         ", \"upos_accuracy\": " + percent(evaluation.unseen_upos.accuracy()) +
         ", \"xpos_accuracy\": " + percent(evaluation.unseen_xpos.accuracy()) +
         "}, \"calibration_error\": {\"upos\": " +
         percent(evaluation.upos_reliability.expected_calibration_error()) +
         ", \"xpos\": " + percent(evaluation.xpos_reliability.expected_calibration_error()) +
         "}}";
  return out;
}

}  // namespace sawtag
