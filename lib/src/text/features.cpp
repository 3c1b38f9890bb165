// Word features: lower-casing, word shapes, vocabulary and character ids.
#include "sawtag/features.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace sawtag {

namespace {

constexpr utf8proc_int32_t kReplacement = 0xFFFD;

// Code points of `text`; each byte that does not start a valid UTF-8 sequence becomes U+FFFD
// (so "a\xFFb" -> 'a' U+FFFD 'b').
std::vector<utf8proc_int32_t> decode(std::string_view text) {
  std::vector<utf8proc_int32_t> code_points;
  code_points.reserve(text.size());
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  auto remaining = static_cast<utf8proc_ssize_t>(text.size());
  while (remaining > 0) {
    utf8proc_int32_t code_point = 0;
    const utf8proc_ssize_t length = utf8proc_iterate(bytes, remaining, &code_point);
    if (length <= 0) {
      code_points.push_back(kReplacement);
      bytes += 1;
      remaining -= 1;
    } else {
      code_points.push_back(code_point);
      bytes += length;
      remaining -= length;
    }
  }
  return code_points;
}

void append_utf8(std::string& out, utf8proc_int32_t code_point) {
  utf8proc_uint8_t buffer[4];
  const utf8proc_ssize_t length = utf8proc_encode_char(code_point, buffer);
  out.append(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(length));
}

std::string ascii_lower(std::string_view text) {
  std::string lowered(text);
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lowered;
}

// "http://x.org", "https://...", "www.x.org", "a@b.com".
bool looks_like_url_or_email(std::string_view word) {
  const std::string lowered = ascii_lower(word);
  if (lowered.find("://") != std::string::npos) return true;
  if (lowered.rfind("www.", 0) == 0 && lowered.size() > 4) return true;
  const std::size_t at = lowered.find('@');
  if (at == std::string::npos || at == 0 || lowered.find('@', at + 1) != std::string::npos) {
    return false;
  }
  const std::size_t dot = lowered.find('.', at + 2);
  return dot != std::string::npos && dot + 1 < lowered.size();
}

// ASCII characters Unicode files under punctuation (Po) that UD treats as symbols.
bool is_ascii_symbol(utf8proc_int32_t c) {
  return c < 0x80 && std::string_view("#%&*@\\").find(static_cast<char>(c)) != std::string_view::npos;
}

// Inside a word of letters these do not change its shape: "don't", "well-known", "U.S.".
bool is_word_connector(utf8proc_int32_t c) {
  return c == '-' || c == '\'' || c == '.' || c == '&' || c == 0x2019 /* ’ */;
}

// Separators allowed in a number: "3.5", "1,000", "10:30", "1/2", "-4".
bool is_number_separator(utf8proc_int32_t c) {
  return c == '.' || c == ',' || c == ':' || c == '/' || c == '-' || c == '+';
}

// A coarse script id, to tell "mixed scripts" apart: Latin (with its extensions), else the
// 128-code-point block. Good enough to see Latin next to Cyrillic or Greek.
int script_block(utf8proc_int32_t c) {
  if (c < 0x250 || (c >= 0x1E00 && c < 0x1F00)) return 0;
  return 1 + (c >> 7);
}

}  // namespace

std::string to_lower(std::string_view word) {
  std::string lowered;
  lowered.reserve(word.size());
  for (utf8proc_int32_t c : decode(word)) append_utf8(lowered, utf8proc_tolower(c));
  return lowered;
}

// Classes (see the enum): letters only -> lower / capitalized / upper / mixed_case, where the
// connectors - ' . & ’ may sit between letters and caseless scripts count as lower; digits only
// -> digits; digits with . , : / - + -> number; letters and digits -> alphanumeric; only
// punctuation -> punctuation; symbols (with or without punctuation) -> symbol; emoji,
// mixed scripts and everything else -> other.
WordShape word_shape(std::string_view word) {
  if (word.empty()) return WordShape::other;
  if (looks_like_url_or_email(word)) return WordShape::url_or_email;
  const std::vector<utf8proc_int32_t> code_points = decode(word);
  int upper = 0, lower = 0, caseless = 0, digits = 0, punctuation = 0, symbols = 0, other = 0;
  int connectors = 0, number_separators = 0;
  bool first_letter_upper = false, seen_letter = false;
  int letter_script = -1;
  bool mixed_scripts = false;
  for (utf8proc_int32_t c : code_points) {
    const utf8proc_category_t category = utf8proc_category(c);
    const bool is_letter = category >= UTF8PROC_CATEGORY_LU && category <= UTF8PROC_CATEGORY_LO;
    if (is_letter) {
      const int script = script_block(c);
      if (letter_script >= 0 && script != letter_script) mixed_scripts = true;
      letter_script = script;
      if (!seen_letter) first_letter_upper = category == UTF8PROC_CATEGORY_LU ||
                                             category == UTF8PROC_CATEGORY_LT;
      seen_letter = true;
    }
    if (is_word_connector(c)) ++connectors;
    if (is_number_separator(c)) ++number_separators;
    switch (category) {
      case UTF8PROC_CATEGORY_LU:
      case UTF8PROC_CATEGORY_LT: ++upper; break;
      case UTF8PROC_CATEGORY_LL: ++lower; break;
      case UTF8PROC_CATEGORY_LM:
      case UTF8PROC_CATEGORY_LO:
      case UTF8PROC_CATEGORY_MN:  // combining marks follow a letter: "e" + U+0301
      case UTF8PROC_CATEGORY_MC: ++caseless; break;
      case UTF8PROC_CATEGORY_ND: ++digits; break;
      case UTF8PROC_CATEGORY_PC:
      case UTF8PROC_CATEGORY_PD:
      case UTF8PROC_CATEGORY_PS:
      case UTF8PROC_CATEGORY_PE:
      case UTF8PROC_CATEGORY_PI:
      case UTF8PROC_CATEGORY_PF:
      case UTF8PROC_CATEGORY_PO:
        if (is_ascii_symbol(c)) {
          ++symbols;
        } else {
          ++punctuation;
        }
        break;
      case UTF8PROC_CATEGORY_SM:
      case UTF8PROC_CATEGORY_SC:
      case UTF8PROC_CATEGORY_SK: ++symbols; break;
      case UTF8PROC_CATEGORY_SO:
        // Pictographs and emoji (U+2600 and up) are "other"; ©, °, ™ and the like are symbols.
        if (c >= 0x2600) {
          ++other;
        } else {
          ++symbols;
        }
        break;
      default: ++other; break;
    }
  }
  const int total = static_cast<int>(code_points.size());
  const int letters = upper + lower + caseless;
  if (other > 0 || mixed_scripts) return WordShape::other;
  if (letters == 0 && digits == 0) {
    return symbols > 0 ? WordShape::symbol : WordShape::punctuation;
  }
  if (letters == 0) {  // digits, maybe with separators
    if (digits == total) return WordShape::digits;
    if (digits + number_separators == total) return WordShape::number;
    return WordShape::other;
  }
  if (digits > 0) {
    return letters + digits + connectors == total ? WordShape::alphanumeric : WordShape::other;
  }
  if (letters + connectors != total) return WordShape::other;
  if (upper == 0) return WordShape::lower;
  if (lower == 0 && caseless == 0) return WordShape::upper;
  if (first_letter_upper && upper == 1) return WordShape::capitalized;
  return WordShape::mixed_case;
}

// Characters: <w>, one id per code point (its UTF-8 string looked up in model.chars, case kept,
// kUnknownChar when absent), </w>. A word of more than max_word_chars code points keeps its
// first ceil(max / 2) and last floor(max / 2): the prefix and the suffix carry the most about
// its tag ("internationalization" -> "inte" + "tion" for max 8). The ids are then padded with
// kPaddingChar to at least the widest convolution, so every width sees one window.
std::vector<std::string> word_characters(std::string_view word) {
  std::vector<std::string> characters;
  for (utf8proc_int32_t c : decode(word)) {
    characters.emplace_back();
    append_utf8(characters.back(), c);
  }
  return characters;
}

WordFeatures word_features(const Model& model, std::string_view word) {
  WordFeatures features;
  // The masked word (kMaskedWord) is unknown by definition.
  const int word_id = word.empty() ? -1 : model.words.find(to_lower(word));
  features.word_id = word_id < 0 ? kUnknownWord : word_id;
  features.shape = static_cast<int>(word_shape(word));

  std::vector<utf8proc_int32_t> code_points = decode(word);
  const auto max_chars = static_cast<std::size_t>(std::max(1, model.config.max_word_chars));
  if (code_points.size() > max_chars) {
    const std::size_t head = (max_chars + 1) / 2;
    const std::size_t tail = max_chars / 2;
    code_points.erase(code_points.begin() + static_cast<std::ptrdiff_t>(head),
                      code_points.end() - static_cast<std::ptrdiff_t>(tail));
  }
  features.char_ids.reserve(code_points.size() + 2);
  features.char_ids.push_back(kWordStartChar);
  std::string encoded;
  for (utf8proc_int32_t c : code_points) {
    encoded.clear();
    append_utf8(encoded, c);
    const int char_id = model.chars.find(encoded);
    features.char_ids.push_back(char_id < 0 ? kUnknownChar : char_id);
  }
  features.char_ids.push_back(kWordEndChar);
  int widest = 1;
  for (int width : model.config.char_widths) widest = std::max(widest, width);
  if (static_cast<int>(features.char_ids.size()) < widest) {
    features.char_ids.resize(static_cast<std::size_t>(widest), kPaddingChar);
  }
  return features;
}

EdgeChars edge_chars(const WordFeatures& word) {
  // char_ids: <w> c_1 ... c_n </w> <pad>...; n = 0 for the empty word.
  const std::vector<int>& ids = word.char_ids;
  const auto end = std::find(ids.begin() + (ids.empty() ? 0 : 1), ids.end(), kWordEndChar);
  EdgeChars edges;
  if (ids.size() < 2 || end == ids.end()) return edges;  // not from word_features: as empty
  const auto last = static_cast<std::size_t>(end - ids.begin()) - 1;
  edges.first = ids[1];
  edges.last = ids[last];
  return edges;
}

}  // namespace sawtag
