// The text the model file's JSON parser reads: the file, with what is big cut out of it. The
// parser (nlohmann) copies every token it reads, whitespace included, and a tensor's base64
// data is most of a model; so before parsing, one pass over the file
//  - cuts out every "base64:..." payload, the vocabulary's words and the lemma tables' rows of
//    strings (checked and counted here, not copied, and read by a reader of their own,
//    string_array.hpp), every tensor's "data" array
//    of numbers (read with from_chars), and every other string longer than kMaxParsedStringBytes
//    (the learned tokenizer's document), leaving a short placeholder string in their place;
//  - refuses what no model holds before the parser copies it: a number longer than
//    kMaxNumberBytes, more than kMaxRunBytes of whitespace and brackets between two values,
//    nesting deeper than kMaxJsonDepth, the escape "\u0001" (placeholders are written with it),
//    anything but numbers in a tensor's "data" array;
//  - says when the file ends inside the document (truncated), before anything is parsed.
// Whitespace before and after the document is not given to the parser. The pass stops,
// leaving the rest to the parser as it is, at the first byte that cannot be JSON: the parser
// then names it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sawtag::json {

inline constexpr std::size_t kMaxParsedStringBytes = std::size_t{64} << 10;  // longer: cut out
inline constexpr std::size_t kMaxNumberBytes = 1024;
inline constexpr std::size_t kMaxRunBytes = std::size_t{64} << 10;
inline constexpr int kMaxJsonDepth = 64;  // the format needs 5 levels; deeper is not a model

// A placeholder is a string holding kCutMark and the cut's index ("\u00013" parses as
// "\x01" "3"); a payload's keeps its "base64:" prefix ("base64:\x01" "3"). No string of a model
// may hold U+0001, and the file may not write "\u0001" (refused by cut_document), so a parsed
// string that holds kCutMark is always a placeholder.
inline constexpr char kCutMark = '\x01';

// Called with parts of the file the pass (or the loader) is done with, so that a big file's
// pages can be dropped from memory behind it (they are read again from the page cache if
// needed). May be empty.
using Release = std::function<void(std::string_view done)>;

// The characters of the pieces, one after the other, as the parser reads them: the document
// is never copied out of the file.
class PiecesIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  // `release`, when given, is called with each 4 MiB of `file` the iterator has gone past
  // (pieces are views into `file`, or placeholders, which are never released).
  PiecesIterator(const std::vector<std::string_view>* pieces, std::size_t piece,
                 const Release* release = nullptr, std::string_view file = {})
      : pieces_(pieces), piece_(piece), release_(release), file_(file), released_(file.data()) {
    skip_empty();
  }
  const char& operator*() const { return (*pieces_)[piece_][offset_]; }
  PiecesIterator& operator++() {
    constexpr std::size_t kReleaseStep = std::size_t{4} << 20;  // a power of 2
    if (++offset_ == (*pieces_)[piece_].size()) {
      ++piece_;
      offset_ = 0;
      skip_empty();
      if (release_ != nullptr) release_behind();
    } else if (release_ != nullptr && (offset_ & (kReleaseStep - 1)) == 0) {
      release_behind();
    }
    return *this;
  }
  PiecesIterator operator++(int) {
    PiecesIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const PiecesIterator& other) const {
    return piece_ == other.piece_ && offset_ == other.offset_;
  }
  bool operator!=(const PiecesIterator& other) const { return !(*this == other); }

 private:
  void skip_empty() {
    while (piece_ < pieces_->size() && (*pieces_)[piece_].empty()) ++piece_;
  }
  // Releases the file up to where the iterator is, once that is 4 MiB or more.
  void release_behind() {
    if (piece_ >= pieces_->size()) return;
    const auto at = reinterpret_cast<std::uintptr_t>((*pieces_)[piece_].data() + offset_);
    const auto released = reinterpret_cast<std::uintptr_t>(released_);
    const auto file_begin = reinterpret_cast<std::uintptr_t>(file_.data());
    const auto file_end = file_begin + file_.size();
    if (at < file_begin || at > file_end) return;  // a placeholder
    if (at < released + (std::size_t{4} << 20)) return;
    (*release_)(std::string_view(released_, at - released));
    released_ = (*pieces_)[piece_].data() + offset_;
  }
  const std::vector<std::string_view>* pieces_;
  std::size_t piece_;
  std::size_t offset_ = 0;
  const Release* release_;
  std::string_view file_;
  const char* released_;  // the file before it is released
};

class CutDocument {
 public:
  enum class Kind {
    payload,  // the characters after "base64:", without a backslash: they are the string's
    string,   // a long string as written between its quotes, escapes and all
    words,    // the vocabulary's array of words, as written, checked by count_string_array
    numbers,  // a tensor's "data" array, all numbers (json_number_end)
    rows,     // a table of rows of strings (lemma_lexicon, lemma_dictionary.forms), checked by
              // count_string_rows
  };
  struct Cut {
    Kind kind;
    std::string_view raw;   // in the file
    std::size_t count = 0;  // of numbers, words or rows
    std::size_t width = 0;  // of rows: the strings of each
  };

  PiecesIterator begin(const Release* release = nullptr, std::string_view file = {}) const {
    return {&pieces_, 0, release, file};
  }
  PiecesIterator end() const { return {&pieces_, pieces_.size()}; }
  std::size_t size() const { return size_; }  // of the parsed text

  // The cut a parsed string stands for, or nullptr: "base64:\x01" "3" or "\x01" "3" -> cut 3.
  const Cut* cut_of(std::string_view parsed) const;
  // The vocabulary's words, when they were cut out (string_array.hpp reads them), or nullptr.
  const Cut* words() const { return words_ ? &cuts_[*words_] : nullptr; }
  // Position in the file of position `at` of the parsed text.
  std::size_t original_position(std::size_t at) const;

 private:
  friend class Cutter;
  struct Span {
    std::size_t at;        // in the parsed text
    std::size_t original;  // in the file
    bool is_placeholder;
  };
  void append(std::string_view piece, std::size_t original, bool is_placeholder);
  void append_placeholder(std::string text, std::size_t original);

  std::vector<std::string_view> pieces_;  // into the file, or into placeholders_
  std::vector<Span> spans_;               // one a piece
  std::deque<std::string> placeholders_;  // a deque: adding one never moves the others
  std::size_t size_ = 0;                  // of the parsed text
  std::vector<Cut> cuts_;
  std::optional<std::size_t> words_;  // the index of the words' cut
};

// Why the file was refused before parsing: `problem` ("a JSON number longer than 1024 bytes")
// at `position` of the file, or the file ends inside the document (`truncated`).
struct CutProblem {
  enum class Kind {
    at_position,   // "not a sawtag model: <problem> at line L, column C"
    invalid_json,  // "not valid JSON: parse error at line L, column C: <problem>"
    plain,         // "<problem>"
    truncated,
    too_deep,
  };
  Kind kind = Kind::at_position;
  std::size_t position = 0;
  std::string problem;
};

// The document the parser is to read, or why the file is refused. `release` may be empty.
std::variant<CutDocument, CutProblem> cut_document(std::string_view text, const Release& release);

// The end of the JSON number at text[at], or `at` when there is none there: "-1.5e3," -> 6.
std::size_t json_number_end(std::string_view text, std::size_t at);

// The value the JSON parser gives a number (json_number_end's), as a double: an integer as
// int64 or uint64 first, "-0" -> 0.0; one too small for a double -> 0. std::nullopt when it is
// too big for a double (the parser's "number overflow").
std::optional<double> json_number_value(std::string_view number);

// The string whose characters between the quotes are `raw`, its escapes replaced:
// `a\"b\u00e9` -> `a"bé`. std::nullopt when it is not a valid JSON string (a control
// character, a bad escape or a lone surrogate). `release`, when given, is called with each
// 4 MiB of `raw` read.
std::optional<std::string> unescape(std::string_view raw, const Release& release = {});

}  // namespace sawtag::json
