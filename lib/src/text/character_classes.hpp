// Unicode character classes the tokenizer needs, from utf8proc's categories.
#pragma once

#include <string>

namespace sawtag::text {

bool is_space(char32_t value);                  // Zs, Zl, Zp and the ASCII controls \t \n \v \f \r
bool is_control(char32_t value);                // Cc but the five whitespace controls: NUL, ESC...
bool is_letter(char32_t value);                 // L*
bool is_mark(char32_t value);                   // M*: combining accents stay inside their word
bool is_digit(char32_t value);                  // Nd
bool is_alphanumeric(char32_t value);           // letter, mark, any number (N*), '_' or U+FFFD
bool is_upper(char32_t value);                  // Lu, Lt
bool is_punctuation_or_symbol(char32_t value);  // P* and S*

// Invisible characters that are never part of a word: controls, a byte-order mark (U+FEFF),
// direction marks and embeddings, zero-width space and word joiner. The tokenizer separates
// words at them as at whitespace. Not the zero-width (non-)joiners, which stay inside words and
// emoji ("👩‍💻").
bool is_invisible(char32_t value);

char32_t to_lower(char32_t value);
// "DON'T" -> "don't"; invalid UTF-8 becomes U+FFFD.
std::string to_lower(const std::string& text);

}  // namespace sawtag::text
