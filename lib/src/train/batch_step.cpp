#include "train/batch_step.hpp"

#include "nn/loss.hpp"
#include "nn/network.hpp"

namespace sawtag::train {

namespace {

// One head's targets over the batch: a gold tag or -1 per word, and the teacher's
// distribution (or none) per word.
struct HeadTargets {
  std::vector<int> hard;
  nn::SparseDistributions soft;
  bool any_soft = false;
};

// Appends `example`'s targets for one head: its soft rows if it has them for every word, else
// its hard targets (-1 for every word when it has none for this head).
void append_targets(const Example& example, const std::vector<int>& hard,
                    const nn::SparseDistributions& soft, HeadTargets& targets) {
  const std::size_t words = example.words.size();
  if (soft.rows() == words) {
    targets.hard.insert(targets.hard.end(), words, -1);
    for (std::size_t i = 0; i < words; ++i) {
      for (std::size_t k = soft.offsets[i]; k < soft.offsets[i + 1]; ++k) {
        targets.soft.add(soft.classes[k], soft.probabilities[k]);
      }
      targets.soft.end_row();
    }
    targets.any_soft = true;
    return;
  }
  if (hard.size() == words) {
    targets.hard.insert(targets.hard.end(), hard.begin(), hard.end());
  } else {
    targets.hard.insert(targets.hard.end(), words, -1);
  }
  for (std::size_t i = 0; i < words; ++i) targets.soft.end_row();
}

// The head's loss to both kinds of targets; its gradient into d_logits.
double head_loss(const nn::Matrix& logits, const HeadTargets& targets,
                 const StepOptions& options, nn::Matrix& d_logits) {
  double loss = nn::tagging_loss(logits, targets.hard, options.label_smoothing, &d_logits);
  if (targets.any_soft) {
    nn::Matrix d_soft;
    loss += nn::distillation_loss(logits, targets.soft, options.distillation_temperature, &d_soft);
    d_logits += d_soft;
  }
  return loss;
}

}  // namespace

double accumulate_gradients(const Model& model, const std::vector<const Example*>& examples,
                            const StepOptions& options,
                            const std::vector<std::mt19937_64*>& random, Parameters& gradients) {
  std::vector<WordFeatures> words;
  // UPOS, XPOS, FEATS, lemma rule.
  std::array<HeadTargets, 4> targets;
  const bool feats = model.config.num_feats > 0;
  const bool lemma = model.config.num_lemma_rules > 0;
  std::vector<int> lengths;
  std::vector<std::mt19937_64*> sentence_random;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const Example& example = *examples[i];
    if (example.words.empty()) continue;
    words.insert(words.end(), example.words.begin(), example.words.end());
    append_targets(example, example.upos, example.soft[0], targets[0]);
    append_targets(example, example.xpos, example.soft[1], targets[1]);
    if (feats) append_targets(example, example.feats, example.soft[2], targets[2]);
    if (lemma) append_targets(example, example.lemma, example.soft[3], targets[3]);
    lengths.push_back(static_cast<int>(example.words.size()));
    sentence_random.push_back(i < random.size() ? random[i] : nullptr);
  }
  if (words.empty()) return 0.0;
  const nn::Segments segments(std::move(lengths));
  nn::ForwardOptions forward_options;
  forward_options.dropout_rate = options.dropout;
  forward_options.random = std::move(sentence_random);
  nn::NetworkCache cache;
  const nn::NetworkOutput output = nn::network_forward(model.parameters, model.config, words,
                                                       segments, forward_options, &cache);
  nn::LogitGradients d_logits;
  double loss = head_loss(output.upos_logits, targets[0], options, d_logits.upos) +
                head_loss(output.xpos_logits, targets[1], options, d_logits.xpos);
  if (feats) loss += head_loss(output.feats_logits, targets[2], options, d_logits.feats);
  if (lemma) {
    loss += options.lemma_weight * head_loss(output.lemma_logits, targets[3], options, d_logits.lemma);
    d_logits.lemma *= options.lemma_weight;
  }
  if (options.morphology_heads_only) {
    nn::heads_backward(model.parameters, model.config, cache, d_logits, gradients,
                       /*morphology_only=*/true);
  } else {
    nn::network_backward(model.parameters, model.config, cache, d_logits, gradients);
  }
  return loss;
}

}  // namespace sawtag::train
