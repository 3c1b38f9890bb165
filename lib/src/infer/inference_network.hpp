// The network's forward pass for tagging: many sentences at once, as matrix-matrix products.
//
// Training (nn/network.hpp) runs one sentence at a time and keeps what backward needs; this
// runs the same function (the tests hold the two to 1e-4) for a batch of windows stacked
// into one matrix of rows, so each projection is a single product over every word of the
// batch, with weights packed once at load (PackedLinear). Attention runs window by window.
// Every row's result depends only on its own window, so batching never changes a result.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "infer/char_encoder.hpp"
#include "infer/input_cache.hpp"
#include "infer/packed_linear.hpp"
#include "sawtag/model.hpp"

namespace sawtag::infer {

// `count` consecutive words of a sentence, starting at words[first]; at most max_window().
struct Window {
  const std::vector<std::string>* words = nullptr;
  int first = 0;
  int count = 0;
  // When set, receives every layer's and head's attention: [layers][heads][count][count].
  std::vector<float>* attention = nullptr;
};

// Which copies of a sentence InferenceNetwork::forward_masked runs: copy j has word j replaced
// by kMaskedWord (sawtag/features.hpp), for j in [first, last).
struct MaskedCopies {
  int first = 0;
  int last = 0;
  bool with_sentence = true;  // also the sentence as it is, before the copies
  int batch_words = 256;      // rows run through the layers at a time (as TagOptions's)
  // When >= 0 (and with_sentence is false): the logits of this word of each copy only. Every
  // row still runs through all layers but the last, whose attention output, feed-forward,
  // final norm and heads run for this word's row alone (the others' would be thrown away).
  int only_word = -1;
};

class InferenceNetwork {
 public:
  // `model` and `kernels` must outlive the network. Throws ModelError for shapes the network
  // cannot run.
  InferenceNetwork(const Model& model, Precision precision,
                   const Kernels& kernels = infer::kernels());
  ~InferenceNetwork();

  // Longest window: the model's max_sequence_length, capped at 1024 words.
  int max_window() const;
  // Logit columns per word: UPOS tags, then XPOS tags, then the FEATS classes and the lemma
  // rules where the model has those heads.
  int num_logits() const {
    const ModelConfig& config = model_.config;
    return config.num_upos + config.num_xpos + config.num_feats + config.num_lemma_rules;
  }

  // Runs the windows as one batch. logits receives sum(count) rows of num_logits() floats,
  // the windows' words in order; without `morphology` the FEATS and lemma columns are 0 (their
  // classifiers are skipped). Thread-safe.
  void forward(const std::vector<Window>& windows, std::vector<float>& logits,
               bool morphology = true) const;

  // What forward() gives for the windows [words (when copies.with_sentence), copy first, ...,
  // copy last - 1], each the whole of `words` (at most max_window() words): the same logits,
  // bit for bit, with the first layer's norm and Q/K/V product shared by the copies; with
  // copies.only_word, one row of logits per copy (that word's). Thread-safe.
  void forward_masked(const std::vector<std::string>& words, const MaskedCopies& copies,
                      std::vector<float>& logits) const;

 private:
  struct Layer;
  struct Workspace;

  // [word embedding ; character CNN ; shape embedding (; first- and last-character embeddings)]
  // of `form`: input_dim floats.
  void input_features(std::string_view form, float* out) const;
  // Row r of work.x = the input row of word r (cached, or computed for all misses at once).
  void input_rows(const std::vector<Window>& windows, Workspace& work) const;
  // work.projected = LN_1(x) [W_q W_k W_v] for the first `rows` rows of work.x.
  void project(const Layer& layer, int rows, Workspace& work) const;
  void run_layer(const Layer& layer, int layer_index, const std::vector<Window>& windows, int rows,
                 Workspace& work) const;
  // Final norm and heads of work.x's rows -> logits, rows of num_logits() floats (the
  // morphology columns 0 without `morphology`).
  void write_logits(int rows, Workspace& work, float* logits, bool morphology = true) const;
  // work.heads = every window's attention, once work.projected holds the rows' queries, keys
  // and values.
  void attend_windows(const Layer& layer, int layer_index, const std::vector<Window>& windows,
                      Workspace& work) const;
  // Once work.heads holds the heads' outputs of `rows` rows: x += attention output;
  // x += FFN(LN_2(x)).
  void after_attention(const Layer& layer, int rows, Workspace& work) const;
  void attend(const Layer& layer, int layer_index, const Window& window, int first_row,
              Workspace& work) const;

  const Model& model_;
  const Kernels& kernels_;
  int width_ = 0;  // row stride of the d_model-wide buffers: d_model rounded up to 16 floats
  std::vector<Layer> layers_;
  CharEncoder char_encoder_;
  PackedLinear input_projection_;
  PackedLinear heads_;             // UPOS and XPOS side by side, float32
  PackedLinear morphology_heads_;  // FEATS and lemma rules, where the model has them
  std::vector<float> positions_;  // [max_window, d_model] sinusoidal position vectors
  std::unique_ptr<InputCache> input_cache_;
};

}  // namespace sawtag::infer
