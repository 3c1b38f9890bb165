// Raw text -> sentences of words.
#pragma once

#include <string_view>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"

namespace sawtag {

class Tokenizer {
 public:
  explicit Tokenizer(TokenizerData data = {});

  // Splits `text` (one line or paragraph) into sentences. Words carry SpaceAfter=No in misc
  // when no space follows them; contractions become multi-word tokens
  // ("don't" -> token "don't" over words "do" "n't").
  std::vector<Sentence> tokenize(std::string_view text) const;

 private:
  TokenizerData data_;
};

}  // namespace sawtag
