// The whole network for one sentence: features -> encoder -> UPOS and XPOS logits, forward and
// backward. This is the internal API the Tagger and the training loop call.
//
//   x   = dropout(embedding(words))                                   [n, d_model]
//   per layer (PRE-NORM; the original transformer is post-norm, x = LN(x + f(x)), but pre-norm
//   trains more stably without warm-up tricks, so the norms sit inside the residual branches):
//     x = x + dropout(attention(LN_1(x)))
//     x = x + dropout(FFN(LN_2(x)))
//   h   = final_norm(x)                                               [n, d_model]
//   upos_logits = h W_upos + b_upos                                   [n, num_upos]
//   xpos_logits = h W_xpos + b_xpos                                   [n, num_xpos]
//   feats_logits = h W_feats + b_feats, lemma_logits = h W_lemma + b_lemma, when the model
//   has those heads (config.num_feats, num_lemma_rules > 0)
//
// Every function takes a batch: the words of several sentences stacked in the rows of each
// matrix (nn/segments.hpp), so that every linear map is one matrix product over the whole
// batch; a sentence's results do not depend on what else is in the batch. The one-sentence
// overloads are a batch of one. Training use (train/batch_step.cpp):
//   NetworkCache cache;
//   ForwardOptions options{dropout_rate, {&random_0, &random_1, ...}};  // one per sentence
//   NetworkOutput out =
//       network_forward(model.parameters, config, words, segments, options, &cache);
//   Matrix d_upos, d_xpos;
//   float loss = tagging_loss(out.upos_logits, upos_targets, smoothing, &d_upos)
//              + tagging_loss(out.xpos_logits, xpos_targets, smoothing, &d_xpos);
//   network_backward(model.parameters, config, cache, d_upos, d_xpos, gradients);  // +=
// `gradients` comes from zero_parameters(config) and is zeroed by the caller between batches;
// backward never changes the weights. Scale d_upos / d_xpos (e.g. by 1 / words in the batch)
// before backward to get the gradient of a mean.
#pragma once

#include <vector>

#include "nn/attention.hpp"
#include "nn/embedding.hpp"
#include "nn/feed_forward.hpp"
#include "nn/forward_options.hpp"
#include "nn/layer_norm.hpp"
#include "nn/matrix.hpp"
#include "nn/segments.hpp"
#include "sawtag/config.hpp"
#include "sawtag/features.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::nn {

// Activations of one encoder layer kept for backward.
struct EncoderLayerCache {
  LayerNormCache attention_norm;
  AttentionCache attention;
  Matrix attention_dropout_mask;  // [n, d_model]; empty without dropout
  LayerNormCache feed_forward_norm;
  FeedForwardCache feed_forward;
  Matrix feed_forward_dropout_mask;  // [n, d_model]; empty without dropout
};

struct EncoderCache {
  EmbeddingCache embedding;
  Matrix embedding_dropout_mask;  // [n, d_model]; empty without dropout
  std::vector<EncoderLayerCache> layers;
  LayerNormCache final_norm;
};

// Everything network_backward needs; filled by network_forward, reusable across sentences.
struct NetworkCache {
  EncoderCache encoder;
  Matrix encoded;  // [n, d_model]: final_norm output, the heads' input
};

struct NetworkOutput {
  Matrix upos_logits;  // [rows, num_upos]
  Matrix xpos_logits;  // [rows, num_xpos]
  Matrix feats_logits;  // [rows, num_feats]; [rows, 0] without the head
  Matrix lemma_logits;  // [rows, num_lemma_rules]; [rows, 0] without the head
  // With ForwardOptions::capture_attention: for one sentence, attention[layer * num_heads + head]
  // is that head's [n, n] probabilities (row i: how much word i attends to each word); for a
  // batch, layer by layer, sentence by sentence, head by head. Empty otherwise.
  std::vector<Matrix> attention;
};

// Encoder alone, for sharing with a pre-training objective: words -> [rows, d_model] (after
// final_norm). `attention` (optional) receives each layer's heads' probabilities in order.
Matrix encoder_forward(const EncoderParameters& parameters, const ModelConfig& config,
                       const std::vector<WordFeatures>& words, const Segments& segments,
                       const ForwardOptions& options, EncoderCache* cache,
                       std::vector<Matrix>* attention);

// d_encoded: [rows, d_model]; adds into every encoder gradient.
void encoder_backward(const EncoderParameters& parameters, const ModelConfig& config,
                      const EncoderCache& cache, const Matrix& d_encoded,
                      EncoderParameters& gradients);

// words of the batch's sentences (segments.rows() of them, >= 0) -> logits. Weights are only
// read. With `cache`, keeps what network_backward needs. Inference: default options, no cache;
// thread-safe.
NetworkOutput network_forward(const Parameters& parameters, const ModelConfig& config,
                              const std::vector<WordFeatures>& words, const Segments& segments,
                              const ForwardOptions& options, NetworkCache* cache);

// One sentence of n words (n >= 0).
NetworkOutput network_forward(const Parameters& parameters, const ModelConfig& config,
                              const std::vector<WordFeatures>& words,
                              const ForwardOptions& options, NetworkCache* cache);

// d_upos_logits: [rows, num_upos], d_xpos_logits: [rows, num_xpos] -> ADDS (+=) the gradient of every
// tensor into `gradients` (same shapes as `parameters`, e.g. from zero_parameters(config)).
void network_backward(const Parameters& parameters, const ModelConfig& config,
                      const NetworkCache& cache, const Matrix& d_upos_logits,
                      const Matrix& d_xpos_logits, Parameters& gradients);

// The loss's gradient with respect to each head's logits. feats and lemma: [rows, num_feats]
// and [rows, num_lemma_rules], or empty (no gradient: the head is absent or not trained).
struct LogitGradients {
  Matrix upos;
  Matrix xpos;
  Matrix feats;
  Matrix lemma;
};

// The heads alone: ADDS the gradients of the heads' tensors (with `morphology_only`, of the FEATS
// and lemma heads only) and returns the gradient with respect to the encoded rows.
Matrix heads_backward(const Parameters& parameters, const ModelConfig& config,
                      const NetworkCache& cache, const LogitGradients& d_logits,
                      Parameters& gradients, bool morphology_only = false);

// The same with every head: ADDS the gradient of every tensor into `gradients`.
void network_backward(const Parameters& parameters, const ModelConfig& config,
                      const NetworkCache& cache, const LogitGradients& d_logits,
                      Parameters& gradients);

}  // namespace sawtag::nn
