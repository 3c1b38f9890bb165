// The network's weights, and the one visitor that names every tensor with its expected shape.
// Save, load, validation, initialisation, Adam, zeroing gradients, gradient checks and
// `sawtag info` all walk the tensors through for_each_parameter, so a name or shape can never
// disagree between two places.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "sawtag/config.hpp"
#include "sawtag/tensor.hpp"

namespace sawtag {

// y = x W + b with W: [in, out], b: [out].
struct LinearParameters {
  Tensor weight;
  Tensor bias;
};

// gamma and beta: [d].
struct LayerNormParameters {
  Tensor gamma;
  Tensor beta;
};

// Multi-head self-attention. The heads' projections sit side by side in one matrix:
// columns [h * head_dim, (h + 1) * head_dim) of query.weight are head h's W_q.
struct AttentionParameters {
  LinearParameters query;   // [d_model, d_model]
  LinearParameters key;     // [d_model, d_model]
  LinearParameters value;   // [d_model, d_model]
  LinearParameters output;  // W_o: [d_model, d_model], applied to the concatenated heads
  Tensor relative_bias;     // [num_heads, 2 * max_relative_distance + 1]; empty when disabled
};

struct FeedForwardParameters {
  LinearParameters hidden;  // [d_model, d_ff]
  LinearParameters output;  // [d_ff, d_model]
};

struct EncoderLayerParameters {
  LayerNormParameters attention_norm;
  AttentionParameters attention;
  LayerNormParameters feed_forward_norm;
  FeedForwardParameters feed_forward;
};

// Embeddings and encoder layers: the part a masked-word pre-training can share.
struct EncoderParameters {
  Tensor word_embedding;                        // [word_vocab_size, word_dim]
  Tensor char_embedding;                        // [char_vocab_size, char_dim]
  std::vector<LinearParameters> char_convolutions;  // per width w: [w * char_dim, char_filters]
  Tensor shape_embedding;                       // [kNumWordShapes, shape_dim]
  // [char_vocab_size, edge_char_dim] each; empty when edge_char_dim is 0.
  Tensor first_char_embedding;
  Tensor last_char_embedding;
  LinearParameters input_projection;            // [input_dim, d_model]
  std::vector<EncoderLayerParameters> layers;   // num_layers
  LayerNormParameters final_norm;               // [d_model]; the layers are pre-norm
};

// The tagging heads read the encoder's final vectors.
struct HeadParameters {
  LinearParameters upos;  // [d_model, num_upos]
  LinearParameters xpos;  // [d_model, num_xpos]
  // The morphology heads; empty (and not visited) when config.num_feats / num_lemma_rules is 0.
  LinearParameters feats;  // [d_model, num_feats]
  LinearParameters lemma;  // [d_model, num_lemma_rules]
};

struct Parameters {
  EncoderParameters encoder;
  HeadParameters heads;
};

// Number of word-shape classes (see features.hpp).
inline constexpr int kNumWordShapes = 11;

namespace detail {
template <class P, class Visit>
void visit_linear(P& linear, const std::string& name, std::int64_t in, std::int64_t out,
                  Visit& visit) {
  visit(name + ".weight", linear.weight, Shape{in, out});
  visit(name + ".bias", linear.bias, Shape{out});
}
template <class P, class Visit>
void visit_norm(P& norm, const std::string& name, std::int64_t dim, Visit& visit) {
  visit(name + ".gamma", norm.gamma, Shape{dim});
  visit(name + ".beta", norm.beta, Shape{dim});
}
}  // namespace detail

// Calls visit(name, tensor, expected_shape) for every tensor of `parameters`, always in the
// same order. `P` is Parameters or const Parameters. Vectors of layers and convolutions are
// resized to the config first when P is mutable.
template <class P, class Visit>
void for_each_parameter(P& parameters, const ModelConfig& config, Visit&& visit) {
  constexpr bool kMutable = !std::is_const_v<P>;
  auto& encoder = parameters.encoder;
  const std::int64_t d = config.d_model;
  if constexpr (kMutable) {
    encoder.char_convolutions.resize(config.char_widths.size());
    encoder.layers.resize(static_cast<std::size_t>(config.num_layers));
  }
  visit("encoder.word_embedding", encoder.word_embedding,
        Shape{config.word_vocab_size, config.word_dim});
  visit("encoder.char_embedding", encoder.char_embedding,
        Shape{config.char_vocab_size, config.char_dim});
  for (std::size_t i = 0; i < config.char_widths.size(); ++i) {
    detail::visit_linear(encoder.char_convolutions.at(i),
                         "encoder.char_convolutions." + std::to_string(i),
                         std::int64_t{config.char_widths[i]} * config.char_dim,
                         config.char_filters, visit);
  }
  visit("encoder.shape_embedding", encoder.shape_embedding,
        Shape{kNumWordShapes, config.shape_dim});
  if (config.edge_char_dim > 0) {
    visit("encoder.first_char_embedding", encoder.first_char_embedding,
          Shape{config.char_vocab_size, config.edge_char_dim});
    visit("encoder.last_char_embedding", encoder.last_char_embedding,
          Shape{config.char_vocab_size, config.edge_char_dim});
  }
  detail::visit_linear(encoder.input_projection, "encoder.input_projection", config.input_dim(),
                       d, visit);
  for (int l = 0; l < config.num_layers; ++l) {
    auto& layer = encoder.layers.at(static_cast<std::size_t>(l));
    const std::string prefix = "encoder.layers." + std::to_string(l);
    detail::visit_norm(layer.attention_norm, prefix + ".attention_norm", d, visit);
    detail::visit_linear(layer.attention.query, prefix + ".attention.query", d, d, visit);
    detail::visit_linear(layer.attention.key, prefix + ".attention.key", d, d, visit);
    detail::visit_linear(layer.attention.value, prefix + ".attention.value", d, d, visit);
    detail::visit_linear(layer.attention.output, prefix + ".attention.output", d, d, visit);
    if (config.relative_position) {
      visit(prefix + ".attention.relative_bias", layer.attention.relative_bias,
            Shape{config.num_heads, 2 * std::int64_t{config.max_relative_distance} + 1});
    }
    detail::visit_norm(layer.feed_forward_norm, prefix + ".feed_forward_norm", d, visit);
    detail::visit_linear(layer.feed_forward.hidden, prefix + ".feed_forward.hidden", d,
                         config.d_ff, visit);
    detail::visit_linear(layer.feed_forward.output, prefix + ".feed_forward.output", config.d_ff,
                         d, visit);
  }
  detail::visit_norm(encoder.final_norm, "encoder.final_norm", d, visit);
  detail::visit_linear(parameters.heads.upos, "heads.upos", d, config.num_upos, visit);
  detail::visit_linear(parameters.heads.xpos, "heads.xpos", d, config.num_xpos, visit);
  if (config.num_feats > 0) {
    detail::visit_linear(parameters.heads.feats, "heads.feats", d, config.num_feats, visit);
  }
  if (config.num_lemma_rules > 0) {
    detail::visit_linear(parameters.heads.lemma, "heads.lemma", d, config.num_lemma_rules, visit);
  }
}

// Parameters with every tensor allocated to its shape and zero-filled.
Parameters zero_parameters(const ModelConfig& config);

// Total number of weights.
std::int64_t parameter_count(const ModelConfig& config);

}  // namespace sawtag
