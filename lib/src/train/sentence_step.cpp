#include "train/sentence_step.hpp"

#include "nn/loss.hpp"
#include "nn/network.hpp"

namespace sawtag::train {

double accumulate_gradients(const Model& model, const Example& example, const StepOptions& options,
                            std::mt19937_64& rng, Parameters& gradients) {
  if (example.words.empty()) return 0.0;
  nn::NetworkCache cache;
  nn::ForwardOptions forward_options;
  forward_options.dropout_rate = options.dropout;
  forward_options.random = &rng;
  const nn::NetworkOutput output =
      nn::network_forward(model.parameters, model.config, example.words, forward_options, &cache);
  nn::Matrix d_upos;
  nn::Matrix d_xpos;
  const double loss =
      nn::tagging_loss(output.upos_logits, example.upos, options.label_smoothing, &d_upos) +
      nn::tagging_loss(output.xpos_logits, example.xpos, options.label_smoothing, &d_xpos);
  nn::network_backward(model.parameters, model.config, cache, d_upos, d_xpos, gradients);
  return loss;
}

}  // namespace sawtag::train
