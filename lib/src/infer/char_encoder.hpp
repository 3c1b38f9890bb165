// The character CNN of nn/embedding.hpp for inference, as table lookups.
//
// A width-w convolution at position p is b + sum_k E[c_{p+k}] W[k] (W[k]: the rows of the
// convolution's weight for offset k). E[c] W[k] depends only on the character and the offset,
// so it is computed once per character, for all its offsets, and a word's convolution becomes a
// few vector additions per position. A large vocabulary's products are computed per character,
// the first time a word holds it, so that memory and work follow the characters a text has: a
// tagger of models/zh_gsd.json knows 3,574 characters, whose whole table took 16.5-18.3 MB, and
// the 30,000 characters of bench/'s Chinese line are 2,282 of them.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "sawtag/model.hpp"

namespace sawtag::infer {

// A vocabulary whose products take at most this many bytes is computed whole at load, by one
// matrix product per offset: an alphabet (models/en_ewt.json's 112 characters take 0.26 MB),
// whose characters a text soon meets anyway. Its floats are then those of sawtag before the
// products were computed per character, to the bit (see product_row in char_encoder.cpp).
inline constexpr std::size_t kWholeTableBytes = std::size_t{1} << 20;

class CharEncoder {
 public:
  // `model` must outlive the encoder. With products over whole_table_bytes, each character's
  // are computed on its first use.
  explicit CharEncoder(const Model& model, std::size_t whole_table_bytes = kWholeTableBytes);
  ~CharEncoder();
  CharEncoder(const CharEncoder&) = delete;
  CharEncoder& operator=(const CharEncoder&) = delete;

  // char_ids (as word_features gives them) -> out[0, char_feature_dim): per width, the ReLU of
  // each filter's maximum over positions. Thread-safe.
  void encode(const std::vector<int>& char_ids, float* out) const;

  // char_id's products E[c] W[k], for the offsets k of each width in turn: [sum of widths]
  // [filters], row-major. The same floats whichever thread computes them and whenever, and
  // whatever characters came before. Thread-safe; valid while the encoder lives.
  const float* products(int char_id) const;

  // How many characters' products have been computed so far.
  int characters_computed() const;

 private:
  void compute_all_products();
  const float* compute_products(int char_id) const;

  const float* embedding_ = nullptr;  // [char vocabulary][char_dim]
  int char_dim_ = 0;
  int filters_ = 0;
  int vocabulary_ = 0;
  int widest_ = 1;  // a shorter word is padded with <pad> to the widest width
  std::vector<int> widths_;
  std::vector<int> first_offset_;      // per width: its first row in a character's products
  std::vector<const float*> biases_;   // per width: [filters]
  std::vector<const float*> weights_;  // per row of the products: W[k], [char_dim][filters]
  // Per character: its products (owned, freed by the destructor), or null until its first use.
  // A thread that finds null computes them and publishes them with a compare-and-swap (release;
  // readers load with acquire), so no lock is taken; two threads that meet a new character at
  // once both compute it, to the same floats, and the one that loses the swap frees its copy.
  std::unique_ptr<std::atomic<float*>[]> products_;
};

}  // namespace sawtag::infer
