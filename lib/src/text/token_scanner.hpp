// One whitespace-free chunk of text -> tokens, before multi-word tokens are split.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_set>
#include <vector>

#include "text/utf8.hpp"

namespace sawtag::text {

enum class TokenKind {
  word,             // letters and digits, with the joiners EWT keeps inside ("don't", "e-mail")
  number,           // "1,000.50", "5:00", "12/31/2001", "555-1234", "21st"
  abbreviation,     // a word with its period kept: "Mr.", "U.S.", "etc."
  protected_token,  // URL, e-mail address, @handle, #hashtag, emoticon: never split
  punctuation       // "," "..." "!!!" "--" "(" ...
};

// Code points [first, last) of the decoded text.
struct ScannedToken {
  std::size_t first = 0;
  std::size_t last = 0;
  TokenKind kind = TokenKind::word;
};

// Abbreviations that keep their period ("Mr.", "etc."), matched with the period.
struct AbbreviationTable {
  std::unordered_set<std::string> exact;      // "Mr.", "U.S."
  std::unordered_set<std::string> lowercase;  // lower-cased built-ins: "etc.", "e.g."
};

// Appends the tokens of code points [first, last), which hold no whitespace, to `tokens`.
// Linear in the length of the chunk. "(don't)" -> "(" "don't" ")"; "e-mail" stays whole;
// "search-engine" -> "search" "-" "engine"; "http://x.org/a." -> "http://x.org/a" ".".
void scan_chunk(const std::vector<CodePoint>& text, std::size_t first, std::size_t last,
                const AbbreviationTable& abbreviations, std::vector<ScannedToken>& tokens);

// The built-in abbreviations (titles, months, Latin, units, states) in both tables.
AbbreviationTable builtin_abbreviations();

}  // namespace sawtag::text
