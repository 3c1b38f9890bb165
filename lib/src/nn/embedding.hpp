// The encoder's input: each word's features -> one d_model vector, position included.
//
//   a_i = [word_embedding[word_id] ; chars(char_ids) ; shape_embedding[shape]] W_in + b_in
//   x_i = a_i + e_i      (sinusoidal position vector e_i, not learned)
//
// chars() is a character CNN: for each width w, a convolution (one Linear over the w
// consecutive character embeddings laid side by side) at every position of the word, the
// maximum over positions, then ReLU; the widths' results are concatenated.
#pragma once

#include <vector>

#include "nn/matrix.hpp"
#include "sawtag/config.hpp"
#include "sawtag/features.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::nn {

// One width's convolution over one word.
struct CharConvolutionCache {
  Matrix windows;                  // [positions, width * char_dim]: row p = chars p..p+w-1
  std::vector<int> best_position;  // [char_filters]: the position where each filter peaked
  RowVector pooled;                // [char_filters]: that maximum, before ReLU
};

struct WordCharactersCache {
  std::vector<int> char_ids;  // padded with kPaddingChar to the widest convolution
  std::vector<CharConvolutionCache> convolutions;  // one per config.char_widths
};

struct EmbeddingCache {
  std::vector<int> word_ids;                   // [n]
  std::vector<int> shapes;                     // [n]
  std::vector<WordCharactersCache> characters;  // [n]
  Matrix features;  // [n, input_dim]: the concatenation fed to input_projection
};

// e[pos][2k] = sin(pos / 10000^(2k / d)), e[pos][2k + 1] = cos(pos / 10000^(2k / d)),
// pos from 0. -> [num_words, d_model]. Any length: sentences longer than training ones still work.
Matrix sinusoidal_positions(int num_words, int d_model);

// char_ids: [m] -> [char_feature_dim] (widths in config order, char_filters values each).
// Sequences shorter than the widest convolution are padded with kPaddingChar.
RowVector char_encoder_forward(const EncoderParameters& parameters, const ModelConfig& config,
                               const std::vector<int>& char_ids, WordCharactersCache* cache);

// d_output: [char_feature_dim]; adds into char_embedding rows and the convolutions.
void char_encoder_backward(const EncoderParameters& parameters, const ModelConfig& config,
                           const WordCharactersCache& cache, const RowVector& d_output,
                           EncoderParameters& gradients);

// n words -> x: [n, d_model]. Throws Error when an id is outside its table.
Matrix embedding_forward(const EncoderParameters& parameters, const ModelConfig& config,
                         const std::vector<WordFeatures>& words, EmbeddingCache* cache);

// d_x: [n, d_model]; adds into word/char/shape embedding rows, the convolutions and
// input_projection. (Positions are fixed, so they get no gradient.)
void embedding_backward(const EncoderParameters& parameters, const ModelConfig& config,
                        const EmbeddingCache& cache, const Matrix& d_x,
                        EncoderParameters& gradients);

}  // namespace sawtag::nn
