#include "sawtag/ensemble.hpp"

#include <algorithm>
#include <string>

#include "sawtag/error.hpp"
#include "tagging/tagger_internals.hpp"
#include "train/on_threads.hpp"

namespace sawtag {
namespace {

// The tag with the highest mean probability, or "_" when that mean is below the threshold.
const std::string& choose(const std::vector<double>& summed, std::size_t num_models,
                          const Vocabulary& tags, float min_probability, std::size_t& kept) {
  static const std::string kNoTag = "_";
  const auto best = std::max_element(summed.begin(), summed.end());
  if (*best / static_cast<double>(num_models) < static_cast<double>(min_probability)) {
    return kNoTag;
  }
  ++kept;
  return tags.at(static_cast<int>(best - summed.begin()));
}

void check_same_tag_sets(const std::vector<const Tagger*>& models) {
  if (models.empty()) throw InputError("an ensemble needs at least one model");
  const Model& first = models.front()->model();
  for (std::size_t m = 1; m < models.size(); ++m) {
    const Model& model = models[m]->model();
    if (model.upos.items() != first.upos.items() || model.xpos.items() != first.xpos.items()) {
      throw InputError("model " + std::to_string(m + 1) +
                       " of the ensemble has other tag sets than the first");
    }
  }
}

}  // namespace

EnsembleReport ensemble_tag(const std::vector<const Tagger*>& models,
                            std::vector<Sentence>& sentences, const EnsembleOptions& options) {
  check_same_tag_sets(models);
  const Model& first = models.front()->model();
  const std::size_t threads = static_cast<std::size_t>(std::max(1, options.threads));
  std::vector<EnsembleReport> reports(threads);
  TagOptions tag_options;
  tag_options.logits = true;
  // Thread t takes the contiguous t-th share of the sentences, tagged by each model in turn.
  train::on_threads(threads, [&](std::size_t t) {
    const std::size_t begin = sentences.size() * t / threads;
    const std::size_t end = sentences.size() * (t + 1) / threads;
    std::vector<std::vector<std::string>> words;
    for (std::size_t s = begin; s < end; ++s) words.push_back(word_forms(sentences[s]));
    std::vector<std::vector<TagResult>> results;
    for (const Tagger* model : models) results.push_back(model->tag_batch(words, tag_options));
    EnsembleReport& report = reports[t];
    std::vector<double> upos(static_cast<std::size_t>(first.upos.size()));
    std::vector<double> xpos(static_cast<std::size_t>(first.xpos.size()));
    std::vector<float> scratch;
    for (std::size_t s = begin; s < end; ++s) {
      for (std::size_t i = 0; i < sentences[s].words.size(); ++i) {
        std::fill(upos.begin(), upos.end(), 0.0);
        std::fill(xpos.begin(), xpos.end(), 0.0);
        for (std::size_t m = 0; m < models.size(); ++m) {
          const WordTags& tags = results[m][s - begin].words[i];
          const Calibration& calibration = models[m]->model().calibration;
          add_tag_probabilities(tags.upos_logits, calibration.upos_temperature, scratch, upos);
          add_tag_probabilities(tags.xpos_logits, calibration.xpos_temperature, scratch, xpos);
        }
        Word& word = sentences[s].words[i];
        word.upos =
            choose(upos, models.size(), first.upos, options.min_probability, report.upos_kept);
        word.xpos =
            choose(xpos, models.size(), first.xpos, options.min_probability, report.xpos_kept);
        ++report.words;
      }
    }
  });
  EnsembleReport total;
  for (const EnsembleReport& report : reports) {
    total.words += report.words;
    total.upos_kept += report.upos_kept;
    total.xpos_kept += report.xpos_kept;
  }
  return total;
}

}  // namespace sawtag
