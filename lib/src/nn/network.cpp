#include "nn/network.hpp"

#include "nn/dropout.hpp"
#include "nn/linear.hpp"

namespace sawtag::nn {

Matrix encoder_forward(const EncoderParameters& parameters, const ModelConfig& config,
                       const std::vector<WordFeatures>& words, const Segments& segments,
                       const ForwardOptions& options, EncoderCache* cache,
                       std::vector<Matrix>* attention) {
  Matrix x = dropout_forward(
      embedding_forward(parameters, config, words, segments, cache ? &cache->embedding : nullptr),
      segments, options, cache ? &cache->embedding_dropout_mask : nullptr);
  if (cache != nullptr) cache->layers.resize(parameters.layers.size());
  for (std::size_t l = 0; l < parameters.layers.size(); ++l) {
    const EncoderLayerParameters& layer = parameters.layers[l];
    EncoderLayerCache* layer_cache = cache ? &cache->layers[l] : nullptr;
    // The attention probabilities are in the attention cache; use a local one when the caller
    // wants them but keeps no cache.
    AttentionCache local_attention_cache;
    AttentionCache* attention_cache =
        layer_cache ? &layer_cache->attention
                    : (attention != nullptr ? &local_attention_cache : nullptr);

    const Matrix attention_input =
        layer_norm_forward(layer.attention_norm, x, config.layer_norm_epsilon,
                           layer_cache ? &layer_cache->attention_norm : nullptr);
    x += dropout_forward(
        attention_forward(layer.attention, config, attention_input, segments, attention_cache),
        segments, options, layer_cache ? &layer_cache->attention_dropout_mask : nullptr);
    if (attention != nullptr) {
      attention->insert(attention->end(), attention_cache->probabilities.begin(),
                        attention_cache->probabilities.end());
    }

    const Matrix feed_forward_input =
        layer_norm_forward(layer.feed_forward_norm, x, config.layer_norm_epsilon,
                           layer_cache ? &layer_cache->feed_forward_norm : nullptr);
    x += dropout_forward(
        feed_forward_forward(layer.feed_forward, feed_forward_input,
                             layer_cache ? &layer_cache->feed_forward : nullptr),
        segments, options, layer_cache ? &layer_cache->feed_forward_dropout_mask : nullptr);
  }
  return layer_norm_forward(parameters.final_norm, x, config.layer_norm_epsilon,
                            cache ? &cache->final_norm : nullptr);
}

void encoder_backward(const EncoderParameters& parameters, const ModelConfig& config,
                      const EncoderCache& cache, const Matrix& d_encoded,
                      EncoderParameters& gradients) {
  // d_x is the gradient of the residual stream, carried down through the layers.
  Matrix d_x =
      layer_norm_backward(parameters.final_norm, cache.final_norm, d_encoded, gradients.final_norm);
  for (std::size_t l = parameters.layers.size(); l-- > 0;) {
    const EncoderLayerParameters& layer = parameters.layers[l];
    const EncoderLayerCache& layer_cache = cache.layers[l];
    EncoderLayerParameters& layer_gradients = gradients.layers[l];

    const Matrix d_feed_forward_output =
        dropout_backward(d_x, layer_cache.feed_forward_dropout_mask);
    const Matrix d_feed_forward_input =
        feed_forward_backward(layer.feed_forward, layer_cache.feed_forward, d_feed_forward_output,
                              layer_gradients.feed_forward);
    d_x += layer_norm_backward(layer.feed_forward_norm, layer_cache.feed_forward_norm,
                               d_feed_forward_input, layer_gradients.feed_forward_norm);

    const Matrix d_attention_output = dropout_backward(d_x, layer_cache.attention_dropout_mask);
    const Matrix d_attention_input = attention_backward(
        layer.attention, config, layer_cache.attention, d_attention_output,
        layer_gradients.attention);
    d_x += layer_norm_backward(layer.attention_norm, layer_cache.attention_norm,
                               d_attention_input, layer_gradients.attention_norm);
  }
  embedding_backward(parameters, config, cache.embedding,
                     dropout_backward(d_x, cache.embedding_dropout_mask), gradients);
}

NetworkOutput network_forward(const Parameters& parameters, const ModelConfig& config,
                              const std::vector<WordFeatures>& words, const Segments& segments,
                              const ForwardOptions& options, NetworkCache* cache) {
  NetworkOutput output;
  if (words.empty()) {
    output.upos_logits.resize(0, config.num_upos);
    output.xpos_logits.resize(0, config.num_xpos);
    output.feats_logits.resize(0, config.num_feats);
    output.lemma_logits.resize(0, config.num_lemma_rules);
    if (cache != nullptr) *cache = NetworkCache{};
    return output;
  }
  Matrix encoded =
      encoder_forward(parameters.encoder, config, words, segments, options,
                      cache ? &cache->encoder : nullptr,
                      options.capture_attention ? &output.attention : nullptr);
  output.upos_logits = linear_forward(parameters.heads.upos, encoded);
  output.xpos_logits = linear_forward(parameters.heads.xpos, encoded);
  output.feats_logits = config.num_feats > 0 ? linear_forward(parameters.heads.feats, encoded)
                                             : Matrix(encoded.rows(), 0);
  output.lemma_logits = config.num_lemma_rules > 0
                            ? linear_forward(parameters.heads.lemma, encoded)
                            : Matrix(encoded.rows(), 0);
  if (cache != nullptr) cache->encoded = std::move(encoded);
  return output;
}

NetworkOutput network_forward(const Parameters& parameters, const ModelConfig& config,
                              const std::vector<WordFeatures>& words,
                              const ForwardOptions& options, NetworkCache* cache) {
  return network_forward(parameters, config, words,
                         Segments::single(static_cast<int>(words.size())), options, cache);
}

void network_backward(const Parameters& parameters, const ModelConfig& config,
                      const NetworkCache& cache, const Matrix& d_upos_logits,
                      const Matrix& d_xpos_logits, Parameters& gradients) {
  LogitGradients d_logits;
  d_logits.upos = d_upos_logits;
  d_logits.xpos = d_xpos_logits;
  network_backward(parameters, config, cache, d_logits, gradients);
}

void network_backward(const Parameters& parameters, const ModelConfig& config,
                      const NetworkCache& cache, const LogitGradients& d_logits,
                      Parameters& gradients) {
  if (cache.encoded.rows() == 0) return;
  const Matrix d_encoded = heads_backward(parameters, config, cache, d_logits, gradients);
  encoder_backward(parameters.encoder, config, cache.encoder, d_encoded, gradients.encoder);
}

Matrix heads_backward(const Parameters& parameters, const ModelConfig& config,
                      const NetworkCache& cache, const LogitGradients& d_logits,
                      Parameters& gradients, bool morphology_only) {
  Matrix d_encoded = Matrix::Zero(cache.encoded.rows(), cache.encoded.cols());
  if (cache.encoded.rows() == 0) return d_encoded;
  if (!morphology_only) {
    d_encoded += linear_backward(parameters.heads.upos, cache.encoded, d_logits.upos,
                                 gradients.heads.upos);
    d_encoded += linear_backward(parameters.heads.xpos, cache.encoded, d_logits.xpos,
                                 gradients.heads.xpos);
  }
  if (config.num_feats > 0 && d_logits.feats.size() > 0) {
    d_encoded += linear_backward(parameters.heads.feats, cache.encoded, d_logits.feats,
                                 gradients.heads.feats);
  }
  if (config.num_lemma_rules > 0 && d_logits.lemma.size() > 0) {
    d_encoded += linear_backward(parameters.heads.lemma, cache.encoded, d_logits.lemma,
                                 gradients.heads.lemma);
  }
  return d_encoded;
}

}  // namespace sawtag::nn
