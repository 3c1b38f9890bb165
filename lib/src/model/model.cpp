#include "sawtag/model.hpp"

namespace sawtag {

void sync_vocabulary_sizes(Model& model) {
  model.config.word_vocab_size = model.words.size();
  model.config.char_vocab_size = model.chars.size();
  model.config.num_upos = model.upos.size();
  model.config.num_xpos = model.xpos.size();
}

}  // namespace sawtag
