// What the network sees of a word: its lower-cased vocabulary id, its characters, its shape.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sawtag/model.hpp"

namespace sawtag {

// Word-shape classes; kNumWordShapes of them.
enum class WordShape : int {
  lower = 0,         // "saw"
  capitalized,       // "Saw"
  upper,             // "SAW", "I"
  mixed_case,        // "iPhone"
  digits,            // "1984"
  number,            // "3.5", "1,000"
  alphanumeric,      // "B2B", "4th"
  punctuation,       // ".", "--", "?!"
  symbol,            // "$", "%", "+"
  url_or_email,      // "http://x.org", "a@b.com"
  other              // anything else (emoji, mixed scripts)
};

WordShape word_shape(std::string_view word);

// Unicode-aware lower-casing (utf8proc); invalid UTF-8 bytes become U+FFFD.
std::string to_lower(std::string_view word);

// The characters the network sees of `word`: its code points, each as UTF-8; a byte that does
// not start valid UTF-8 becomes U+FFFD. "né" -> "n" "é". The trainer builds the character
// vocabulary with this, so it splits words exactly as word_features() does.
std::vector<std::string> word_characters(std::string_view word);

struct WordFeatures {
  int word_id = kUnknownWord;  // lower-cased word in model.words, or kUnknownWord
  std::vector<int> char_ids;   // <w> chars... </w>, truncated as ModelConfig::max_word_chars says
  int shape = 0;               // WordShape as int
};

// The masked word, which `sawtag explain` puts in place of a word to measure what the word
// contributes (explanation.hpp; docs/explain-format.md): the empty form. Its features are
// kUnknownWord (always, even if a vocabulary held ""), no characters (<w> </w>, padded) and the
// shape WordShape::other, the catch-all class; the tokenizers and CoNLL-U never produce an empty
// word, so it stands for no real word. Tagger::tag accepts it like any word.
inline constexpr std::string_view kMaskedWord = "";

WordFeatures word_features(const Model& model, std::string_view word);

// The ids, among `word.char_ids`, of the word's first and last characters (what
// ModelConfig::edge_char_dim embeds): "saw" -> 's', 'w'; "a" -> 'a', 'a'. A word cut to
// max_word_chars keeps both. The empty word (<w> </w>) gives </w> and <w>.
struct EdgeChars {
  int first = kWordEndChar;
  int last = kWordStartChar;
};
EdgeChars edge_chars(const WordFeatures& word);

}  // namespace sawtag
