// Raw text -> sentences of words, the way UD English EWT tokenizes.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"

namespace sawtag {

struct TokenizerOptions {
  // Every line break ends a sentence (input already split one sentence per line). Otherwise
  // only a blank line does, and single line breaks are spaces.
  bool sentence_per_line = false;
};

// What a caller may want to warn about after tokenizing.
struct TokenizerReport {
  std::size_t invalid_utf8_sequences = 0;  // each replaced by U+FFFD in the words
};

class Tokenizer {
 public:
  explicit Tokenizer(TokenizerData data = {}, TokenizerOptions options = {});

  // Splits `text` into sentences. Words carry SpaceAfter=No in misc when no space follows
  // them; contractions become multi-word tokens ("don't" -> token "don't" over words "do"
  // "n't"); word_spans are byte offsets into `text`. Each sentence gets a "# text" comment,
  // and "# newpar" when it follows a blank line. Invalid UTF-8 becomes U+FFFD.
  std::vector<Sentence> tokenize(std::string_view text) const;

  // The same, adding what was found to `report`.
  std::vector<Sentence> tokenize(std::string_view text, TokenizerReport& report) const;

  const TokenizerData& data() const { return data_; }
  const TokenizerOptions& options() const { return options_; }

 private:
  TokenizerData data_;
  TokenizerOptions options_;
};

// Learns the tables of TokenizerData from a treebank's sentences:
// - multi-word tokens: lower-cased surface form -> lower-cased words, kept when the form is a
//   multi-word token at least half of the times it occurs and with its most frequent split
//   ("don't" -> "do" "n't"; "its" is dropped: mostly a single word);
// - abbreviations: single-word tokens of two or more characters with a letter that end in "."
//   and are kept whole more often than their period is split off ("Mr.", "e.g.", "U.S.").
TokenizerData learn_tokenizer_data(const std::vector<Sentence>& sentences);

}  // namespace sawtag
