#include "io/string_array.hpp"

#include "io/json_text.hpp"

namespace sawtag::json {
namespace {

// A character a string holds as it is: ASCII, not a control character (DEL included), quote
// or backslash.
bool is_plain(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x20 && byte < 0x7F && byte != '"' && byte != '\\';
}

// A valid UTF-8 sequence of `length` bytes at text[i] that no string of a model may hold
// (model_strings.hpp): a C1 control character (U+0080-U+009F) or U+2028, U+2029.
bool is_refused_sequence(std::string_view text, std::size_t i, std::size_t length) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  if (length == 2) return byte(0) == 0xC2 && byte(1) <= 0x9F;
  return length == 3 && byte(0) == 0xE2 && byte(1) == 0x80 && (byte(2) == 0xA8 || byte(2) == 0xA9);
}

bool is_whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The escaped character of "\<c>", or 0 for one left to a full parser: "\u", an invalid one,
// and those of control characters ("\t"), which no string of a model may hold: the loader's
// check of the parsed strings then says which string it is.
char unescaped(char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '/':
      return '/';
    default: return 0;
  }
}

// Reads the string whose opening quote is at text[*at]; *at ends after its closing quote.
bool read_string(std::string_view text, std::size_t* at, std::string& out) {
  std::size_t i = *at + 1;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"') {
      *at = i + 1;
      return true;
    }
    if (c < 0x20 || c == 0x7F) return false;
    if (c == '\\') {
      const char escaped = i + 1 < text.size() ? unescaped(text[i + 1]) : 0;
      if (escaped == 0) return false;
      out += escaped;
      i += 2;
    } else if (c < 0x80) {  // a run of plain characters, appended at once
      const std::size_t run = i;
      while (i < text.size() && is_plain(text[i])) ++i;
      out.append(text, run, i - run);
    } else {
      const std::size_t length = valid_sequence_length(text, i);
      if (length == 0 || is_refused_sequence(text, i, length)) return false;
      out.append(text, i, length);
      i += length;
    }
  }
  return false;  // no closing quote
}

std::size_t skip_whitespace(std::string_view text, std::size_t at) {
  while (at < text.size() && is_whitespace(text[at])) ++at;
  return at;
}

}  // namespace

std::optional<std::vector<std::string>> read_string_array(std::string_view text, std::size_t begin,
                                                          std::size_t* end) {
  if (begin >= text.size() || text[begin] != '[') return std::nullopt;
  std::vector<std::string> strings;
  std::size_t at = skip_whitespace(text, begin + 1);
  if (at < text.size() && text[at] == ']') {
    *end = at + 1;
    return strings;
  }
  while (at < text.size() && text[at] == '"') {
    std::string& string = strings.emplace_back();
    if (!read_string(text, &at, string)) return std::nullopt;
    at = skip_whitespace(text, at);
    if (at >= text.size()) return std::nullopt;
    if (text[at] == ']') {
      *end = at + 1;
      return strings;
    }
    if (text[at] != ',') return std::nullopt;
    at = skip_whitespace(text, at + 1);
  }
  return std::nullopt;
}

}  // namespace sawtag::json
