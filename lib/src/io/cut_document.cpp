#include "io/cut_document.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <system_error>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "io/string_array.hpp"

namespace sawtag::json {
namespace {

constexpr std::string_view kBase64Prefix = "base64:";
// A big file's pages are released behind the pass in steps of this many bytes; a long string
// is searched for its end in windows of this size, so that no more of it is read at once.
constexpr std::size_t kWindowBytes = std::size_t{4} << 20;

bool is_whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}
bool is_letter(char c) { return c >= 'a' && c <= 'z'; }

// Asks for huge pages under the whole 2 MiB pages of a buffer of `bytes` at `data`, when it has
// at least two (Linux; a hint, which may be ignored): an ensemble tagger's document, unescaped
// into a fresh buffer of several MB, then costs a few page faults instead of one every 4 KiB.
void advise_huge_pages(char* data, std::size_t bytes) {
#ifdef __linux__
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHugePage - 1);
  if (end >= begin + 2 * kHugePage) {
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
#else
  (void)data;
  (void)bytes;
#endif
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The four hex digits of "\uXXXX" at raw[at] (at the 'u'), or -1.
long code_unit(std::string_view raw, std::size_t at) {
  if (at + 4 >= raw.size()) return -1;
  long value = 0;
  for (std::size_t i = 1; i <= 4; ++i) {
    const int digit = hex_value(raw[at + i]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

void append_utf8(long code_point, std::string& out) {
  const auto byte = [&](long value) {
    out += static_cast<char>(static_cast<unsigned char>(value));
  };
  if (code_point < 0x80) {
    byte(code_point);
  } else if (code_point < 0x800) {
    byte(0xC0 | code_point >> 6);
    byte(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    byte(0xE0 | code_point >> 12);
    byte(0x80 | (code_point >> 6 & 0x3F));
    byte(0x80 | (code_point & 0x3F));
  } else {
    byte(0xF0 | code_point >> 18);
    byte(0x80 | (code_point >> 12 & 0x3F));
    byte(0x80 | (code_point >> 6 & 0x3F));
    byte(0x80 | (code_point & 0x3F));
  }
}

}  // namespace

// ---- CutDocument -----------------------------------------------------------------------------

void CutDocument::append(std::string_view piece, std::size_t original, bool is_placeholder) {
  if (piece.empty()) return;
  pieces_.push_back(piece);
  spans_.push_back({size_, original, is_placeholder});
  size_ += piece.size();
}

void CutDocument::append_placeholder(std::string text, std::size_t original) {
  const std::string& placeholder = placeholders_.emplace_back(std::move(text));
  append(placeholder, original, true);
}

const CutDocument::Cut* CutDocument::cut_of(std::string_view parsed) const {
  std::size_t mark = 0;
  if (parsed.empty()) return nullptr;
  if (parsed[0] != kCutMark) {
    if (parsed.size() <= kBase64Prefix.size() || parsed[kBase64Prefix.size()] != kCutMark ||
        parsed.compare(0, kBase64Prefix.size(), kBase64Prefix) != 0) {
      return nullptr;
    }
    mark = kBase64Prefix.size();
  }
  std::size_t index = 0;
  const char* first = parsed.data() + mark + 1;
  const char* last = parsed.data() + parsed.size();
  const auto [end, error] = std::from_chars(first, last, index);
  if (error != std::errc() || end != last || index >= cuts_.size()) return nullptr;
  const Cut& cut = cuts_[index];
  if ((cut.kind == Kind::payload) != (mark != 0)) return nullptr;
  return &cut;
}

std::size_t CutDocument::original_position(std::size_t at) const {
  if (spans_.empty()) return at;
  // The last span starting at or before `at`.
  const auto after =
      std::upper_bound(spans_.begin(), spans_.end(), at,
                       [](std::size_t value, const Span& span) { return value < span.at; });
  const Span& span = after == spans_.begin() ? spans_.front() : *(after - 1);
  if (span.is_placeholder) return span.original;
  return span.original + (at - std::min(at, span.at));
}

// ---- The pass --------------------------------------------------------------------------------

class Cutter {
 public:
  Cutter(std::string_view text, const Release& release) : text_(text), release_(release) {}

  std::variant<CutDocument, CutProblem> run() {
    std::size_t at = 0;
    if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) at = 3;  // a byte-order mark: the parser's too
    at = skip_whitespace(at);
    copied_ = at;
    while (at < text_.size() && !problem_) {
      progress(at);
      const char c = text_[at];
      if (is_whitespace(c)) {
        if (++run_ > kMaxRunBytes) return refuse_run();
        ++at;
      } else if (c == '"') {
        at = string_at(at);
        if (!problem_ && stack_.empty()) return finish(at);
      } else if (c == '{' || c == '[') {
        if (c == '[' && at_words()) {
          at = words_at(at);
          continue;
        }
        if (const std::size_t width = c == '[' ? row_width() : 0; width != 0) {
          at = rows_at(at, width);
          continue;
        }
        if (c == '[' && at_tensor_data()) {
          const std::size_t end = numbers_end(at);
          if (problem_) return *problem_;
          if (end != std::string_view::npos) {
            at = end;
            continue;
          }
        }
        if (stack_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
          return CutProblem{CutProblem::Kind::too_deep, at, ""};
        }
        stack_.push_back(c);
        keys_[stack_.size()] = {};
        after_colon_ = false;
        at = structural(at);
      } else if (c == '}' || c == ']') {
        if (stack_.empty() || stack_.back() != (c == '}' ? '{' : '[')) break;  // the parser's
        stack_.pop_back();
        after_colon_ = false;
        at = structural(at);
        if (stack_.empty()) return finish(at);
      } else if (c == ',' || c == ':') {
        if (c == ':') note_key();
        after_colon_ = c == ':';
        last_string_ = {};
        at = structural(at);
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        const std::size_t begin = at;
        while (at < text_.size() && is_number_char(text_[at]) && at - begin <= kMaxNumberBytes) {
          ++at;
        }
        if (at - begin > kMaxNumberBytes) {
          return CutProblem{
              CutProblem::Kind::at_position, begin,
              "a JSON number longer than " + std::to_string(kMaxNumberBytes) + " characters"};
        }
        if (value_ended(at)) return finish(at);
      } else if (is_letter(c)) {  // true, false, null
        const std::size_t begin = at;
        while (at < text_.size() && is_letter(text_[at]) && at - begin <= 5) ++at;
        if (at - begin > 5) break;  // no such word: the parser says so
        if (value_ended(at)) return finish(at);
      } else {
        break;  // not JSON: the parser says where
      }
    }
    if (problem_) return *problem_;
    if (at >= text_.size()) {
      return CutProblem{CutProblem::Kind::truncated, text_.size(), ""};
    }
    // The pass stopped at what cannot be JSON: the parser reads on to it and names it.
    document_.append(text_.substr(copied_), copied_, false);
    return std::move(document_);
  }

 private:
  std::size_t skip_whitespace(std::size_t at) const {
    while (at < text_.size() && is_whitespace(text_[at])) ++at;
    return at;
  }

  // Releases the file behind `at`, a window at a time.
  void progress(std::size_t at) {
    if (!release_ || at < released_ + kWindowBytes) return;
    release_(text_.substr(released_, at - released_));
    released_ = at;
  }

  std::size_t structural(std::size_t at) {
    if (++run_ > kMaxRunBytes) refuse_run();
    last_string_ = {};
    return at + 1;
  }

  CutProblem refuse_run() {
    problem_ = CutProblem{CutProblem::Kind::at_position, run_begin_,
                          "more than " + std::to_string(kMaxRunBytes) +
                              " bytes of whitespace and brackets without a value between them"};
    return *problem_;
  }

  // A string, number or literal ended before `at`: true when it was the whole document.
  bool value_ended(std::size_t at) {
    run_ = 0;
    run_begin_ = at;
    after_colon_ = false;
    return stack_.empty();
  }

  // The string whose opening quote is at text_[open]: cut out when it is a payload or long.
  // Returns the position after its closing quote.
  std::size_t string_at(std::size_t open) {
    std::size_t escapes = 0;
    const std::size_t close = closing_quote(open + 1, &escapes);
    if (problem_) return text_.size();
    const std::string_view content = text_.substr(open + 1, close - open - 1);
    last_string_ = escapes == 0 ? content : std::string_view();
    if (content.compare(0, kBase64Prefix.size(), kBase64Prefix) == 0 && escapes == 0) {
      cut(CutDocument::Kind::payload, open + 1 + kBase64Prefix.size(), close);
    } else if (content.size() > kMaxParsedStringBytes) {
      cut(CutDocument::Kind::string, open + 1, close);
    }
    value_ended(close + 1);
    return close + 1;
  }

  // Position of the quote that ends the string whose characters start at `at`; counts its
  // escapes. Reads a long string a window at a time, and each character once or twice, however
  // many escapes it holds.
  std::size_t closing_quote(std::size_t at, std::size_t* escapes) {
    constexpr std::size_t kNone = std::string_view::npos;
    std::size_t quote_at = kNone;  // the first quote at or after `at`, when known
    std::size_t searched = at;     // no quote before it but quote_at, from where the search began
    while (at < text_.size()) {
      if (quote_at == kNone ? at >= searched : quote_at < at) {  // search on
        const std::size_t from = std::max(at, searched);
        const std::size_t window_end = std::min(text_.size(), from + kWindowBytes);
        const void* quote = std::memchr(text_.data() + from, '"', window_end - from);
        quote_at = quote == nullptr ? kNone : static_cast<const char*>(quote) - text_.data();
        searched = quote == nullptr ? window_end : quote_at + 1;
      }
      const std::size_t limit = quote_at == kNone ? searched : quote_at;
      const void* backslash = std::memchr(text_.data() + at, '\\', limit - at);
      if (backslash != nullptr) {
        const std::size_t escape = static_cast<const char*>(backslash) - text_.data();
        ++*escapes;
        if (text_.compare(escape, 6, "\\u0001") == 0) {
          problem_ = CutProblem{CutProblem::Kind::at_position, escape,
                                "a string holds the control character U+0001 (\\u0001)"};
          return text_.size();
        }
        at = escape + 2;
        continue;
      }
      if (quote_at != kNone) return quote_at;
      at = searched;
      progress(at);
    }
    problem_ = CutProblem{CutProblem::Kind::truncated, text_.size(), ""};
    return text_.size();
  }

  // Replaces text_[begin, end) (a string's characters) by a placeholder.
  void cut(CutDocument::Kind kind, std::size_t begin, std::size_t end) {
    document_.append(text_.substr(copied_, begin - copied_), copied_, false);
    document_.append_placeholder("\\u0001" + std::to_string(document_.cuts_.size()), begin);
    document_.cuts_.push_back({kind, text_.substr(begin, end - begin)});
    copied_ = end;
  }

  // A key's colon: the string before it names the value that follows.
  void note_key() { keys_[stack_.size()] = last_string_; }

  // At the array of "vocabularies": {"words": [...]} of the document.
  bool at_words() const {
    return after_colon_ && stack_.size() == 2 && stack_[0] == '{' && stack_[1] == '{' &&
           keys_[1] == "vocabularies" && keys_[2] == "words" && !document_.words_;
  }

  // The strings in each row of the array the pass is at, when it is a table of rows of strings
  // of the document ("lemma_lexicon": [[form, UPOS, XPOS, lemma], ...], "lemma_dictionary":
  // {"forms": [[form, UPOS, lemma], ...]}), else 0.
  std::size_t row_width() const {
    if (!after_colon_) return 0;
    if (stack_ == "{" && keys_[1] == "lemma_lexicon") return 4;
    if (stack_ == "{{" && keys_[1] == "lemma_dictionary" && keys_[2] == "forms") return 3;
    return 0;
  }

  // At the array of "tensors": {"NAME": {"data": [...]}} of the document.
  bool at_tensor_data() const {
    return after_colon_ && stack_ == "{{{" && keys_[1] == "tensors" && keys_[3] == "data";
  }

  // The end of the array of JSON numbers at text_[begin], cut out: [0.5, -1, 2e-3] -> a
  // placeholder, and a cut of 3 numbers. Anything but numbers in it is refused here, before
  // the parser would have turned the numbers before it into floats; std::string_view::npos,
  // and nothing cut, for an empty array or a tensor whose name has an escape (the parser
  // reads those).
  std::size_t numbers_end(std::size_t begin) {
    const std::string_view tensor = keys_[2];
    std::size_t at = skip_whitespace(begin + 1);
    if (tensor.empty() || (at < text_.size() && text_[at] == ']')) return std::string_view::npos;
    std::size_t count = 0;
    while (true) {
      const std::size_t number_end = json_number_end(text_, at);
      if (number_end == at) return refuse_in_array(tensor, count, at);
      if (number_end - at > kMaxNumberBytes) {
        problem_ = CutProblem{
            CutProblem::Kind::at_position, at,
            "a JSON number longer than " + std::to_string(kMaxNumberBytes) + " characters"};
        return text_.size();
      }
      ++count;
      at = skip_whitespace(number_end);
      if (at < text_.size() && text_[at] == ']') break;
      if (at >= text_.size() || text_[at] != ',') return refuse_in_array(tensor, count, at);
      at = skip_whitespace(at + 1);
      progress(at);
    }
    return cut_array({CutDocument::Kind::numbers, text_.substr(begin, at + 1 - begin), count});
  }

  // What is at text_[at] in a tensor's data array, where a number (or, after `index` numbers,
  // ',' or ']') should be: the message the loader gives for a value of another type, or a
  // syntax error.
  std::size_t refuse_in_array(std::string_view tensor, std::size_t index, std::size_t at) {
    if (at >= text_.size()) {
      problem_ = CutProblem{CutProblem::Kind::truncated, text_.size(), ""};
      return text_.size();
    }
    const char c = text_[at];
    const char* type = c == '"'               ? "string"
                       : c == '['             ? "array"
                       : c == '{'             ? "object"
                       : c == 't' || c == 'f' ? "boolean"
                       : c == 'n'             ? "null"
                                              : nullptr;
    const bool after_value = at > 0 && text_[skip_back(at)] != ',' && text_[skip_back(at)] != '[';
    if (type != nullptr && !after_value) {
      problem_ = CutProblem{CutProblem::Kind::plain, at,
                            "tensor '" + std::string(tensor) + "': value at index " +
                                std::to_string(index) + " is " + type + ", expected a number"};
    } else {
      problem_ = CutProblem{CutProblem::Kind::invalid_json, at,
                            "a tensor's data array holds something other than numbers"};
    }
    return text_.size();
  }

  // The last position before `at` that is not whitespace.
  std::size_t skip_back(std::size_t at) const {
    while (at > 0 && is_whitespace(text_[at - 1])) --at;
    return at == 0 ? 0 : at - 1;
  }

  // The words' array at text_[begin], checked and cut out when the fast reader can read it (not
  // read: the loader reads it once the file has shown it is a model); else it is left to the
  // parser. Returns where the pass goes on.
  std::size_t words_at(std::size_t begin) {
    std::size_t end = 0;
    const std::optional<std::size_t> count = count_string_array(text_, begin, &end, release_);
    if (!count) return as_any_array(begin);
    document_.words_ = document_.cuts_.size();
    return cut_array({CutDocument::Kind::words, text_.substr(begin, end - begin), *count});
  }

  // The table at text_[begin], rows of `width` strings, checked and cut out when the fast reader
  // can read it, as words_at() cuts the words; else it is left to the parser.
  std::size_t rows_at(std::size_t begin, std::size_t width) {
    std::size_t end = 0;
    const std::optional<std::size_t> count = count_string_rows(text_, begin, width, &end, release_);
    if (!count) return as_any_array(begin);
    return cut_array({CutDocument::Kind::rows, text_.substr(begin, end - begin), *count, width});
  }

  // The array at text_[begin], which the fast readers leave to the parser, scanned as any array.
  std::size_t as_any_array(std::size_t begin) {
    stack_.push_back('[');
    after_colon_ = false;
    return structural(begin);
  }

  // Replaces the array cut.raw (in text_) by a placeholder string. Returns where the pass goes
  // on: after the array.
  std::size_t cut_array(CutDocument::Cut cut) {
    const auto begin = static_cast<std::size_t>(cut.raw.data() - text_.data());
    const std::size_t end = begin + cut.raw.size();
    document_.append(text_.substr(copied_, begin - copied_), copied_, false);
    document_.append_placeholder("\"\\u0001" + std::to_string(document_.cuts_.size()) + "\"",
                                 begin);
    document_.cuts_.push_back(cut);
    copied_ = end;
    value_ended(end);
    return end;
  }

  // The document's value ends before `at`: what follows is whitespace, or an error the
  // parser names.
  std::variant<CutDocument, CutProblem> finish(std::size_t at) {
    document_.append(text_.substr(copied_, at - copied_), copied_, false);
    const std::size_t rest = skip_whitespace(at);
    if (rest < text_.size()) document_.append(text_.substr(rest), rest, false);
    copied_ = text_.size();
    return std::move(document_);
  }

  std::string_view text_;
  const Release& release_;
  CutDocument document_;
  std::size_t copied_ = 0;    // the file before it is in the document's pieces
  std::size_t released_ = 0;  // the file before it was released
  std::string stack_;         // '{' and '[' of the values open
  std::size_t run_ = 0;       // whitespace and brackets since the last value
  std::size_t run_begin_ = 0;
  bool after_colon_ = false;
  std::string_view last_string_;  // the string just read, when it had no escape
  std::string_view keys_[kMaxJsonDepth + 1];  // the key of each open object's current value
  std::optional<CutProblem> problem_;
};

std::variant<CutDocument, CutProblem> cut_document(std::string_view text, const Release& release) {
  return Cutter(text, release).run();
}

// ---- Numbers ---------------------------------------------------------------------------------

std::size_t json_number_end(std::string_view text, std::size_t at) {
  const auto digit = [&](std::size_t i) {
    return i < text.size() && text[i] >= '0' && text[i] <= '9';
  };
  const std::size_t begin = at;
  if (at < text.size() && text[at] == '-') ++at;
  if (!digit(at)) return begin;
  if (text[at] == '0') {
    ++at;
  } else {
    while (digit(at)) ++at;
  }
  if (at < text.size() && text[at] == '.') {
    if (!digit(at + 1)) return begin;
    ++at;
    while (digit(at)) ++at;
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    std::size_t exponent = at + 1;
    if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) ++exponent;
    if (!digit(exponent)) return begin;
    at = exponent;
    while (digit(at)) ++at;
  }
  return at;
}

std::optional<double> json_number_value(std::string_view number) {
  const char* first = number.data();
  const char* last = number.data() + number.size();
  if (number.find_first_of(".eE") ==
      std::string_view::npos) {  // an integer, as the parser reads it
    std::int64_t signed_value = 0;
    if (std::from_chars(first, last, signed_value).ec == std::errc()) {
      return static_cast<double>(signed_value);
    }
    std::uint64_t unsigned_value = 0;
    if (std::from_chars(first, last, unsigned_value).ec == std::errc()) {
      return static_cast<double>(unsigned_value);
    }
  }
  double value = 0;
  const auto [end, error] = std::from_chars(first, last, value);
  if (error == std::errc() && end == last) return value;
  if (error != std::errc::result_out_of_range) return std::nullopt;
  // Too big, or too small, for a double: which, from the position of its first digit.
  const bool negative = number[0] == '-';
  const std::size_t exponent_at = number.find_first_of("eE");
  const std::string_view mantissa = number.substr(0, exponent_at);
  long exponent = 0;
  if (exponent_at != std::string_view::npos) {
    std::string_view digits = number.substr(exponent_at + 1);
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
    if (std::from_chars(digits.data(), digits.data() + digits.size(), exponent).ec != std::errc()) {
      exponent = digits[0] == '-' ? -100000 : 100000;
    }
  }
  const std::size_t point = mantissa.find('.');
  const std::string_view integer = mantissa.substr(negative ? 1 : 0, point - (negative ? 1 : 0));
  const std::size_t first_digit = integer.find_first_not_of('0');
  long magnitude = exponent;
  if (first_digit != std::string_view::npos) {
    magnitude += static_cast<long>(integer.size() - first_digit);
  } else if (point != std::string_view::npos) {
    const std::size_t first_fraction_digit = mantissa.find_first_not_of('0', point + 1);
    magnitude -= static_cast<long>(first_fraction_digit == std::string_view::npos
                                       ? mantissa.size()
                                       : first_fraction_digit - point - 1);
  }
  if (magnitude > 0) return std::nullopt;  // an overflow: the parser refuses it too
  return negative ? -0.0 : 0.0;
}

// ---- Escapes ---------------------------------------------------------------------------------

std::optional<std::string> unescape(std::string_view raw, const Release& release) {
  std::string out;
  out.reserve(raw.size());
  advise_huge_pages(out.data(), out.capacity());
  std::size_t at = 0;
  std::size_t released = 0;
  unsigned char smallest = 0xFF;  // of the characters copied as they are
  while (at < raw.size()) {
    if (release && at >= released + kWindowBytes) {
      release(raw.substr(released, at - released));
      released = at;
    }
    // A run without escapes, read a window at a time.
    const std::size_t window_end = std::min(raw.size(), at + kWindowBytes);
    const void* backslash = std::memchr(raw.data() + at, '\\', window_end - at);
    const std::size_t run_end =
        backslash == nullptr ? window_end : static_cast<const char*>(backslash) - raw.data();
    for (std::size_t i = at; i < run_end; ++i) {
      smallest = std::min(smallest, static_cast<unsigned char>(raw[i]));
    }
    out.append(raw, at, run_end - at);
    if (backslash == nullptr) {
      at = window_end;
      continue;
    }
    if (run_end + 1 >= raw.size()) return std::nullopt;
    at = run_end + 2;
    switch (raw[run_end + 1]) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        long code_point = code_unit(raw, run_end + 1);
        at = run_end + 6;
        if (code_point < 0 || (code_point >= 0xDC00 && code_point <= 0xDFFF)) return std::nullopt;
        if (code_point >= 0xD800 && code_point <= 0xDBFF) {  // a surrogate pair
          if (raw.compare(at, 2, "\\u") != 0) return std::nullopt;
          const long low = code_unit(raw, at + 1);
          if (low < 0xDC00 || low > 0xDFFF) return std::nullopt;
          code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
          at += 6;
        }
        append_utf8(code_point, out);
        break;
      }
      default:
        return std::nullopt;
    }
  }
  if (smallest < 0x20 && !raw.empty()) return std::nullopt;  // a raw control character
  return out;
}

}  // namespace sawtag::json
