// Training the character model of a learned tokenizer, with the tagger's trainer.
#include <algorithm>

#include "sawtag/error.hpp"
#include "sawtag/tokenizer.hpp"
#include "text/learned_tokenizer.hpp"

namespace sawtag {

TrainOptions character_model_options() {
  TrainOptions options;
  ModelConfig& config = options.config;
  // A position's "word" is a character pair; the convolution sees each character (width 1) and
  // the pair (width 2), also when the pair is too rare for a word embedding. UD Chinese GSD
  // dev, I/E/S per character: see models/MODEL_CARD_zh.md.
  config.word_dim = 64;
  config.char_dim = 32;
  config.char_widths = {1, 2};
  config.char_filters = 32;
  config.shape_dim = 8;
  config.d_model = 128;
  config.num_heads = 4;
  config.num_layers = 3;
  config.d_ff = 256;
  config.max_relative_distance = 8;
  config.max_sequence_length = 128;
  // About 1,100 sequences of 128 characters in a 100k-word treebank: small batches, so that an
  // epoch is ~280 steps, and a warm-up shorter than one epoch.
  options.batch_size = 4;
  options.warmup_steps = 200;
  options.epochs = 16;
  options.dropout = 0.2f;  // dev stopped improving after 5 epochs with 0.1 while train loss fell
  options.patience = 4;
  return options;
}

Model train_character_model(const std::vector<Sentence>& train, const std::vector<Sentence>& dev,
                            const TrainOptions& options, const TrainObserver& observer) {
  const std::size_t length =
      static_cast<std::size_t>(std::max(1, options.config.max_sequence_length));
  const std::vector<Sentence> train_sequences = text::character_sequences(train, length);
  const std::vector<Sentence> dev_sequences = text::character_sequences(dev, length);
  if (train_sequences.empty()) {
    throw InputError("cannot learn a tokenizer: the training treebank has no characters");
  }
  TrainOptions character_options = options;
  character_options.self_tests.clear();  // they are the tagger's
  character_options.pretrained_embeddings.clear();
  Model model = train_model(train_sequences, dev_sequences, character_options, observer);
  model.tokenizer = TokenizerData{};  // tables learned from single characters mean nothing
  return model;
}

}  // namespace sawtag
