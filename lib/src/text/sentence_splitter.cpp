#include "text/sentence_splitter.hpp"

#include <array>
#include <string>
#include <string_view>

#include "text/character_classes.hpp"

namespace sawtag::text {

namespace {

// Abbreviations that are followed by a name, so a capital after them never starts a sentence.
constexpr std::array<std::string_view, 22> kTitles = {
    "mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "mt.", "ft.", "gen.", "gov.", "sen.",
    "rep.", "rev.", "lt.", "col.", "capt.", "sgt.", "no.", "vol.", "fig.", "jr.", "sr."};

bool is_any_of(char32_t value, std::u32string_view set) {
  return set.find(value) != std::u32string_view::npos;
}

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
      token.starts_sentence = pending_start || paragraph ||
                              (options_.sentence_per_line && token.newlines_before >= 1);
      pending_start = false;
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
        // Closing quotes and brackets attached to the terminal stay in this sentence.
        while (i + 1 < tokens_.size() && !tokens_[i + 1].space_before &&
               is_closing(tokens_[i + 1].token)) {
          result.push_back(tokens_[++i]);
          result.back().starts_sentence = false;
          result.back().starts_paragraph = false;
        }
        pending_start = next_starts_sentence(token.token, i + 1);
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

  bool is_closing(const ScannedToken& token) const {
    if (token.last - token.first > 2) return false;
    return is_any_of(first_char(token), U"\"')]}\u201D\u2019\u00BB");
  }

  // Whether the token at `next` (after a terminal) starts a new sentence.
  bool next_starts_sentence(const ScannedToken& terminal, std::size_t next) const {
    if (next >= tokens_.size()) return true;
    if (!is_ellipsis(terminal)) return true;
    // "wait... what" goes on; "wait... What" is a new sentence.
    return is_upper(first_char(tokens_[next].token));
  }

  bool abbreviation_ends_sentence(std::size_t index) const {
    const ScannedToken& token = tokens_[index].token;
    const std::size_t length = token.last - token.first;
    if (length == 2) return false;  // an initial: "M."
    std::string lowercase;
    for (std::size_t i = token.first; i < token.last; ++i) append_utf8(lowercase, to_lower(text_[i].value));
    for (std::string_view title : kTitles) {
      if (lowercase == title) return false;
    }
    if (index + 1 >= tokens_.size() || tokens_[index + 1].newlines_before >= 2) return true;
    const PlacedToken& next = tokens_[index + 1];
    return next.space_before && next.token.kind == TokenKind::word && is_upper(first_char(next.token));
  }

  const std::vector<CodePoint>& text_;
  std::vector<PlacedToken>& tokens_;
  const SentenceSplitterOptions& options_;
};

}  // namespace

void split_sentences(const std::vector<CodePoint>& text, std::vector<PlacedToken>& tokens,
                     const SentenceSplitterOptions& options) {
  Splitter(text, tokens, options).run();
}

}  // namespace sawtag::text
