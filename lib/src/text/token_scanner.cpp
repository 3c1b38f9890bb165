#include "text/token_scanner.hpp"

#include <algorithm>
#include <string_view>

#include "text/character_classes.hpp"
#include "text/english_conventions.hpp"

namespace sawtag::text {

namespace {

bool is_apostrophe(char32_t value) { return value == '\'' || value == U'\u2019' || value == '`'; }

bool is_regional_indicator(char32_t value) { return value >= 0x1F1E6 && value <= 0x1F1FF; }

// Code points that belong to the symbol before them: combining marks (variation selectors and
// the keycap U+20E3 among them), skin-tone modifiers and emoji tag characters.
bool extends_symbol(char32_t value) {
  return is_mark(value) || (value >= 0x1F3FB && value <= 0x1F3FF) ||
         (value >= 0xE0020 && value <= 0xE007F);
}

class ChunkScanner {
 public:
  ChunkScanner(const std::vector<CodePoint>& text, std::size_t first, std::size_t last,
               const AbbreviationTable& abbreviations, std::vector<ScannedToken>& tokens)
      : text_(text), first_(first), last_(last), abbreviations_(abbreviations), tokens_(tokens) {}

  void run() {
    std::size_t position = first_;
    const bool opens_with_single_quote = at(first_) == '\'' || at(first_) == U'\u2018';
    while (position < last_) {
      TokenKind kind = TokenKind::protected_token;
      std::size_t end = match_protected(position);
      if (end == position && is_digit(at(position))) {
        kind = TokenKind::number;
        end = match_number(position);
      }
      if (end == position && is_alphanumeric(at(position)) && at(position) != '_') {
        kind = TokenKind::word;
        end = match_word(position, opens_with_single_quote, kind);
      }
      if (end == position) {
        kind = TokenKind::punctuation;
        end = match_punctuation(position);
      }
      tokens_.push_back({position, end, kind});
      position = end;
    }
  }

 private:
  // The code point at `index`, 0 past the chunk.
  char32_t at(std::size_t index) const { return index < last_ ? text_[index].value : 0; }

  bool starts_token(std::size_t position) const {
    return position == first_ || !is_alphanumeric(at(position - 1));
  }

  bool ascii_prefix_at(std::size_t position, std::string_view prefix) const {
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      if (to_lower(at(position + i)) != static_cast<char32_t>(prefix[i])) return false;
    }
    return true;
  }

  std::string lower_ascii(std::size_t begin, std::size_t end) const {
    std::string result;
    for (std::size_t i = begin; i < end; ++i) {
      const char32_t value = to_lower(at(i));
      if (value >= 0x80) return "";
      result += static_cast<char>(value);
    }
    return result;
  }

  std::size_t match_protected(std::size_t position) {
    if (!starts_token(position)) {
      // "thanks:)" -> "thanks" ":)"
      return is_alphanumeric(at(position)) ? position : match_emoticon(position);
    }
    std::size_t end = match_url(position);
    if (end == position) end = match_file_name(position);
    if (end == position) end = match_email(position);
    if (end == position) end = match_handle(position);
    if (end == position) end = match_emoticon(position);
    if (end == position) end = match_extension(position);
    if (end == position && at(position) == '+' && is_digit(at(position + 1))) {
      end = match_number(position + 1);  // "+1"
    }
    return end;
  }

  // "ld2d-#69366-1.doc", "02-05-02.doc", "4_28_00.doc": names ending in a known extension are
  // one token. The run of name characters is measured once, so a long chunk stays linear.
  std::size_t match_file_name(std::size_t position) {
    if (!is_alphanumeric(at(position))) return position;
    if (position >= file_run_end_) {
      file_run_end_ = position;
      while (file_run_end_ < last_ &&
             (is_alphanumeric(at(file_run_end_)) || is_any_of(at(file_run_end_), U"-#."))) {
        ++file_run_end_;
      }
      file_name_end_ = file_run_end_;
      while (file_name_end_ > position && is_any_of(at(file_name_end_ - 1), U".-#"))
        --file_name_end_;
      std::size_t extension = file_name_end_;
      while (extension > position && is_letter(at(extension - 1))) --extension;
      const bool is_file_name = extension > position + 1 && at(extension - 1) == '.' &&
                                file_name_end_ - extension <= 4 &&
                                contains(kExtensions, lower_ascii(extension, file_name_end_));
      if (!is_file_name) file_name_end_ = 0;
    }
    return file_name_end_ > position ? file_name_end_ : position;
  }

  // ".doc" standing alone.
  std::size_t match_extension(std::size_t position) const {
    if (at(position) != '.' || !is_letter(at(position + 1))) return position;
    std::size_t end = position + 1;
    while (end < last_ && end - position <= 5 && is_letter(at(end))) ++end;
    if (is_alphanumeric(at(end)) || !contains(kExtensions, lower_ascii(position + 1, end))) {
      return position;
    }
    return end;
  }

  // "http://x.org/a_(b))." -> "http://x.org/a_(b)": trailing punctuation and unbalanced
  // closing brackets are left out.
  std::size_t match_url(std::size_t position) const {
    const bool is_url =
        std::any_of(std::begin(kUrlPrefixes), std::end(kUrlPrefixes), [&](std::string_view prefix) {
          return ascii_prefix_at(position, prefix) && is_alphanumeric(at(position + prefix.size()));
        });
    if (!is_url) return position;
    std::size_t end = last_;
    long open_brackets = 0;
    for (std::size_t i = position; i < end; ++i) {
      open_brackets += at(i) == '(';
      open_brackets -= at(i) == ')';
    }
    while (end > position + 4) {
      const char32_t value = at(end - 1);
      if (value == ')' && open_brackets < 0) {
        ++open_brackets;
      } else if (!is_any_of(value, U".,;:!?\"'>]\u201D\u2019\u00BB")) {
        break;
      }
      --end;
    }
    return end;
  }

  // "john.doe@mail.example.com" as one token. The part before "@" is measured once per run of
  // characters, so scanning a long chunk stays linear.
  std::size_t match_email(std::size_t position) {
    if (!is_alphanumeric(at(position))) return position;
    if (position >= local_run_end_) {
      local_run_end_ = position;
      while (local_run_end_ < last_ &&
             (is_alphanumeric(at(local_run_end_)) || is_any_of(at(local_run_end_), U".%+-'"))) {
        ++local_run_end_;
      }
      domain_end_ = local_run_end_;
      if (at(local_run_end_) == '@') {
        std::size_t end = local_run_end_ + 1;
        while (end < last_ && (is_alphanumeric(at(end)) || at(end) == '-' || at(end) == '.')) ++end;
        while (end > local_run_end_ + 1 && (at(end - 1) == '.' || at(end - 1) == '-')) --end;
        // Enron's "Warner@ENRON" has no dot.
        if (end > local_run_end_ + 1 && is_alphanumeric(at(local_run_end_ + 1))) domain_end_ = end;
      }
    }
    return domain_end_ > local_run_end_ ? domain_end_ : position;
  }

  // "@sawtag", "#nlp", "@example.com"; "#9" is "#" "9".
  std::size_t match_handle(std::size_t position) const {
    const char32_t sign = at(position);
    // "@ 2.975" is a price: a handle starts with a letter.
    if ((sign != '@' && sign != '#') || !is_letter(at(position + 1))) return position;
    std::size_t end = position + 1;
    while (end < last_ && (is_alphanumeric(at(end)) ||
                           (at(end) == '.' && sign == '@' && is_alphanumeric(at(end + 1))))) {
      ++end;
    }
    return end > position + 1 ? end : position;
  }

  std::size_t match_emoticon(std::size_t position) const {
    for (std::string_view emoticon : kEmoticons) {
      bool matches = true;
      for (std::size_t i = 0; i < emoticon.size() && matches; ++i) {
        matches = at(position + i) == static_cast<char32_t>(emoticon[i]);
      }
      if (!matches) continue;
      const std::size_t end = position + emoticon.size();
      if (is_alphanumeric(at(end))) continue;  // ":Do" is ":" "Do"
      return end;
    }
    return position;
  }

  // "1,000.50", "5:00", "12/31/01", "555-1234", "8-7-01", "21st"; "1969-1970" and "5pm" are
  // split.
  std::size_t match_number(std::size_t position) const {
    std::size_t end = position;
    while (is_digit(at(end))) ++end;
    const std::size_t first_group = end - position;
    bool plain = true;
    while (is_any_of(at(end), U",.:/") && is_digit(at(end + 1))) {
      plain = false;
      ++end;
      while (is_digit(at(end))) ++end;
    }
    if (plain && at(end) == '-' && is_digit(at(end + 1))) {
      std::size_t chain_end = end;
      std::size_t groups = 1;
      std::size_t last_group = 0;
      while (at(chain_end) == '-' && is_digit(at(chain_end + 1))) {
        ++chain_end;
        const std::size_t group_begin = chain_end;
        while (is_digit(at(chain_end))) ++chain_end;
        last_group = chain_end - group_begin;
        ++groups;
      }
      // Phone numbers stay whole ("555-1234", "3-5213"); ranges are split ("1969-1970").
      if (groups >= 3 || (first_group <= 3 && last_group == 4)) end = chain_end;
    }
    // "70's" is one token.
    if ((at(end) == '\'' || at(end) == U'\u2019') && (at(end + 1) == 's' || at(end + 1) == 'S') &&
        !is_alphanumeric(at(end + 2))) {
      return end + 2;
    }
    if (is_letter(at(end))) {
      std::size_t letters_end = end;
      while (is_letter(at(letters_end))) ++letters_end;
      const std::string suffix = lower_ascii(end, letters_end);
      if (contains(kNumberSuffixes, suffix) && !is_alphanumeric(at(letters_end)))
        return letters_end;
      if (contains(kNumberUnits, suffix) && !is_alphanumeric(at(letters_end))) return end;
      while (is_alphanumeric(at(letters_end))) ++letters_end;
      return letters_end;
    }
    return end;
  }

  bool keeps_hyphen(std::size_t segment_begin, std::size_t hyphen) const {
    if (hyphen - segment_begin > 7) return false;
    return contains(kHyphenPrefixes, lower_ascii(segment_begin, hyphen));
  }

  bool is_abbreviation(std::size_t begin, std::size_t period, bool has_inner_period) const {
    const std::size_t length = period - begin;
    // An initial: "John F. Kennedy"; "I." ends a sentence ("taller than I.").
    if (length == 1 && is_upper(at(begin))) return at(begin) != 'I';
    std::string candidate;
    for (std::size_t i = begin; i <= period; ++i) append_utf8(candidate, at(i));
    if (abbreviations_.exact.count(candidate) > 0) return true;
    if (abbreviations_.lowercase.count(to_lower(candidate)) > 0) return true;
    if (!has_inner_period) return false;
    // "U.S" "e.g" "a.m" "Ph.D": segments of one or two letters between periods.
    std::size_t segment = 0;
    for (std::size_t i = begin; i < period; ++i) {
      if (at(i) == '.') {
        segment = 0;
      } else if (!is_letter(at(i)) || ++segment > 2) {
        return false;
      }
    }
    return true;
  }

  std::size_t match_word(std::size_t position, bool opens_with_single_quote,
                         TokenKind& kind) const {
    std::size_t end = position;
    std::size_t segment_begin = position;  // after the last hyphen
    bool has_inner_period = false;
    while (is_alphanumeric(at(end))) ++end;
    if (end - position == 4 && !is_any_of(at(end), U"'\u2019`&.-/") &&
        contains(kGluedWords, lower_ascii(position, end))) {
      return position + 1;  // "alot" -> "a" "lot"
    }
    for (;;) {
      const char32_t joiner = at(end);
      const char32_t next = at(end + 1);
      bool joins = false;
      if (is_apostrophe(joiner)) {
        joins = is_letter(next);  // "don't", "O'Brien"
      } else if (joiner == '&') {
        joins = is_letter(next) && is_letter(at(end - 1));  // "AT&T"
      } else if (joiner == '.') {
        joins = is_alphanumeric(next);  // "U.S", "google.com"
        has_inner_period = has_inner_period || joins;
      } else if (joiner == '-') {
        joins = is_alphanumeric(next) && keeps_hyphen(segment_begin, end);  // "e-mail"
        if (joins) segment_begin = end + 1;
      } else if (joiner == '/') {
        // "w/o", "l/c": one letter before the slash.
        joins = is_letter(next) && end - position == 1;
      }
      if (!joins) break;
      ++end;
      while (is_alphanumeric(at(end))) ++end;
    }
    // "Inc.." is "Inc." "." but "etc..." is "etc" "...".
    const bool single_period =
        at(end + 1) != '.' || (at(end + 2) != '.' && at(end + 2) != '?' && at(end + 2) != '!');
    if (at(end) == '.' && single_period && is_abbreviation(position, end, has_inner_period)) {
      kind = TokenKind::abbreviation;
      return end + 1;
    }
    // "parents'" is a possessive (a multi-word token later) unless the chunk opened a quote.
    if ((at(end) == '\'' || at(end) == U'\u2019') && !opens_with_single_quote &&
        (at(end - 1) == 's' || at(end - 1) == 'S') && !is_alphanumeric(at(end + 1))) {
      return end + 1;
    }
    return end;
  }

  std::size_t match_punctuation(std::size_t position) const {
    const char32_t value = at(position);
    std::size_t end = position + 1;
    if (is_any_of(value, U".!?")) {
      // "!!!", "?!", ".?", "..?" are one token; "...?" is "..." "?" as EWT mostly has it.
      while (at(end) == '.') ++end;
      if (end - position < 3) {
        while (is_any_of(at(end), U".!?")) ++end;
      }
    } else if (value == U'\u2026') {
      while (at(end) == value) ++end;
    } else if (is_any_of(value, U"-*=~_$+/\\")) {
      while (at(end) == value) ++end;  // "--", "***", "$$$"
    } else if (is_any_of(value, U"'`<>") && at(end) == value) {
      ++end;  // "``", "''", "<<"
    } else if ((value == U'\u2018' || value == U'\u2019') &&
               (at(end) == U'\u2018' || at(end) == U'\u2019')) {
      ++end;  // "‘’"
    }
    return extend_symbol(position, end);
  }

  // An emoji sequence is one token: "👍🏽" (with a skin tone), "👩‍💻" (joined by
  // U+200D), "🇺🇸" (a pair of regional indicators), "❤️" (with a variation selector).
  std::size_t extend_symbol(std::size_t position, std::size_t end) const {
    if (end == position + 1 && is_regional_indicator(at(position)) &&
        is_regional_indicator(at(end))) {
      ++end;
    }
    while (true) {
      if (extends_symbol(at(end))) {
        ++end;
      } else if (at(end) == U'\u200D' && is_punctuation_or_symbol(at(end + 1))) {
        end += 2;
      } else {
        return end;
      }
    }
  }

  const std::vector<CodePoint>& text_;
  std::size_t first_;
  std::size_t last_;
  const AbbreviationTable& abbreviations_;
  std::vector<ScannedToken>& tokens_;
  // match_file_name's memory of the last run of name characters and the name's end (0: none).
  std::size_t file_run_end_ = 0;
  std::size_t file_name_end_ = 0;
  // match_email's memory of the last run before a possible "@" and the domain after it.
  std::size_t local_run_end_ = 0;
  std::size_t domain_end_ = 0;
};

}  // namespace

void scan_chunk(const std::vector<CodePoint>& text, std::size_t first, std::size_t last,
                const AbbreviationTable& abbreviations, std::vector<ScannedToken>& tokens) {
  ChunkScanner(text, first, last, abbreviations, tokens).run();
}

AbbreviationTable builtin_abbreviations() {
  AbbreviationTable table;
  for (std::string_view abbreviation : kCasedAbbreviations) table.exact.emplace(abbreviation);
  for (std::string_view abbreviation : kCaselessAbbreviations)
    table.lowercase.emplace(abbreviation);
  return table;
}

}  // namespace sawtag::text
