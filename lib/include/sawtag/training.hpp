// Training a model from a treebank, in C++.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sawtag/config.hpp"
#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"

namespace sawtag {

struct TrainOptions {
  ModelConfig config;  // network sizes; the vocabulary sizes are set from the treebank

  // Vocabularies.
  int min_word_count = 2;  // lower-cased words seen fewer times are <unk>
  int min_char_count = 1;  // characters seen fewer times are <unk>

  // Optimisation: AdamW, linear warm-up then cosine decay to zero over all epochs.
  int epochs = 12;  // EWT dev: 12 better than 9 by 0.2 / 0.2 (models/MODEL_CARD.md)
  int batch_size = 32;  // sentences
  float learning_rate = 2e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.98f;
  float adam_epsilon = 1e-8f;
  float weight_decay = 0.01f;  // decoupled; not applied to biases, norms and embeddings
  int warmup_steps = 400;
  float clip_norm = 1.0f;  // global gradient norm; 0 = off

  // Regularisation.
  float dropout = 0.1f;             // on the embeddings and every residual branch
  float word_dropout = 0.25f;       // a word of count c becomes <unk> with p = a / (a + c)
  float label_smoothing = 0.1f;
  int patience = 3;                 // stop after this many epochs without a better dev score
                                    // (epochs refused by a self-test do not count)
  // When above 0, dev is scored, and the model kept, with an exponential moving average of the
  // weights: after step t, average = d * average + (1 - d) * weights, d = min(this, (1+t)/(10+t)).
  float average_decay = 0.998f;

  std::uint64_t seed = 1;  // the same seed gives a byte-identical model
  int threads = 2;         // sentences of a batch are shared between threads

  std::string checkpoint_path;  // written after every epoch when not empty
  std::string resume_path;      // continue a stopped run from this checkpoint

  // Pre-trained word vectors (word2vec/fastText text format); empty = none.
  std::string pretrained_embeddings;
  int pretrained_max_words = 100000;
  // Leave every row initialised from a vector as it is (otherwise the treebank's words are
  // fine-tuned and only the vectors' other words stay fixed).
  bool freeze_vectors = false;
  // Decay of the fine-tuned rows towards their pre-trained vectors, in the units of weight
  // decay: row -= learning_rate * vector_anchor * (row - vector) after every step. 0 = none.
  float vector_anchor = 0.3f;

  // A pre-trained encoder (`sawtag pretrain`, or any model file): its architecture replaces
  // `config`'s sizes, and its encoder tensors and the rows of the words and characters both
  // vocabularies share start the fine-tuning. Empty = none.
  std::string encoder_path;
  // The encoder's tensors (embeddings and layers) train with learning_rate times this; the
  // tagging heads with learning_rate. Below 1, a pre-trained encoder is fine-tuned more gently
  // than the heads that start from scratch.
  float encoder_lr_scale = 1.0f;

  // Silver training data (`sawtag silver`: a CoNLL-U file tagged by an ensemble; "_" tags are
  // left out of the loss). Each epoch adds silver sentences of about silver_ratio times the
  // treebank's words, taken in file order from where the epoch before stopped (from the start
  // again at the end). The vocabularies and tag sets stay the treebank's. Empty = none.
  std::string silver_path;
  float silver_ratio = 1.0f;
  // The silver file may instead be a teacher's soft targets (`sawtag silver --soft K`,
  // sawtag/soft_targets.hpp): its words are then learnt by distillation, T^2 KL(teacher ||
  // student) with both distributions softened to this temperature (the teacher's q^(1/T),
  // renormalised). Every head the student and the file share is learnt so.
  float distillation_temperature = 1.0f;

  // The morphology heads are learned whenever the treebank has the column (a FEATS or LEMMA
  // other than "_"). Lemma rules seen fewer times in train are not classes (a word whose rule
  // is not a class is left out of the lemma loss).
  int min_lemma_rule_count = 2;
  // Likewise for whole FEATS strings (a word whose string is not a class is left out of the
  // FEATS loss). Fewer classes tag faster.
  int min_feats_count = 1;
  // The lemma-rule head's loss counts this many times in the sum of the heads' losses, so the
  // shared encoder gives the lemmas more (above 1) or less of its capacity.
  float lemma_weight = 1.0f;
  // A model to add the morphology heads to: its network, vocabularies and UPOS/XPOS heads are
  // kept exactly as they are (frozen), and only the heads it lacks (FEATS, lemma) are learned,
  // from its encoder's vectors. The sizes, vectors, encoder and silver options do not apply.
  // Empty = train a whole model.
  std::string base_model_path;
  // With base_model_path: train the whole base model with the new heads instead (its encoder
  // at learning_rate x encoder_lr_scale, every head at learning_rate), starting from its
  // weights and keeping its vocabularies (rows of frozen pre-trained vectors stay frozen).
  bool fine_tune_base = false;

  // Recorded in the model file.
  std::string corpus;
  std::string command;
  std::vector<SelfTest> self_tests;  // stored in the model; only epochs passing them are kept
};

// What the trainer reports while it works. Any callback may be empty.
struct TrainProgress {
  int epoch = 0;               // 1-based
  int epochs = 0;
  std::size_t sentences_done = 0;  // in this epoch
  std::size_t sentences_total = 0;
  double loss = 0.0;                // mean loss per word so far in this epoch
  double sentences_per_second = 0.0;
};

struct EpochSummary {
  int epoch = 0;
  double loss = 0.0;
  double seconds = 0.0;
  double words_per_second = 0.0;
  double dev_upos = 0.0;  // accuracy in percent
  double dev_xpos = 0.0;
  // Dev accuracy of the morphology heads (whole FEATS string; lemma), when the model has them.
  bool has_feats = false;
  bool has_lemmas = false;
  double dev_feats = 0.0;
  double dev_lemmas = 0.0;
  std::string failed_self_test;  // words of the first self-test this epoch's model got wrong
  bool improved = false;  // the best model so far (a model failing a self-test never is)
};

struct TrainObserver {
  std::function<void(const TrainProgress&)> on_progress;
  std::function<void(const EpochSummary&)> on_epoch;
  std::function<void(const std::string&)> on_message;
};

// Builds vocabularies, tag sets and tokenizer tables from `train`, trains, scores `dev` after
// every epoch and returns the best model. Throws InputError for an unusable treebank.
Model train_model(const std::vector<Sentence>& train, const std::vector<Sentence>& dev,
                  const TrainOptions& options, const TrainObserver& observer = {});

// The command line as a training record keeps it: an argument that is a path (the file or its
// directory exists) keeps its file name only ("/work/vectors/wiki.vec" -> "wiki.vec"), so the
// record names no directory of the machine that made it; an argument with a space or another
// character a shell would read is single-quoted (--self-test 'I/PRON saw/VERB').
std::string recorded_command_line(const std::vector<std::string>& arguments_of_run);

// The lemma tables train_model derives from the treebank's (form, UPOS, XPOS, lemma) without
// training: Model::lemma_lexicon and Model::lemma_deletions, replaced in `model` (which must
// have a lemma head: InputError otherwise, or when `treebank` has no lemmas). For a model
// trained before sawtag learned one of them (`sawtag lemma-tables --treebank`).
void derive_lemma_tables(const std::vector<Sentence>& treebank, Model& model);

// Model with vocabularies and tag sets built from `train` and freshly initialised weights.
Model initial_model(const std::vector<Sentence>& train, const TrainOptions& options);

}  // namespace sawtag
