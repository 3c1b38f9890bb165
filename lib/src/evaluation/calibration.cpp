#include "sawtag/calibration.hpp"

#include "train/morphology_targets.hpp"

#include <algorithm>
#include <cmath>

#include "sawtag/error.hpp"
#include "sawtag/evaluation.hpp"

namespace sawtag {

void ReliabilityBins::add(double confidence, bool correct) {
  const int bin = std::clamp(static_cast<int>(confidence * kBins), 0, kBins - 1);
  ++count_[static_cast<std::size_t>(bin)];
  correct_[static_cast<std::size_t>(bin)] += correct ? 1 : 0;
  confidence_[static_cast<std::size_t>(bin)] += confidence;
  ++words_;
}

double ReliabilityBins::expected_calibration_error() const {
  if (words_ == 0) return 0.0;
  double error = 0.0;
  for (std::size_t b = 0; b < count_.size(); ++b) {
    if (count_[b] == 0) continue;
    const double n = static_cast<double>(count_[b]);
    error += n / static_cast<double>(words_) *
             std::abs(static_cast<double>(correct_[b]) / n - confidence_[b] / n);
  }
  return error;
}

namespace {

// Mean negative log-likelihood of the gold tags under softmax(logits / temperature).
double negative_log_likelihood(const std::vector<float>& logits, const std::vector<int>& gold,
                               int num_tags, double temperature) {
  double total = 0.0;
  std::size_t words = 0;
  for (std::size_t w = 0; w < gold.size(); ++w) {
    if (gold[w] < 0) continue;
    const float* row = logits.data() + w * static_cast<std::size_t>(num_tags);
    const double maximum = *std::max_element(row, row + num_tags) / temperature;
    double sum = 0.0;
    for (int t = 0; t < num_tags; ++t) sum += std::exp(row[t] / temperature - maximum);
    total += maximum + std::log(sum) - row[gold[w]] / temperature;
    ++words;
  }
  return words ? total / static_cast<double>(words) : 0.0;
}

}  // namespace

float fit_temperature(const std::vector<float>& logits, const std::vector<int>& gold,
                      int num_tags) {
  // The NLL is convex in 1 / T, so unimodal in log T: golden-section search.
  const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
  double low = std::log(0.05);
  double high = std::log(20.0);
  const auto nll = [&](double log_temperature) {
    return negative_log_likelihood(logits, gold, num_tags, std::exp(log_temperature));
  };
  double a = high - golden * (high - low);
  double b = low + golden * (high - low);
  double nll_a = nll(a);
  double nll_b = nll(b);
  for (int iteration = 0; iteration < 40; ++iteration) {
    if (nll_a < nll_b) {
      high = b;
      b = a;
      nll_b = nll_a;
      a = high - golden * (high - low);
      nll_a = nll(a);
    } else {
      low = a;
      a = b;
      nll_a = nll_b;
      b = low + golden * (high - low);
      nll_b = nll(b);
    }
  }
  return static_cast<float>(std::exp((low + high) / 2.0));
}

// The FEATS and lemma heads' temperatures, where the model has them (gold words whose FEATS
// string or lemma rule is not a class of the model, or whose lemma is "_", are left out).
void fit_morphology_temperatures(const Model& model, const std::vector<Sentence>& gold,
                                 const std::vector<TagResult>& results, Calibration& calibration) {
  std::vector<float> feats_logits, lemma_logits;
  std::vector<int> feats_gold, lemma_gold;
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const std::vector<int> feats = train::feats_targets(model, gold[i]);
    const std::vector<int> lemmas = train::lemma_targets(model, gold[i]);
    for (std::size_t w = 0; w < gold[i].words.size(); ++w) {
      const WordTags& tags = results[i].words[w];
      if (model.has_feats()) {
        feats_logits.insert(feats_logits.end(), tags.feats_logits.begin(), tags.feats_logits.end());
        feats_gold.push_back(feats[w]);
      }
      if (model.has_lemmas()) {
        lemma_logits.insert(lemma_logits.end(), tags.lemma_logits.begin(), tags.lemma_logits.end());
        lemma_gold.push_back(lemmas[w]);
      }
    }
  }
  if (model.has_feats()) {
    calibration.feats_temperature = fit_temperature(feats_logits, feats_gold, model.config.num_feats);
  }
  if (model.has_lemmas()) {
    calibration.lemma_temperature =
        fit_temperature(lemma_logits, lemma_gold, model.config.num_lemma_rules);
  }
}

Calibration fit_calibration(const Tagger& tagger, const std::vector<Sentence>& gold,
                            int threads) {
  TagOptions options;
  options.logits = true;
  options.morphology_probabilities = true;
  const std::vector<TagResult> results = tag_gold_words(tagger, gold, threads, options);
  const Model& model = tagger.model();
  std::vector<float> upos_logits;
  std::vector<float> xpos_logits;
  std::vector<int> upos_gold;
  std::vector<int> xpos_gold;
  for (std::size_t i = 0; i < gold.size(); ++i) {
    for (std::size_t w = 0; w < gold[i].words.size(); ++w) {
      const WordTags& tags = results[i].words[w];
      upos_logits.insert(upos_logits.end(), tags.upos_logits.begin(), tags.upos_logits.end());
      xpos_logits.insert(xpos_logits.end(), tags.xpos_logits.begin(), tags.xpos_logits.end());
      upos_gold.push_back(model.upos.find(gold[i].words[w].upos));
      xpos_gold.push_back(model.xpos.find(gold[i].words[w].xpos));
    }
  }
  if (upos_gold.empty()) throw InputError("calibration needs at least one gold word");
  Calibration calibration;
  calibration.upos_temperature = fit_temperature(upos_logits, upos_gold, model.config.num_upos);
  calibration.xpos_temperature = fit_temperature(xpos_logits, xpos_gold, model.config.num_xpos);
  fit_morphology_temperatures(model, gold, results, calibration);
  return calibration;
}

}  // namespace sawtag
