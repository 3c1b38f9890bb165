#include "text/multiword_splitter.hpp"

#include <string_view>

#include "text/character_classes.hpp"
#include "text/english_conventions.hpp"
#include "text/utf8.hpp"

namespace sawtag::text {

namespace {

bool is_apostrophe(char32_t value) { return value == '\'' || value == U'\u2019' || value == '`'; }

std::size_t count_code_points(const std::string& text) { return decode_utf8(text).size(); }

// Cuts `code_points` into pieces of the given lengths: {"Don't"}, {2, 3} -> "Don" "'t".
std::vector<std::string> cut(const std::vector<CodePoint>& code_points,
                             const std::vector<std::size_t>& lengths) {
  std::vector<std::string> words;
  std::size_t begin = 0;
  for (std::size_t length : lengths) {
    words.push_back(encode_range(code_points, begin, begin + length));
    begin += length;
  }
  return words;
}

// The table's words in the token's spelling when they spell it ("Cannot" -> "Can" "not"),
// else as the table has them.
std::vector<std::string> from_table(const std::vector<CodePoint>& code_points,
                                    const std::vector<std::string>& words) {
  std::vector<std::size_t> lengths;
  std::size_t total = 0;
  for (const std::string& word : words) {
    lengths.push_back(count_code_points(word));
    total += lengths.back();
  }
  if (total != code_points.size()) return words;
  std::vector<std::string> pieces = cut(code_points, lengths);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (to_lower(pieces[i]) != words[i]) return words;
  }
  return pieces;
}

bool has_letter_before(const std::vector<CodePoint>& code_points, std::size_t end) {
  for (std::size_t i = 0; i < end; ++i) {
    if (is_letter(code_points[i].value)) return true;
  }
  return false;
}

// Length of the clitic ending the token: "n't" 3, "'s" 2, "'ll" 3, "s'" 1; 0 for none.
std::size_t clitic_length(const std::vector<CodePoint>& code_points) {
  const std::size_t size = code_points.size();
  auto lower_at = [&](std::size_t from_end) {
    return to_lower(code_points[size - from_end].value);
  };
  if (size >= 4 && lower_at(3) == 'n' && is_apostrophe(lower_at(2)) && lower_at(1) == 't' &&
      has_letter_before(code_points, size - 3)) {
    return 3;
  }
  static constexpr std::u32string_view kClitics[] = {U"s", U"m", U"d", U"re", U"ve", U"ll"};
  for (std::u32string_view clitic : kClitics) {
    const std::size_t length = clitic.size() + 1;
    if (size <= length || !is_apostrophe(lower_at(length))) continue;
    bool matches = true;
    for (std::size_t i = 0; i < clitic.size(); ++i) {
      matches = matches && lower_at(clitic.size() - i) == clitic[i];
    }
    if (matches && has_letter_before(code_points, size - length)) return length;
  }
  // Negations written without the apostrophe: "havent" -> "have" "nt", "cant" -> "ca" "nt".
  static constexpr std::u32string_view kNegatedStems[] = {
      U"have", U"has",   U"had",   U"is",     U"are",  U"was",  U"were", U"does", U"did",
      U"do",   U"would", U"could", U"should", U"must", U"need", U"ca",   U"wo",   U"ai"};
  if (size >= 4 && lower_at(2) == 'n' && lower_at(1) == 't') {
    std::u32string stem;
    for (std::size_t i = 0; i + 2 < size; ++i) stem += to_lower(code_points[i].value);
    for (std::u32string_view negated : kNegatedStems) {
      if (stem == negated) return 2;
    }
  }
  // Plural possessive: "parents'" -> "parents" "'".
  if (size >= 3 && (lower_at(1) == '\'' || lower_at(1) == U'\u2019') && lower_at(2) == 's') {
    return 1;
  }
  return 0;
}

}  // namespace

bool its_means_it_is(const std::string& next_word_lowercase) {
  return contains(kAfterItIs, next_word_lowercase);
}

std::vector<std::string> split_multiword(
    const std::string& token, const std::map<std::string, std::vector<std::string>>& table) {
  const std::vector<CodePoint> code_points = decode_utf8(token);
  if (code_points.size() < 2) return {};
  const auto entry = table.find(to_lower(token));
  if (entry != table.end() && entry->second.size() >= 2) {
    return from_table(code_points, entry->second);
  }
  const std::size_t clitic = clitic_length(code_points);
  if (clitic == 0) return {};
  return cut(code_points, {code_points.size() - clitic, clitic});
}

}  // namespace sawtag::text
