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
  // When set, receives every layer's and head's attention: [layers][heads][count][count]
  // (every row's logits must then be wanted).
  std::vector<float>* attention = nullptr;
  // The logits of rows [unwanted_before, count - unwanted_after) alone are wanted (of a long
  // sentence's window, the words it owns: infer/windows.hpp). Every row runs through all
  // layers but the last, whose keys and values are still every row's; its queries (all of
  // them in a window of 64 words or more: head_attention.hpp, computes_rows_alone), attention
  // output, feed-forward, final norm and heads run for the wanted rows alone, to the floats
  // the whole window gives them.
  int unwanted_before = 0;
  int unwanted_after = 0;

  int wanted() const { return count - unwanted_before - unwanted_after; }
};

// Which copies of a sentence InferenceNetwork::forward_masked runs: copy j has word j replaced
// by kMaskedWord (sawtag/features.hpp), for j in [first, last).
struct MaskedCopies {
  int first = 0;
  int last = 0;
  bool with_sentence = true;  // also the sentence as it is, before the copies
  int batch_words = 256;      // rows run through the layers at a time (as TagOptions's)
  // When >= 0 (and with_sentence is false): the logits of this word of each copy only, the
  // copy's other rows unwanted (Window::unwanted_before and unwanted_after).
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

  // Runs the windows as one batch. logits receives sum(wanted()) rows of num_logits() floats,
  // the windows' wanted words in order; without `morphology` the FEATS and lemma columns are 0
  // (their classifiers are skipped). Thread-safe.
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
  // x += attention(LN_1(x)); x += FFN(LN_2(x)) for the first `rows` rows of work.x; returns
  // the rows that go on (attend_windows).
  int run_layer(const Layer& layer, int layer_index, const std::vector<Window>& windows, int rows,
                Workspace& work) const;
  // Final norm and heads of work.x's rows -> logits, rows of num_logits() floats (the
  // morphology columns 0 without `morphology`).
  void write_logits(int rows, Workspace& work, float* logits, bool morphology = true) const;
  // work.heads = every window's attention, once work.projected holds the rows' queries, keys
  // and values. Returns the rows that go on: all of them, but in the last layer the windows'
  // wanted rows alone, moved up in work.x and work.heads to follow each other.
  int attend_windows(const Layer& layer, int layer_index, const std::vector<Window>& windows,
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
