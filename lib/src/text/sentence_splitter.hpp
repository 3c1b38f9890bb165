// Where sentences and paragraphs begin in a stream of scanned tokens.
#pragma once

#include <cstddef>
#include <vector>

#include "text/token_scanner.hpp"
#include "text/utf8.hpp"

namespace sawtag::text {

// A scanned token with the whitespace before it.
struct PlacedToken {
  ScannedToken token;
  std::size_t newlines_before = 0;  // line breaks in the whitespace before it
  bool space_before = false;        // any whitespace before it
  bool starts_sentence = false;     // set by split_sentences
  bool starts_paragraph = false;    // set by split_sentences: the first token or after a blank line
};

struct SentenceSplitterOptions {
  bool sentence_per_line = false;  // every line break ends a sentence
};

// Marks the tokens that start a sentence. A sentence ends at a blank line, after ".", "!", "?",
// "…" and runs of them (closing quotes and brackets attached to them stay in the sentence), and
// after an abbreviation other than a title or initial that ends a paragraph or is followed by a
// capitalised word; then the abbreviation's period becomes a token of its own ("etc." -> "etc"
// "."), so `tokens` may grow. "I came. I saw." -> "I came." | "I saw."; "Mr. Smith" stays.
void split_sentences(const std::vector<CodePoint>& text, std::vector<PlacedToken>& tokens,
                     const SentenceSplitterOptions& options);

}  // namespace sawtag::text
