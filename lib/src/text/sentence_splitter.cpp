#include "text/sentence_splitter.hpp"

#include <string>
#include <string_view>

#include "text/character_classes.hpp"
#include "text/english_conventions.hpp"

namespace sawtag::text {

namespace {

class Splitter {
 public:
  Splitter(const std::vector<CodePoint>& text, std::vector<PlacedToken>& tokens,
           const SentenceSplitterOptions& options)
      : text_(text), tokens_(tokens), options_(options) {}

  void run() {
    std::vector<PlacedToken> result;
    result.reserve(tokens_.size());
    bool pending_start = true;  // the next token starts a sentence
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      PlacedToken token = tokens_[i];
      const bool paragraph = i == 0 || token.newlines_before >= 2;
      token.starts_paragraph = paragraph;
      token.starts_sentence =
          pending_start || paragraph || (options_.sentence_per_line && token.newlines_before >= 1);
      pending_start = false;
      if (token.starts_sentence) last_sentence_start_ = i;
      if (token.token.kind == TokenKind::abbreviation && abbreviation_ends_sentence(i)) {
        // "etc." -> "etc" "." and the sentence ends.
        PlacedToken period = token;
        period.token = {token.token.last - 1, token.token.last, TokenKind::punctuation};
        period.newlines_before = 0;
        period.space_before = false;
        period.starts_sentence = false;
        period.starts_paragraph = false;
        token.token.last -= 1;
        token.token.kind = TokenKind::word;
        result.push_back(token);
        result.push_back(period);
        pending_start = true;
        continue;
      }
      result.push_back(token);
      if (token.token.kind == TokenKind::punctuation && is_terminal(token.token)) {
        // Closing quotes attached to the terminal, closing brackets and emoticons stay in this
        // sentence: 'he said "no!" Then' -> 'he said "no!"' | 'Then'.
        while (i + 1 < tokens_.size() && !breaks_line(tokens_[i + 1]) &&
               stays_after_terminal(tokens_[i + 1])) {
          result.push_back(tokens_[++i]);
          result.back().starts_sentence = false;
          result.back().starts_paragraph = false;
        }
        pending_start = next_starts_sentence(token.token, i + 1);
      } else if (is_emoticon(token.token) || is_rule(token.token)) {
        // "great :) See you" and "=====" lines end a sentence.
        pending_start = i + 1 < tokens_.size() &&
                        (is_rule(token.token) || is_upper(first_char(tokens_[i + 1].token)));
      } else if (ends_time_stamp(i) || ends_closing(i)) {
        pending_start = true;
      } else if (i + 1 < tokens_.size() &&
                 (is_url(token.token) || is_closing_angle(token.token) || is_closing_bracket(i))) {
        // In EWT train a URL or a "<address>" followed by another URL or a capital ends a
        // sentence nine times out of ten, ")" before a capital 55 times out of 104.
        const ScannedToken& next = tokens_[i + 1].token;
        pending_start =
            is_url(next) || (next.kind == TokenKind::word && is_upper(first_char(next)));
      }
      if (i + 1 < tokens_.size() && (starts_time_stamp(i + 1) || is_rule(tokens_[i + 1].token) ||
                                     is_sentence_starter(i + 1))) {
        pending_start = true;
      }
    }
    tokens_ = std::move(result);
  }

 private:
  char32_t first_char(const ScannedToken& token) const { return text_[token.first].value; }

  // ".", "!!!", "?!", "...", "…".
  bool is_terminal(const ScannedToken& token) const {
    for (std::size_t i = token.first; i < token.last; ++i) {
      if (!is_any_of(text_[i].value, U".!?\u2026")) return false;
    }
    return true;
  }

  bool is_ellipsis(const ScannedToken& token) const {
    if (text_[token.first].value == U'\u2026') return true;
    return token.last - token.first >= 2 && text_[token.first].value == '.' &&
           text_[token.first + 1].value == '.';
  }

  bool stays_after_terminal(const PlacedToken& placed) const {
    const ScannedToken& token = placed.token;
    if (is_emoticon(token)) return true;
    if (token.last - token.first > 2) return false;
    // ". . ." spaced out is one ellipsis.
    if (token.last - token.first == 1 && first_char(token) == '.') return true;
    if (is_any_of(first_char(token), U")]}")) return true;
    return !placed.space_before && is_any_of(first_char(token), U"\"'\u201D\u2019\u00BB");
  }

  bool is_emoticon(const ScannedToken& token) const {
    return token.kind == TokenKind::protected_token && token.last - token.first <= 4 &&
           contains(kEmoticons, encode_range(text_, token.first, token.last));
  }

  // A blank line before the token, or a line break when every line is a sentence.
  bool breaks_line(const PlacedToken& token) const {
    return token.newlines_before >= 2 || (options_.sentence_per_line && token.newlines_before >= 1);
  }

  bool is_url(const ScannedToken& token) const {
    if (token.kind != TokenKind::protected_token || token.last - token.first < 5) return false;
    const std::string start = lowercase_text({token.first, token.first + 4, token.kind});
    return start == "http" || start == "www.";
  }

  // ")" closing a bracket, not a list item's "2)".
  bool is_closing_bracket(std::size_t index) const {
    const ScannedToken& token = tokens_[index].token;
    return token.kind == TokenKind::punctuation && token.last - token.first == 1 &&
           first_char(token) == ')' && index > 0 &&
           tokens_[index - 1].token.kind != TokenKind::number;
  }

  // ">" or ">>", as after "<address>" and "<< File: notes.doc >>".
  bool is_closing_angle(const ScannedToken& token) const {
    return token.kind == TokenKind::punctuation && first_char(token) == '>';
  }

  // A line of "=====", "*****" or "_____".
  bool is_rule(const ScannedToken& token) const {
    return token.kind == TokenKind::punctuation && token.last - token.first >= 5 &&
           is_any_of(first_char(token), U"=*_-~#");
  }

  std::string lowercase_text(const ScannedToken& token) const {
    std::string result;
    for (std::size_t i = token.first; i < token.last; ++i) {
      append_utf8(result, to_lower(text_[i].value));
    }
    return result;
  }

  std::size_t count_of(const ScannedToken& token, char32_t value) const {
    std::size_t count = 0;
    for (std::size_t i = token.first; i < token.last; ++i) count += text_[i].value == value;
    return count;
  }

  // E-mail headers: "08/16/2000 12:05 PM" stands alone, but not "sent on 08/16/2000 ...".
  bool starts_time_stamp(std::size_t index) const {
    if (index + 2 >= tokens_.size()) return false;
    if (index > 0 && tokens_[index - 1].token.kind == TokenKind::word &&
        !is_upper(first_char(tokens_[index - 1].token))) {
      return false;
    }
    const ScannedToken& date = tokens_[index].token;
    const ScannedToken& time = tokens_[index + 1].token;
    const std::string meridiem = lowercase_text(tokens_[index + 2].token);
    return date.kind == TokenKind::number && count_of(date, '/') == 2 &&
           time.kind == TokenKind::number && count_of(time, ':') >= 1 &&
           (meridiem == "am" || meridiem == "pm");
  }

  // "... 12:05 PM" followed by anything.
  bool ends_time_stamp(std::size_t index) const {
    if (index < 1 || tokens_[index].token.last - tokens_[index].token.first != 2) return false;
    const std::string text = lowercase_text(tokens_[index].token);
    if (text != "am" && text != "pm") return false;
    const ScannedToken& time = tokens_[index - 1].token;
    return time.kind == TokenKind::number && count_of(time, ':') >= 1 &&
           is_upper(first_char(tokens_[index].token));
  }

  // The comma of "Thanks, Sean" or "Regards, Kay".
  bool ends_closing(std::size_t index) const {
    if (index < 1 || index + 1 >= tokens_.size() || first_char(tokens_[index].token) != ',' ||
        tokens_[index].token.last - tokens_[index].token.first != 1) {
      return false;
    }
    const std::string closing = lowercase_text(tokens_[index - 1].token);
    return last_sentence_start_ + 1 == index && contains(kClosings, closing) &&
           is_upper(first_char(tokens_[index + 1].token));
  }

  // "know Please call": a starter word right after a word or number.
  bool is_sentence_starter(std::size_t index) const {
    const ScannedToken& previous = tokens_[index - 1].token;
    if (previous.kind != TokenKind::word && previous.kind != TokenKind::number &&
        previous.kind != TokenKind::abbreviation && !is_closing_angle(previous)) {
      return false;
    }
    const ScannedToken& token = tokens_[index].token;
    return token.last - token.first <= 8 &&
           contains(kSentenceStarters, encode_range(text_, token.first, token.last));
  }

  // Whether the token at `next` (after a terminal) starts a new sentence.
  bool next_starts_sentence(const ScannedToken& terminal, std::size_t next) const {
    if (next >= tokens_.size()) return true;
    if (!is_ellipsis(terminal)) return true;
    // "wait... what" goes on; "wait... What" is a new sentence.
    return is_upper(first_char(tokens_[next].token));
  }

  bool abbreviation_ends_sentence(std::size_t index) const {
    // The last word of a paragraph: "... in the U.S." -> "U.S" ".".
    if (index + 1 >= tokens_.size() || breaks_line(tokens_[index + 1])) return true;
    // "Sat. or Sun. Please call" -> "... Sun" "." | "Please call".
    if (is_sentence_starter(index + 1)) return true;
    const std::string lowercase = lowercase_text(tokens_[index].token);
    const PlacedToken& next = tokens_[index + 1];
    // "No. 5" abbreviates "number"; "No. I won't" is the answer "No" and a period.
    if (lowercase == "no.") {
      return next.token.kind != TokenKind::number && first_char(next.token) != '#';
    }
    if (!contains(kFinalAbbreviations, lowercase)) return false;
    return next.space_before && next.token.kind == TokenKind::word &&
           is_upper(first_char(next.token));
  }

  const std::vector<CodePoint>& text_;
  std::vector<PlacedToken>& tokens_;
  const SentenceSplitterOptions& options_;
  std::size_t last_sentence_start_ = 0;  // index in tokens_ of the current sentence's first token
};

}  // namespace

void split_sentences(const std::vector<CodePoint>& text, std::vector<PlacedToken>& tokens,
                     const SentenceSplitterOptions& options) {
  Splitter(text, tokens, options).run();
}

}  // namespace sawtag::text
