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
  std::vector<int> lengths;
  std::vector<std::mt19937_64*> sentence_random;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const Example& example = *examples[i];
    if (example.words.empty()) continue;
    words.insert(words.end(), example.words.begin(), example.words.end());
    upos.insert(upos.end(), example.upos.begin(), example.upos.end());
    xpos.insert(xpos.end(), example.xpos.begin(), example.xpos.end());
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
  nn::Matrix d_upos;
  nn::Matrix d_xpos;
  const double loss =
      nn::tagging_loss(output.upos_logits, upos, options.label_smoothing, &d_upos) +
      nn::tagging_loss(output.xpos_logits, xpos, options.label_smoothing, &d_xpos);
  nn::network_backward(model.parameters, model.config, cache, d_upos, d_xpos, gradients);
  return loss;
}

}  // namespace sawtag::train
