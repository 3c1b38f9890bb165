#include "io/string_array.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_set>

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

// Where a string's characters go when only the array's shape and count matter.
struct Discard {
  void append(std::string_view, std::size_t, std::size_t) {}
  Discard& operator+=(char) { return *this; }
};

// Reads the string whose opening quote is at text[*at] into `out` (a std::string or Discard);
// *at ends after its closing quote.
template <class Out>
bool read_string(std::string_view text, std::size_t* at, Out& out) {
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

// What an element reader of for_each_element says of the element it read.
enum class Element { next, stop, refused };

// Reads the JSON array at text[begin] one element at a time: element(at) reads the one at
// text[at] (after whitespace; its first character is not ']') and moves `at` past it. Returns
// false for what is not such an array or when an element is refused; on Element::stop, true
// without reading the array to its end (*end is then not set). `release` is called with each
// 4 MiB of the text read.
template <class ReadElement>
bool for_each_element(std::string_view text, std::size_t begin, std::size_t* end,
                      const ReleaseText& release, ReadElement&& element) {
  constexpr std::size_t kReleaseStep = std::size_t{4} << 20;
  if (begin >= text.size() || text[begin] != '[') return false;
  std::size_t at = skip_whitespace(text, begin + 1);
  std::size_t released = begin;
  if (at < text.size() && text[at] == ']') {
    *end = at + 1;
    return true;
  }
  while (at < text.size()) {
    const Element read = element(at);
    if (read == Element::refused) return false;
    if (read == Element::stop) return true;
    if (release && at - released >= kReleaseStep) {
      release(text.substr(released, at - released));
      released = at;
    }
    at = skip_whitespace(text, at);
    if (at >= text.size()) return false;
    if (text[at] == ']') {
      *end = at + 1;
      return true;
    }
    if (text[at] != ',') return false;
    at = skip_whitespace(text, at + 1);
  }
  return false;
}

// Reads the array of strings at text[begin]: each string into next() (a std::string& or
// Discard&), then done() is called, which returns false to stop there (the array is then not
// read to its end and *end is not set). False for what read_string_array refuses.
template <class Next, class Done>
bool read_array(std::string_view text, std::size_t begin, std::size_t* end,
                const ReleaseText& release, Next&& next, Done&& done) {
  return for_each_element(text, begin, end, release, [&](std::size_t& at) {
    if (text[at] != '"' || !read_string(text, &at, next())) return Element::refused;
    return done() ? Element::next : Element::stop;
  });
}

// Reads the array of rows of `width` strings at text[begin]: each row's strings into next()
// (as read_array's), then row_done() once the row is known to be right. False for what
// for_each_string_row refuses.
template <class Next, class RowDone>
bool read_rows(std::string_view text, std::size_t begin, std::size_t width, std::size_t* end,
               const ReleaseText& release, Next&& next, RowDone&& row_done) {
  return for_each_element(text, begin, end, release, [&](std::size_t& at) {
    std::size_t strings = 0;
    const bool valid = read_array(text, at, &at, {}, next, [&] { return ++strings <= width; });
    if (!valid || strings != width) return Element::refused;
    row_done();
    return Element::next;
  });
}

std::uint64_t hash_of(std::string_view text) { return std::hash<std::string_view>{}(text); }

}  // namespace

std::optional<std::vector<std::string>> read_string_array(std::string_view text, std::size_t begin,
                                                          std::size_t* end,
                                                          std::size_t expected_count,
                                                          const ReleaseText& release) {
  std::vector<std::string> strings;
  strings.reserve(expected_count);
  const bool valid = read_array(
      text, begin, end, release, [&]() -> std::string& { return strings.emplace_back(); },
      [] { return true; });
  if (!valid) return std::nullopt;
  return strings;
}

std::optional<std::size_t> count_string_array(std::string_view text, std::size_t begin,
                                              std::size_t* end, const ReleaseText& release) {
  Discard discard;
  std::size_t count = 0;
  const bool valid = read_array(
      text, begin, end, release, [&]() -> Discard& { return discard; },
      [&] {
        ++count;
        return true;
      });
  if (!valid) return std::nullopt;
  return count;
}

bool for_each_string_row(std::string_view text, std::size_t begin, std::size_t width,
                         std::size_t* end,
                         const std::function<void(std::vector<std::string>&)>& take,
                         const ReleaseText& release) {
  if (width == 0) return false;
  std::vector<std::string> row(width);
  std::string extra;  // a string past the row's width: the row is refused
  std::size_t filled = 0;
  const auto next = [&]() -> std::string& {
    std::string& string = filled < width ? row[filled] : extra;
    ++filled;
    string.clear();
    return string;
  };
  return read_rows(text, begin, width, end, release, next, [&] {
    take(row);
    filled = 0;
  });
}

std::optional<std::size_t> count_string_rows(std::string_view text, std::size_t begin,
                                             std::size_t width, std::size_t* end,
                                             const ReleaseText& release) {
  if (width == 0) return std::nullopt;
  Discard discard;
  std::size_t rows = 0;
  const bool valid = read_rows(
      text, begin, width, end, release, [&]() -> Discard& { return discard; }, [&] { ++rows; });
  if (!valid) return std::nullopt;
  return rows;
}

std::string first_of_string_array(std::string_view text, std::size_t begin) {
  std::string first;
  std::size_t end = 0;
  read_array(
      text, begin, &end, {}, [&]() -> std::string& { return first; }, [] { return false; });
  return first;
}

std::optional<RepeatedString> first_repeated_string(std::string_view text, std::size_t begin,
                                                    std::size_t count, const ReleaseText& release) {
  // First pass: the hashes, sorted, give the few hash values that repeat; the second pass
  // compares the strings that have one of them.
  std::string string;
  const auto into_string = [&]() -> std::string& {
    string.clear();
    return string;
  };
  std::size_t end = 0;
  std::vector<std::uint64_t> repeated;
  {
    std::vector<std::uint64_t> hashes;
    hashes.reserve(count);
    read_array(
        text, begin, &end, release,
        into_string,
        [&] {
          hashes.push_back(hash_of(string));
          return true;
        });
    std::sort(hashes.begin(), hashes.end());
    for (std::size_t i = 1; i < hashes.size(); ++i) {
      if (hashes[i] == hashes[i - 1] && (repeated.empty() || repeated.back() != hashes[i])) {
        repeated.push_back(hashes[i]);
      }
    }
  }
  if (repeated.empty()) return std::nullopt;
  std::unordered_set<std::string> seen;
  std::optional<RepeatedString> found;
  std::size_t index = 0;
  read_array(
      text, begin, &end, release,
      into_string,
      [&] {
        if (std::binary_search(repeated.begin(), repeated.end(), hash_of(string)) &&
            !seen.insert(string).second) {
          found = RepeatedString{index, string};
          return false;
        }
        ++index;
        return true;
      });
  return found;
}

}  // namespace sawtag::json
