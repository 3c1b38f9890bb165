// The encoder's input: each word's features -> one d_model vector, position included.
//
//   a_i = [word_embedding[word_id] ; chars(char_ids) ; shape_embedding[shape]
//          (; first_char_embedding[first] ; last_char_embedding[last])] W_in + b_in
//   x_i = a_i + e_i      (sinusoidal position vector e_i, not learned; i counts from each
//                         sentence's first word)
//
// chars() is a character CNN (nn/char_cnn.hpp): for each width w, a convolution over the w
// consecutive character embeddings at every position of the word, the maximum over positions,
// then ReLU; the widths' results are concatenated. The first- and last-character embeddings
// (edge_chars() of features.hpp) are there only when config.edge_char_dim > 0.
#pragma once

#include <vector>

#include "nn/char_cnn.hpp"
#include "nn/matrix.hpp"
#include "nn/segments.hpp"
#include "sawtag/config.hpp"
#include "sawtag/features.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::nn {

struct EmbeddingCache {
  std::vector<int> word_ids;     // [rows]
  std::vector<int> shapes;       // [rows]
  std::vector<EdgeChars> edges;  // [rows]; empty when config.edge_char_dim is 0
  CharCnnCache characters;
  Matrix features;  // [rows, input_dim]: the concatenation fed to input_projection
};

// e[pos][2k] = sin(pos / 10000^(2k / d)), e[pos][2k + 1] = cos(pos / 10000^(2k / d)),
// pos from 0. -> [num_words, d_model]. Any length: sentences longer than training ones still work.
Matrix sinusoidal_positions(int num_words, int d_model);

// The words of every sentence of `segments`, in order -> x: [rows, d_model]. Throws Error when
// an id is outside its table.
Matrix embedding_forward(const EncoderParameters& parameters, const ModelConfig& config,
                         const std::vector<WordFeatures>& words, const Segments& segments,
                         EmbeddingCache* cache);

// One sentence of n words -> [n, d_model].
Matrix embedding_forward(const EncoderParameters& parameters, const ModelConfig& config,
                         const std::vector<WordFeatures>& words, EmbeddingCache* cache);

// d_x: [rows, d_model]; adds into word/char/shape embedding rows, the convolutions and
// input_projection. (Positions are fixed, so they get no gradient.)
void embedding_backward(const EncoderParameters& parameters, const ModelConfig& config,
                        const EmbeddingCache& cache, const Matrix& d_x,
                        EncoderParameters& gradients);

}  // namespace sawtag::nn
