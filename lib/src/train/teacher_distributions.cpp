// What a teacher (one model or the mean of several) believes about every word of a text, for
// distillation (sawtag/soft_targets.hpp).
#include <algorithm>
#include <string>

#include "sawtag/error.hpp"
#include "sawtag/soft_targets.hpp"
#include "tagging/tagger_internals.hpp"
#include "train/on_threads.hpp"

namespace sawtag {
namespace {

void check_same_classes(const std::vector<const Tagger*>& teachers) {
  if (teachers.empty()) throw InputError("distillation needs at least one teacher model");
  const SoftTargetsHeader first = soft_targets_header(teachers.front()->model());
  for (std::size_t m = 1; m < teachers.size(); ++m) {
    if (soft_targets_header(teachers[m]->model()).classes != first.classes) {
      throw InputError("model " + std::to_string(m + 1) +
                       " of the ensemble has other tag sets (or FEATS or lemma rules) than the "
                       "first");
    }
  }
}

// The k most likely classes of the mean of `summed` over `teachers` models, most likely first
// (ties: the lower index).
std::vector<SoftClass> top_classes(const std::vector<double>& summed, std::size_t teachers,
                                   std::size_t k, std::vector<int>& order) {
  order.resize(summed.size());
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = static_cast<int>(c);
  const std::size_t kept = std::min(k, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept), order.end(),
                    [&summed](int a, int b) {
                      const double pa = summed[static_cast<std::size_t>(a)];
                      const double pb = summed[static_cast<std::size_t>(b)];
                      return pa != pb ? pa > pb : a < b;
                    });
  std::vector<SoftClass> classes(kept);
  for (std::size_t j = 0; j < kept; ++j) {
    classes[j].index = order[j];
    classes[j].probability = static_cast<float>(summed[static_cast<std::size_t>(order[j])] /
                                                static_cast<double>(teachers));
  }
  return classes;
}

}  // namespace

std::vector<SoftSentence> teacher_distributions(
    const std::vector<const Tagger*>& teachers,
    const std::vector<std::vector<std::string>>& sentences, const SoftTargetOptions& options) {
  check_same_classes(teachers);
  if (options.top_k < 1) throw InputError("soft targets: top_k must be at least 1");
  const Model& first = teachers.front()->model();
  const std::array<std::size_t, kSoftHeads> sizes = {
      static_cast<std::size_t>(first.upos.size()), static_cast<std::size_t>(first.xpos.size()),
      static_cast<std::size_t>(first.feats.size()),
      static_cast<std::size_t>(first.lemma_rules.size())};
  const std::size_t k = static_cast<std::size_t>(options.top_k);
  std::vector<SoftSentence> result(sentences.size());
  TagOptions tag_options;
  tag_options.logits = true;
  const std::size_t threads = static_cast<std::size_t>(std::max(1, options.threads));
  // Thread t takes the contiguous t-th share of the sentences, tagged by each teacher in turn.
  train::on_threads(threads, [&](std::size_t t) {
    const std::size_t begin = sentences.size() * t / threads;
    const std::size_t end = sentences.size() * (t + 1) / threads;
    const std::vector<std::vector<std::string>> share(
        sentences.begin() + static_cast<std::ptrdiff_t>(begin),
        sentences.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<std::vector<TagResult>> results;
    for (const Tagger* teacher : teachers) results.push_back(teacher->tag_batch(share, tag_options));
    std::array<std::vector<double>, kSoftHeads> summed;
    std::vector<int> order;
    std::vector<float> scratch;
    for (std::size_t s = begin; s < end; ++s) {
      SoftSentence& sentence = result[s];
      sentence.resize(sentences[s].size());
      for (std::size_t i = 0; i < sentences[s].size(); ++i) {
        for (std::size_t h = 0; h < kSoftHeads; ++h) summed[h].assign(sizes[h], 0.0);
        for (std::size_t m = 0; m < teachers.size(); ++m) {
          const WordTags& tags = results[m][s - begin].words[i];
          const Calibration& calibration = teachers[m]->model().calibration;
          // The very probabilities each teacher's Tagger reports.
          add_tag_probabilities(tags.upos_logits, calibration.upos_temperature, scratch, summed[0]);
          add_tag_probabilities(tags.xpos_logits, calibration.xpos_temperature, scratch, summed[1]);
          add_tag_probabilities(tags.feats_logits, calibration.feats_temperature, scratch,
                                summed[2]);
          add_tag_probabilities(tags.lemma_logits, calibration.lemma_temperature, scratch,
                                summed[3]);
        }
        SoftWord& word = sentence[i];
        word.form = sentences[s][i];
        for (std::size_t h = 0; h < kSoftHeads; ++h) {
          if (sizes[h] > 0) word.heads[h] = top_classes(summed[h], teachers.size(), k, order);
        }
      }
    }
  });
  return result;
}

}  // namespace sawtag
