#include "sawtag/model.hpp"

#include <utility>

namespace sawtag {

void sync_vocabulary_sizes(Model& model) {
  model.config.word_vocab_size = model.words.size();
  model.config.char_vocab_size = model.chars.size();
  model.config.num_upos = model.upos.size();
  model.config.num_xpos = model.xpos.size();
  model.config.num_feats = model.feats.size();
  model.config.num_lemma_rules = model.lemma_rules.size();
}

bool same_tag_sets(const Model& a, const Model& b) {
  return a.upos.items() == b.upos.items() && a.xpos.items() == b.xpos.items() &&
         a.feats.items() == b.feats.items() && a.lemma_rules.items() == b.lemma_rules.items();
}

void widen_word_embedding(Model& model) {
  if (!model.word_embedding_int8) return;
  const QuantizedRows& table = *model.word_embedding_int8;
  Tensor widened({table.rows, table.cols});
  widen_rows(table, widened.data.data());
  model.parameters.encoder.word_embedding = std::move(widened);
  model.word_embedding_int8.reset();
}

}  // namespace sawtag
