// The pre-training objective of `sawtag pretrain`: masked words predict their pre-trained vector.
//
// About 15 % of the words of each sentence that have a pre-trained vector are hidden from the
// encoder: their features become those of masked_word() (the unknown word, no characters, the
// "other" shape), so neither the word nor its spelling shows. The encoder's output at a hidden
// word must predict that word's vector through a linear head:
//   y = h W + b            h: [d_model], W: [d_model, word_dim]
//   loss = 1 - cos(y, v)   v: the word's pre-trained (fastText) vector
// or, with the masked-word objective (PretrainObjective::word), must pick the word itself among a
// step's candidates, scored through the same head against their vectors:
//   logit_c = (h W + b) . v_c      c: the step's hidden words and `--negatives` random words
//   loss = -log softmax(logits)_word
// Regressing a fixed vector keeps the output as cheap as one small product per hidden word,
// whatever the vocabulary's size (a softmax over 100,000 words would cost far more than the
// encoder); the vectors already put words of similar use close together, so the encoder is taught
// which words fit a context.
#pragma once

#include <random>
#include <vector>

#include "nn/matrix.hpp"
#include "sawtag/features.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::train {

// What the encoder sees at a hidden word.
WordFeatures masked_word();

// Hides each word whose word_id is not kUnknownWord with probability `rate` (at least one such
// word per sentence when there is any), replacing its features by masked_word(). Returns the
// hidden words' positions and, in `hidden_ids`, their word ids, in order.
std::vector<int> mask_words(std::vector<WordFeatures>& words, float rate, std::mt19937_64& random,
                            std::vector<int>& hidden_ids);

// encoded: [rows, d_model]; rows[k] is the row of hidden word k, targets: [hidden, word_dim] its
// vector. Returns the summed loss of the hidden words. When `d_encoded` is given ([rows, d_model],
// zeroed by the caller), adds (scale * d loss / d encoded) into it and scale * the head's gradient
// into `d_head`.
double masked_vector_loss(const LinearParameters& head, const nn::Matrix& encoded,
                          const std::vector<int>& rows, const nn::Matrix& targets, float scale,
                          nn::Matrix* d_encoded, LinearParameters* d_head);

// The masked-word loss: as masked_vector_loss, but hidden word k must pick column columns[k] of
// `candidates` ([candidate words, word_dim], their vectors) by a softmax over
// (encoded W + b) candidates^T. Returns the summed loss of the hidden words.
double masked_word_loss(const LinearParameters& head, const nn::Matrix& encoded,
                        const std::vector<int>& rows, const std::vector<int>& columns,
                        const nn::Matrix& candidates, float scale, nn::Matrix* d_encoded,
                        LinearParameters* d_head);

}  // namespace sawtag::train
