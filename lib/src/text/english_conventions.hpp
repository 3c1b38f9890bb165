// How UD English EWT writes things, as the word lists the token scanner and the sentence
// splitter consult. Counts in the comments are from EWT train; dev was used to tune, test never.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

namespace sawtag::text {

// Prefixes EWT keeps attached to the rest of a hyphenated word: "e-mail" (kept 38 times, split
// 2), "non-" (28, 0), "pre-" (15, 0)... Other hyphens are split off ("search-engine" ->
// "search" "-" "engine"): "well-" and "self-" are split every time.
inline constexpr std::string_view kHyphenPrefixes[] = {
    "e",     "non",  "pre",     "anti",  "mid",  "re",    "post", "co",
    "over",  "pro",  "multi",   "ex",    "semi", "cross", "neo",  "psycho",
    "socio", "arch", "counter", "intra", "sub",  "un",    "meh",  "mis"};

// Letters after a number that EWT splits off as a unit: "5pm" -> "5" "pm", "35mm" -> "35" "mm".
inline constexpr std::string_view kNumberUnits[] = {
    "am",  "pm",   "k",   "m",    "mm", "cm",  "km",  "kg", "hz", "lb",
    "lbs", "ft",   "min", "mins", "hr", "hrs", "h",   "x",  "p",  "f",
    "c",   "watt", "gb",  "mb",   "kb", "mph", "yrs", "ml", "oz", "minutes"};

// Ordinal and plural endings that stay on a number: "21st", "1990s".
inline constexpr std::string_view kNumberSuffixes[] = {"st", "nd", "rd", "th", "s"};

// Emoticons, longest first so ":-)" wins over ":)".
inline constexpr std::string_view kEmoticons[] = {
    ":'-(", ":-)", ":-(", ";-)", ":-D", ":-P", ":-p", ":-/", "^_^", "-_-", ":'(",
    ">:(",  ":)",  ":(",  ";)",  ":D",  ":P",  ":p",  ":/",  ":O",  ":o",  ":]",
    ":[",   "=)",  "=(",  "<3",  "^^",  ":|",  ";D",  ":*",  ":?",  "(:"};

// File name extensions: ".doc" standing alone is one token.
inline constexpr std::string_view kExtensions[] = {"doc", "docx", "xls",  "xlsx", "pdf",
                                                   "txt", "htm",  "html", "ppt",  "zip",
                                                   "jpg", "gif",  "com",  "exe"};

// Words EWT writes as two tokens though no space separates them: "alot" -> "a" "lot".
inline constexpr std::string_view kGluedWords[] = {"alot"};

inline constexpr std::string_view kUrlPrefixes[] = {"http://", "https://", "ftp://",
                                                    "www.",    "mailto:",  "file://"};

// Abbreviations matched as written: "Sun." is Sunday, "sun." ends a sentence.
inline constexpr std::string_view kCasedAbbreviations[] = {
    "Mr.",  "Mrs.",  "Ms.",   "Dr.",  "Prof.", "Sr.",   "Jr.",   "St.",  "Mt.",   "Ft.",    "Gen.",
    "Gov.", "Sen.",  "Rep.",  "Rev.", "Lt.",   "Col.",  "Capt.", "Sgt.", "Inc.",  "Corp.",  "Co.",
    "Ltd.", "Bros.", "Jan.",  "Feb.", "Mar.",  "Apr.",  "Jun.",  "Jul.", "Aug.",  "Sep.",   "Sept.",
    "Oct.", "Nov.",  "Dec.",  "Mon.", "Tue.",  "Tues.", "Wed.",  "Thu.", "Thur.", "Thurs.", "Fri.",
    "Sat.", "Sun.",  "No.",   "Vol.", "Fig.",  "U.S.",  "U.K.",  "U.N.", "D.C.",  "L.A.",   "Blvd.",
    "Ave.", "Rd.",   "Attn.", "P.S.", "Ph.D.", "Esq.",  "Dept.", "Sts.", "Drs."};

// Abbreviations matched in any case: "etc.", "ETC.", "E.g.".
inline constexpr std::string_view kCaselessAbbreviations[] = {
    "etc.",   "vs.",     "e.g.", "i.e.", "a.m.", "p.m.", "ect.",
    "a.k.a.", "approx.", "ext.", "cf.",  "et.",  "al."};

// Abbreviations that end a sentence when one ends after them; their period is then split off,
// as EWT does ("etc." is kept whole 19 times, "etc" "." at a sentence end 29 times).
inline constexpr std::string_view kFinalAbbreviations[] = {"etc.", "a.m.", "p.m.", "ect."};

// Capitalised words that start a sentence even right after a word: a boundary comes before
// "Please" 16 times out of 16, "If" 8 of 8, "Attached" 7 of 7, "This" 7 of 10...
inline constexpr std::string_view kSentenceStarters[] = {
    "Please",  "If",  "Attached", "Dear", "Hi",   "Hello", "As",  "Here",
    "Subject", "FYI", "PS",       "Sent", "What", "Are",   "How", "This"};

// Closings of letters: "Thanks, Sean" -> "Thanks," | "Sean" (20 times of 25 for "Thanks").
inline constexpr std::string_view kClosings[] = {"thanks", "regards", "sincerely", "cheers",
                                                 "best"};

// Words after "its" that make it "it's" (EWT: the multi-word token "it" "s"): "its a" 9 of 9,
// "its not" 8 of 8, "its really" 3 of 3; the possessive is followed by a noun or adjective.
inline constexpr std::string_view kAfterItIs[] = {
    "a",       "an",    "not",   "the",        "really", "simply", "very",   "all",    "like",
    "still",   "kind",  "now",   "definitely", "for",    "also",   "only",   "just",   "been",
    "getting", "so",    "too",   "nothing",    "your",   "my",     "pretty", "always", "never",
    "going",   "gonna", "about", "because",    "ok",     "okay",   "no",     "what",   "how"};

template <std::size_t size>
bool contains(const std::string_view (&list)[size], const std::string& value) {
  return std::find(std::begin(list), std::end(list), value) != std::end(list);
}

inline bool is_any_of(char32_t value, std::u32string_view set) {
  return set.find(value) != std::u32string_view::npos;
}

}  // namespace sawtag::text
