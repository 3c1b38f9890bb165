// Lemma rules (sawtag/lemma_rule.hpp): derived from (form, lemma) pairs, applied to forms.
#include "sawtag/lemma_rule.hpp"

#include <utf8proc.h>

#include <cstddef>
#include <string>
#include <vector>

#include "sawtag/error.hpp"
#include "text/utf8.hpp"

namespace sawtag {

namespace {

// Longer strings are matched on their common prefix only, so that deriving a rule stays linear
// in the length of a pathological form (the longest common substring is quadratic).
constexpr std::size_t kMaxSubstringSearch = 64;

std::u32string code_points(std::string_view text) {
  std::u32string out;
  for (const text::CodePoint& code_point : text::decode_utf8(text)) out += code_point.value;
  return out;
}

std::string utf8(const std::u32string& text, std::size_t first, std::size_t last) {
  std::string out;
  for (std::size_t i = first; i < last; ++i) text::append_utf8(out, text[i]);
  return out;
}

std::u32string lowered(std::u32string text) {
  for (char32_t& value : text) {
    value = static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(value)));
  }
  return text;
}

// "tEHRAN" -> "Tehran" (Unicode title case for the first code point).
std::u32string title_cased(std::u32string text) {
  text = lowered(std::move(text));
  if (!text.empty()) {
    text[0] = static_cast<char32_t>(utf8proc_totitle(static_cast<utf8proc_int32_t>(text[0])));
  }
  return text;
}

std::u32string cased(std::u32string text, LemmaRule::Casing casing) {
  switch (casing) {
    case LemmaRule::Casing::lower:
      return lowered(std::move(text));
    case LemmaRule::Casing::title:
      return title_cased(std::move(text));
    default:
      return text;
  }
}

bool is_ascii(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// Where the longest common substring of a and b starts in each, and its length (0 if none);
// the first such in a, then in b.
struct Match {
  std::size_t in_a = 0;
  std::size_t in_b = 0;
  std::size_t length = 0;
};

Match longest_common_substring(const std::u32string& a, const std::u32string& b) {
  Match best;
  if (a.size() > kMaxSubstringSearch || b.size() > kMaxSubstringSearch) {
    while (best.length < a.size() && best.length < b.size() && a[best.length] == b[best.length]) {
      ++best.length;
    }
    return best;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) {
      std::size_t k = 0;
      while (i + k < a.size() && j + k < b.size() && a[i + k] == b[j + k]) ++k;
      if (k > best.length) best = {i, j, k};
    }
  }
  return best;
}

struct Candidate {
  LemmaRule rule;
  std::size_t cost = 0;  // code points stripped and added
};

std::optional<Candidate> edit_around_match(const std::u32string& source,
                                           const std::u32string& lemma, LemmaRule::Casing casing) {
  const Match match = longest_common_substring(source, lemma);
  if (match.length == 0) return std::nullopt;
  Candidate candidate;
  LemmaRule& rule = candidate.rule;
  rule.casing = casing;
  rule.prefix_strip = static_cast<int>(match.in_a);
  rule.prefix_add = utf8(lemma, 0, match.in_b);
  rule.suffix_strip = static_cast<int>(source.size() - match.in_a - match.length);
  rule.suffix_add = utf8(lemma, match.in_b + match.length, lemma.size());
  candidate.cost = match.in_a + match.in_b + (source.size() - match.in_a - match.length) +
                   (lemma.size() - match.in_b - match.length);
  return candidate;
}

// "a|b%" -> "a%7Cb%25": an added text inside a rule's line; unescaped() undoes it.
std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '|') {
      out += "%7C";
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::string> unescaped(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
    } else if (text.substr(i, 3) == "%25") {
      out += '%';
      i += 2;
    } else if (text.substr(i, 3) == "%7C") {
      out += '|';
      i += 2;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

const char* casing_name(LemmaRule::Casing casing) {
  switch (casing) {
    case LemmaRule::Casing::keep:
      return "keep";
    case LemmaRule::Casing::lower:
      return "lower";
    case LemmaRule::Casing::title:
      return "title";
    case LemmaRule::Casing::absolute:
      return "absolute";
  }
  return "keep";
}

}  // namespace

bool LemmaRule::operator==(const LemmaRule& other) const {
  return casing == other.casing && prefix_strip == other.prefix_strip &&
         prefix_add == other.prefix_add && suffix_strip == other.suffix_strip &&
         suffix_add == other.suffix_add;
}

LemmaRule lemma_rule(std::string_view form, std::string_view lemma) {
  const std::u32string source = code_points(form);
  const std::u32string target = code_points(lemma);
  std::optional<Candidate> best = edit_around_match(source, target, LemmaRule::Casing::keep);
  for (LemmaRule::Casing casing : {LemmaRule::Casing::lower, LemmaRule::Casing::title}) {
    const std::u32string cased_source = cased(source, casing);
    if (cased_source == source) continue;
    const std::optional<Candidate> candidate = edit_around_match(cased_source, target, casing);
    if (candidate && (!best || candidate->cost < best->cost)) best = candidate;
  }
  if (best) return best->rule;
  LemmaRule absolute;
  absolute.casing = LemmaRule::Casing::absolute;
  absolute.prefix_add = std::string(lemma);
  return absolute;
}

std::optional<std::string> apply_lemma_rule(const LemmaRule& rule, std::string_view form) {
  if (rule.casing == LemmaRule::Casing::absolute) {
    if (rule.prefix_add.empty()) return std::nullopt;
    return rule.prefix_add;
  }
  if (is_ascii(form) && rule.casing != LemmaRule::Casing::title) {
    // Most words of most texts: bytes are code points, and lower-casing is ASCII's.
    const auto strip =
        static_cast<std::size_t>(rule.prefix_strip) + static_cast<std::size_t>(rule.suffix_strip);
    if (rule.prefix_strip < 0 || rule.suffix_strip < 0 || strip > form.size()) return std::nullopt;
    std::string lemma = rule.prefix_add;
    const std::size_t kept_from = lemma.size();
    lemma.append(form.substr(static_cast<std::size_t>(rule.prefix_strip), form.size() - strip));
    if (rule.casing == LemmaRule::Casing::lower) {
      for (std::size_t i = kept_from; i < lemma.size(); ++i) {
        if (lemma[i] >= 'A' && lemma[i] <= 'Z') lemma[i] = static_cast<char>(lemma[i] - 'A' + 'a');
      }
    }
    lemma += rule.suffix_add;
    if (lemma.empty()) return std::nullopt;
    return lemma;
  }
  const std::u32string source = cased(code_points(form), rule.casing);
  const auto strip =
      static_cast<std::size_t>(rule.prefix_strip) + static_cast<std::size_t>(rule.suffix_strip);
  if (rule.prefix_strip < 0 || rule.suffix_strip < 0 || strip > source.size()) return std::nullopt;
  std::string lemma = rule.prefix_add;
  lemma += utf8(source, static_cast<std::size_t>(rule.prefix_strip),
                source.size() - static_cast<std::size_t>(rule.suffix_strip));
  lemma += rule.suffix_add;
  if (lemma.empty()) return std::nullopt;
  return lemma;
}

std::string lower_case(std::string_view form) {
  if (is_ascii(form)) {
    std::string lower(form);
    for (char& c : lower) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return lower;
  }
  const std::u32string lower = lowered(code_points(form));
  return utf8(lower, 0, lower.size());
}

bool has_lower_case_letter(std::string_view text) {
  for (const text::CodePoint& code_point : text::decode_utf8(text)) {
    const auto value = static_cast<utf8proc_int32_t>(code_point.value);
    if (utf8proc_toupper(value) != value) return true;
  }
  return false;
}

std::string without(std::string_view text, std::string_view character) {
  if (character.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t next = std::min(text.find(character, at), text.size());
    out.append(text, at, next - at);
    at = next == text.size() ? next : next + character.size();
  }
  return out;
}

std::string to_string(const LemmaRule& rule) {
  return std::string(casing_name(rule.casing)) + '|' + std::to_string(rule.prefix_strip) + '|' +
         escaped(rule.prefix_add) + '|' + std::to_string(rule.suffix_strip) + '|' +
         escaped(rule.suffix_add);
}

LemmaRule parse_lemma_rule(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = text.find('|', start);
    fields.push_back(text.substr(start, tab == std::string_view::npos ? text.npos : tab - start));
    if (tab == std::string_view::npos) break;
    start = tab + 1;
  }
  const auto fail = [&](const std::string& why) -> LemmaRule {
    const std::string shown(text.substr(0, 80));
    throw ModelError("lemma rule '" + shown + "': " + why);
  };
  if (fields.size() != 5) return fail("expected 5 fields separated by |");
  const auto count = [&](std::string_view field) {
    if (field.empty() || field.size() > 6) fail("a strip count must be 0-999999");
    int value = 0;
    for (char c : field) {
      if (c < '0' || c > '9') fail("a strip count must be 0-999999");
      value = value * 10 + (c - '0');
    }
    return value;
  };
  LemmaRule rule;
  if (fields[0] == "keep") {
    rule.casing = LemmaRule::Casing::keep;
  } else if (fields[0] == "lower") {
    rule.casing = LemmaRule::Casing::lower;
  } else if (fields[0] == "title") {
    rule.casing = LemmaRule::Casing::title;
  } else if (fields[0] == "absolute") {
    rule.casing = LemmaRule::Casing::absolute;
  } else {
    return fail("casing must be keep, lower, title or absolute");
  }
  rule.prefix_strip = count(fields[1]);
  rule.suffix_strip = count(fields[3]);
  const std::optional<std::string> prefix_add = unescaped(fields[2]);
  const std::optional<std::string> suffix_add = unescaped(fields[4]);
  if (!prefix_add || !suffix_add) return fail("a % in an added text must be %25 or %7C");
  rule.prefix_add = *prefix_add;
  rule.suffix_add = *suffix_add;
  if (rule.casing == LemmaRule::Casing::absolute && rule.prefix_add.empty()) {
    return fail("an absolute rule needs its lemma");
  }
  return rule;
}

}  // namespace sawtag
