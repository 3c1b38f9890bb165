#include "train/batch_step.hpp"

#include "nn/loss.hpp"
#include "nn/network.hpp"

namespace sawtag::train {

double accumulate_gradients(const Model& model, const std::vector<const Example*>& examples,
                            const StepOptions& options,
                            const std::vector<std::mt19937_64*>& random, Parameters& gradients) {
  std::vector<WordFeatures> words;
  std::vector<int> upos;
  std::vector<int> xpos;
  std::vector<int> feats;
  std::vector<int> lemma;
  std::vector<int> lengths;
  std::vector<std::mt19937_64*> sentence_random;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const Example& example = *examples[i];
    if (example.words.empty()) continue;
    words.insert(words.end(), example.words.begin(), example.words.end());
    upos.insert(upos.end(), example.upos.begin(), example.upos.end());
    xpos.insert(xpos.end(), example.xpos.begin(), example.xpos.end());
    // A missing column counts as unknown: -1, ignored by the loss.
    const auto append = [&](std::vector<int>& all, const std::vector<int>& own) {
      if (own.size() == example.words.size()) {
        all.insert(all.end(), own.begin(), own.end());
      } else {
        all.insert(all.end(), example.words.size(), -1);
      }
    };
    if (model.config.num_feats > 0) append(feats, example.feats);
    if (model.config.num_lemma_rules > 0) append(lemma, example.lemma);
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
  double loss = nn::tagging_loss(output.upos_logits, upos, options.label_smoothing, &d_logits.upos) +
                nn::tagging_loss(output.xpos_logits, xpos, options.label_smoothing, &d_logits.xpos);
  if (model.config.num_feats > 0) {
    loss += nn::tagging_loss(output.feats_logits, feats, options.label_smoothing, &d_logits.feats);
  }
  if (model.config.num_lemma_rules > 0) {
    loss += nn::tagging_loss(output.lemma_logits, lemma, options.label_smoothing, &d_logits.lemma);
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
