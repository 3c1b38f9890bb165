#include <array>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"

namespace sawtag {
namespace {

constexpr std::size_t kNumColumns = 10;
constexpr std::size_t kMaxQuoted = 80;  // longest piece of a bad line quoted in a message
constexpr std::array<const char*, kNumColumns> kColumnNames = {
    "ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC"};

// A non-negative decimal without leading zeros ("0", "17"), as the writer prints it; anything
// else (including numbers too big for an int) gives std::nullopt.
std::optional<int> parse_number(std::string_view text) {
  if (text.empty() || text.size() > 9 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// The ten columns of `line` -> a Word (ID aside); false when there are not exactly ten.
std::size_t split_columns(std::string_view line,
                          std::array<std::string_view, kNumColumns>& columns) {
  std::size_t count = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    const std::string_view column =
        line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start);
    if (count < kNumColumns) columns[count] = column;
    ++count;
    if (tab == std::string_view::npos) return count;
    start = tab + 1;
  }
}

// A bad line as its error message shows it: cut after kMaxQuoted bytes, control characters but
// the tab written as "\x1b", so that the message is one printable line.
std::string quote(std::string_view line) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string quoted;
  for (const char c : line.substr(0, kMaxQuoted)) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7F) {
      quoted += "\\x";
      quoted += kHex[byte >> 4];
      quoted += kHex[byte & 15];
    } else {
      quoted += c;
    }
  }
  if (line.size() > kMaxQuoted) quoted += "...";
  return quoted;
}

}  // namespace

ConlluReader::ConlluReader(std::istream& in, std::string source_name)
    : in_(in), source_name_(std::move(source_name)) {}

// Line kinds, one per CoNLL-U line:
//   "# text = I saw"                               comment (only before the sentence's words)
//   "1\tI\tI\tPRON\tPRP\t...\t_"                    word: IDs run 1, 2, 3, ...
//   "3-4\tdon't\t_\t_\t_\t_\t_\t_\t_\t_"            multi-word token, just before its words
//   "2.1\tsaw\tsee\tVERB\t...\t_"                   empty node after word 2: 2.1, 2.2, ...
//   ""                                              end of the sentence
// Trailing '\r's are dropped (CRLF files read like LF files and are written back with LF; all of
// them, so that what is written reads back the same), as is a UTF-8 byte-order mark at the start
// of the input.
bool ConlluReader::next(Sentence& sentence) {
  sentence.comments.clear();
  sentence.words.clear();
  sentence.word_spans.clear();
  sentence.multiword_tokens.clear();
  sentence.empty_nodes.clear();

  std::string line;
  bool started = false;
  std::size_t first_line_number = 0;  // where the sentence starts, for "no words" errors
  std::string first_line;
  // The last multi-word token read, while some of its words are still to come.
  std::optional<MultiwordToken> open_range;
  std::size_t open_range_line_number = 0;
  std::string open_range_line;

  const auto fail = [&](const std::string& problem, std::size_t at_line, std::string_view text) {
    throw InputError(source_name_ + ":" + std::to_string(at_line) + ": " + problem + ": '" +
                     quote(text) + "'");
  };
  const auto finish = [&]() {
    if (open_range && static_cast<int>(sentence.words.size()) < open_range->last) {
      fail("multi-word token " + std::to_string(open_range->first) + "-" +
               std::to_string(open_range->last) + " is not followed by its words",
           open_range_line_number, open_range_line);
    }
    if (sentence.words.empty()) {
      fail("sentence has no words", first_line_number, first_line);
    }
    return true;
  };

  while (std::getline(in_, line)) {
    ++line_number_;
    if (line_number_ == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    while (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (started) return finish();
      continue;  // blank lines between sentences
    }
    if (!started) {
      started = true;
      first_line_number = line_number_;
      first_line = line;
    }
    if (line[0] == '#') {
      if (!sentence.words.empty() || !sentence.empty_nodes.empty() || open_range) {
        fail("comment inside a sentence (comments must come before its first word)", line_number_,
             line);
      }
      sentence.comments.push_back(line);
      continue;
    }

    std::array<std::string_view, kNumColumns> columns;
    const std::size_t actual_columns = split_columns(line, columns);
    if (actual_columns != kNumColumns) {
      fail("wrong number of columns: expected " + std::to_string(kNumColumns) + ", got " +
               std::to_string(actual_columns),
           line_number_, line);
    }
    for (std::size_t c = 0; c < kNumColumns; ++c) {
      if (columns[c].empty()) {
        fail(c == 1 ? std::string("empty FORM")
                    : "empty column " + std::to_string(c + 1) + " (" + kColumnNames[c] + ")",
             line_number_, line);
      }
    }
    Word word;
    word.form = columns[1];
    word.lemma = columns[2];
    word.upos = columns[3];
    word.xpos = columns[4];
    word.feats = columns[5];
    word.head = columns[6];
    word.deprel = columns[7];
    word.deps = columns[8];
    word.misc = columns[9];

    const std::string_view id = columns[0];
    const int expected_id = static_cast<int>(sentence.words.size()) + 1;
    const std::size_t dash = id.find('-');
    const std::size_t dot = id.find('.');
    if (dash != std::string_view::npos) {
      const std::optional<int> first = parse_number(id.substr(0, dash));
      const std::optional<int> last = parse_number(id.substr(dash + 1));
      if (!first || !last) fail("bad ID '" + std::string(id) + "'", line_number_, line);
      if (*last <= *first) {
        fail("reversed or empty multi-word token range " + std::string(id) +
                 ": the last word must come after the first",
             line_number_, line);
      }
      if (open_range && *first <= open_range->last) {
        fail("multi-word token " + std::string(id) + " overlaps " +
                 std::to_string(open_range->first) + "-" + std::to_string(open_range->last),
             line_number_, line);
      }
      if (*first != expected_id) {
        fail("multi-word token " + std::string(id) +
                 " must come just before its first word: " + "expected it to start at " +
                 std::to_string(expected_id) + ", got " + std::to_string(*first),
             line_number_, line);
      }
      open_range = MultiwordToken{*first, *last, std::move(word)};
      open_range_line_number = line_number_;
      open_range_line = line;
      sentence.multiword_tokens.push_back(*open_range);
    } else if (dot != std::string_view::npos) {
      const std::optional<int> after = parse_number(id.substr(0, dot));
      const std::optional<int> index = parse_number(id.substr(dot + 1));
      if (!after || !index) fail("bad ID '" + std::string(id) + "'", line_number_, line);
      const int expected_after = expected_id - 1;
      int expected_index = 1;
      if (!sentence.empty_nodes.empty() && sentence.empty_nodes.back().after == expected_after) {
        expected_index = sentence.empty_nodes.back().index + 1;
      }
      const bool between_range_and_word = open_range && open_range->first == expected_id;
      if (*after != expected_after || *index != expected_index || between_range_and_word) {
        fail("bad empty node numbering: expected " + std::to_string(expected_after) + "." +
                 std::to_string(expected_index) +
                 (between_range_and_word ? " before the multi-word token line, got " : ", got ") +
                 std::string(id),
             line_number_, line);
      }
      sentence.empty_nodes.push_back(EmptyNode{*after, *index, std::move(word)});
    } else {
      const std::optional<int> actual_id = parse_number(id);
      if (!actual_id) fail("bad ID '" + std::string(id) + "'", line_number_, line);
      if (*actual_id != expected_id) {
        fail("IDs not in sequence: expected " + std::to_string(expected_id) + ", got " +
                 std::to_string(*actual_id),
             line_number_, line);
      }
      sentence.words.push_back(std::move(word));
      if (open_range && expected_id == open_range->last) open_range.reset();
    }
  }
  if (in_.bad()) {
    throw InputError(source_name_ + ":" + std::to_string(line_number_) + ": read error");
  }
  // The end of the input also ends a sentence whose final blank line is missing.
  return started ? finish() : false;
}

}  // namespace sawtag
