// `sawtag train --encoder`: a pre-trained encoder copied into the model to fine-tune.
#include <string>

#include "sawtag/error.hpp"
#include "sawtag/pretraining.hpp"

namespace sawtag {
namespace {

// Copies the rows of `from` (vocabulary `from_items`) into the rows of `to` whose entry
// `to_items` has too; the others keep their initial values.
void copy_rows(const Vocabulary& from_items, const Tensor& from, const Vocabulary& to_items,
               Tensor& to, int dim) {
  const auto width = static_cast<std::size_t>(dim);
  for (int row = 0; row < to_items.size(); ++row) {
    const int source = from_items.find(to_items.at(row));
    if (source < 0) continue;
    std::copy_n(from.data.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(source) * width),
                width,
                to.data.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(row) * width));
  }
}

void require_same(const char* what, int expected, int actual) {
  if (expected != actual) {
    throw InputError(std::string("the encoder's ") + what + " is " + std::to_string(actual) +
                     " but the model's is " + std::to_string(expected));
  }
}

}  // namespace

void load_encoder_into(const Model& encoder, Model& model) {
  const ModelConfig& expected = model.config;
  const ModelConfig& actual = encoder.config;
  require_same("word_dim", expected.word_dim, actual.word_dim);
  require_same("char_dim", expected.char_dim, actual.char_dim);
  require_same("char_filters", expected.char_filters, actual.char_filters);
  require_same("shape_dim", expected.shape_dim, actual.shape_dim);
  require_same("edge_char_dim", expected.edge_char_dim, actual.edge_char_dim);
  require_same("d_model", expected.d_model, actual.d_model);
  require_same("num_heads", expected.num_heads, actual.num_heads);
  require_same("num_layers", expected.num_layers, actual.num_layers);
  require_same("d_ff", expected.d_ff, actual.d_ff);
  require_same("max_relative_distance", expected.max_relative_distance,
               actual.max_relative_distance);
  if (expected.char_widths != actual.char_widths ||
      expected.relative_position != actual.relative_position) {
    throw InputError("the encoder's character widths or relative positions differ from the model's");
  }
  const EncoderParameters& from = encoder.parameters.encoder;
  EncoderParameters& to = model.parameters.encoder;
  copy_rows(encoder.words, from.word_embedding, model.words, to.word_embedding, expected.word_dim);
  copy_rows(encoder.chars, from.char_embedding, model.chars, to.char_embedding, expected.char_dim);
  to.char_convolutions = from.char_convolutions;
  to.shape_embedding = from.shape_embedding;
  if (expected.edge_char_dim > 0) {
    copy_rows(encoder.chars, from.first_char_embedding, model.chars, to.first_char_embedding,
              expected.edge_char_dim);
    copy_rows(encoder.chars, from.last_char_embedding, model.chars, to.last_char_embedding,
              expected.edge_char_dim);
  }
  to.input_projection = from.input_projection;
  to.layers = from.layers;
  to.final_norm = from.final_norm;
}

}  // namespace sawtag
