// Pre-training the encoder (embeddings + self-attention layers) on raw text, before it is
// fine-tuned on a treebank (`sawtag train --encoder FILE`).
//
// Objective (lib/src/train/masked_vectors.hpp): about 15 % of the words of each sentence are
// hidden from the encoder, word and spelling, and its output at each hidden word predicts the
// word's pre-trained vector (cosine loss), or, with PretrainObjective::word, picks the word
// among the step's hidden words and some random words by their vectors (softmax). The word
// embedding is those vectors, frozen, as the frozen rows of a fine-tuned model are; the rest of
// the encoder learns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "sawtag/config.hpp"
#include "sawtag/model.hpp"

namespace sawtag {

enum class PretrainObjective {
  vector,  // a hidden word's output predicts its vector: 1 - cosine
  word,    // ... picks the word among candidates by their vectors: softmax cross-entropy
};

struct PretrainOptions {
  ModelConfig config;  // encoder sizes; word_dim must match the vectors

  std::string text_path;      // raw UTF-8 text, one paragraph (or more) per line
  std::string vectors_path;   // word2vec/fastText text format: inputs and targets
  int max_vector_words = 100000;

  PretrainObjective objective = PretrainObjective::vector;
  // PretrainObjective::word: the words each hidden word is chosen among are the step's hidden
  // words and this many drawn at random (uniformly) from the vectors' words.
  int negatives = 2048;
  float mask_rate = 0.15f;
  int batch_words = 2048;  // words of text per optimiser step (whole lines)
  float learning_rate = 1e-3f;
  int warmup_steps = 500;
  float weight_decay = 0.01f;
  float clip_norm = 1.0f;
  float dropout = 0.1f;

  // Budget: stop after max_words words of text (the learning rate decays to zero over them;
  // the text is read again from its start when it is shorter) or max_seconds of training,
  // whichever comes first (0 = no time limit). Either way the encoder is written.
  std::int64_t max_words = 32'000'000;
  double max_seconds = 0.0;

  std::uint64_t seed = 1;  // the same seed, text and budget give a byte-identical encoder
  int threads = 2;

  std::string checkpoint_path;     // written every checkpoint_seconds and at the end
  double checkpoint_seconds = 600.0;
  std::string resume_path;         // continue exactly where that checkpoint stopped

  std::string command;  // recorded in the encoder file
};

struct PretrainProgress {
  std::int64_t words_done = 0;   // of max_words
  std::int64_t max_words = 0;
  double loss = 0.0;             // mean loss per hidden word of the last step
  double words_per_second = 0.0;
  double seconds = 0.0;          // of training, this run
};

// on_progress is called after every optimiser step.
struct PretrainObserver {
  std::function<void(const PretrainProgress&)> on_progress;
  std::function<void(const std::string&)> on_message;
};

// An encoder file is a model file (docs/model-format.md) whose training record says
// "kind": "encoder"; its tag sets are a placeholder "_" and its tagging heads are untrained.
// Throws InputError for unusable text or vectors.
Model pretrain_encoder(const PretrainOptions& options, const PretrainObserver& observer = {});

// Copies a pre-trained encoder into a freshly initialised model of the same architecture:
// every encoder tensor, and the rows of the word and character embeddings whose word or
// character both vocabularies have. Throws InputError when the sizes differ.
void load_encoder_into(const Model& encoder, Model& model);

}  // namespace sawtag
