#include "sawtag/tokenizer.hpp"

#include "sawtag/tagger.hpp"
#include "text/character_classes.hpp"
#include "text/learned_tokenizer.hpp"
#include "text/multiword_splitter.hpp"
#include "text/sentence_splitter.hpp"
#include "text/token_scanner.hpp"
#include "text/utf8.hpp"

namespace sawtag {

struct Tokenizer::Tables {
  text::AbbreviationTable abbreviations;
  std::shared_ptr<const Tagger> characters;  // the learned tokenizer's model, or null: the rules
};

namespace {

using text::CodePoint;
using text::PlacedToken;

// Words are separated by whitespace and by invisible characters: "I\0saw" -> "I" "saw", and a
// byte-order mark before the first word is not a word.
bool separates_words(char32_t value) { return text::is_space(value) || text::is_invisible(value); }

// Whitespace-separated chunks -> scanned tokens with the whitespace before each.
std::vector<PlacedToken> scan(const std::vector<CodePoint>& code_points,
                              const text::AbbreviationTable& abbreviations) {
  std::vector<PlacedToken> placed;
  std::vector<text::ScannedToken> scanned;
  std::size_t position = 0;
  while (position < code_points.size()) {
    std::size_t newlines = 0;
    const std::size_t space_begin = position;
    while (position < code_points.size() && separates_words(code_points[position].value)) {
      newlines += code_points[position].value == '\n';
      ++position;
    }
    if (position == code_points.size()) break;
    std::size_t chunk_end = position;
    while (chunk_end < code_points.size() && !separates_words(code_points[chunk_end].value)) {
      ++chunk_end;
    }
    scanned.clear();
    text::scan_chunk(code_points, position, chunk_end, abbreviations, scanned);
    for (std::size_t i = 0; i < scanned.size(); ++i) {
      PlacedToken token;
      token.token = scanned[i];
      if (i == 0) {
        token.newlines_before = newlines;
        token.space_before = position > space_begin;
      }
      placed.push_back(token);
    }
    position = chunk_end;
  }
  return placed;
}

// The text of code points [first, last) for a "# text" comment: valid UTF-8, each run of
// separators holding a line break becomes one space, and a control character a space.
// "Hi\r\nyou" -> "Hi you", "Hi\0you" -> "Hi you".
std::string sentence_text(const std::vector<CodePoint>& code_points, std::size_t first,
                          std::size_t last) {
  std::string text;
  for (std::size_t i = first; i < last; ++i) {
    if (!separates_words(code_points[i].value)) {
      text::append_utf8(text, code_points[i].value);
      continue;
    }
    std::size_t run_end = i;
    bool has_line_break = false;
    while (run_end < last && separates_words(code_points[run_end].value)) {
      has_line_break = has_line_break || code_points[run_end].value == '\n' ||
                       code_points[run_end].value == '\r';
      ++run_end;
    }
    if (has_line_break) {
      text += ' ';
    } else {
      for (std::size_t j = i; j < run_end; ++j) {
        const char32_t value = code_points[j].value;
        text::append_utf8(text, text::is_control(value) ? U' ' : value);
      }
    }
    i = run_end - 1;
  }
  return text;
}

// The words of a scanned word token, or {} when it is one word. "its" depends on the next
// token: "its a deal" -> "it" "s", "its tail" stays.
std::vector<std::string> split_token(const std::string& form,
                                     const std::vector<CodePoint>& code_points,
                                     const PlacedToken* next, const TokenizerData& data) {
  std::vector<std::string> parts = text::split_multiword(form, data.multiword_tokens);
  if (!parts.empty() || next == nullptr || form.size() != 3 || text::to_lower(form) != "its") {
    return parts;
  }
  const std::string next_word =
      text::to_lower(text::encode_range(code_points, next->token.first, next->token.last));
  if (!text::its_means_it_is(next_word)) return parts;
  return text::split_multiword(form, {{"its", {"it", "s"}}});  // "Its" -> "It" "s"
}

// Where a part that begins at `begin` ends at the latest: the end of the text, or the first
// ASCII whitespace from begin + max_bytes on (a word boundary that splits no UTF-8 sequence).
std::size_t part_limit(std::string_view text, std::size_t begin, std::size_t max_bytes) {
  if (text.size() - begin <= max_bytes) return text.size();
  const std::size_t space = text.find_first_of(" \t\n\r\f\v", begin + max_bytes);
  return space == std::string_view::npos ? text.size() : space;
}

// The splitter decides whether a ")" or an "AM"/"PM" ends a sentence from the token before it
// ("12:05 PM", "(2) Call"), so a part must not begin with one: the part would not see that token.
bool depends_on_token_before(const std::vector<CodePoint>& code_points, const PlacedToken& token) {
  const std::size_t length = token.token.last - token.token.first;
  if (length == 1) return code_points[token.token.first].value == ')';
  if (length != 2) return false;
  const std::string lowercase =
      text::to_lower(text::encode_range(code_points, token.token.first, token.token.last));
  return lowercase == "am" || lowercase == "pm";
}

// The last token after the first that starts a sentence at a word boundary (whitespace before
// it) and that a part may begin with; 0 when there is none.
std::size_t last_restart(const std::vector<CodePoint>& code_points,
                         const std::vector<PlacedToken>& tokens) {
  for (std::size_t i = tokens.size(); i-- > 1;) {
    if (tokens[i].starts_sentence && tokens[i].space_before &&
        !depends_on_token_before(code_points, tokens[i])) {
      return i;
    }
  }
  return 0;
}

// Where a part of a text tokenized by a learned tokenizer ends at the latest: the end of the
// text, or the first code point boundary from begin + max_bytes on (Chinese has no spaces).
std::size_t code_point_limit(std::string_view text, std::size_t begin, std::size_t max_bytes) {
  if (text.size() - begin <= max_bytes) return text.size();
  std::size_t limit = begin + max_bytes;
  while (limit < text.size() && (static_cast<unsigned char>(text[limit]) & 0xC0) == 0x80) ++limit;
  return limit;
}

// The last token after the first that starts a sentence; 0 when there is none.
std::size_t last_sentence_start(const std::vector<PlacedToken>& tokens) {
  for (std::size_t i = tokens.size(); i-- > 1;) {
    if (tokens[i].starts_sentence) return i;
  }
  return 0;
}

// Scanned tokens, sentence starts marked: by the learned model when there is one.
// `characters`: the learned tokenizer's model, or null.
std::vector<PlacedToken> tokens_of(const std::vector<CodePoint>& code_points,
                                   const text::AbbreviationTable& abbreviations,
                                   const Tagger* characters, const TokenizerOptions& options,
                                   const RunTasks& run_tasks = {}) {
  if (characters != nullptr) {
    return text::learned_tokens(code_points, *characters, options.sentence_per_line, run_tasks);
  }
  std::vector<PlacedToken> tokens = scan(code_points, abbreviations);
  text::SentenceSplitterOptions splitter_options;
  splitter_options.sentence_per_line = options.sentence_per_line;
  text::split_sentences(code_points, tokens, splitter_options);
  return tokens;
}

// The sentences of tokens[0, num_tokens); the tokens after them are only looked at. `continues`:
// the code points are a part of a longer text that does not begin with them.
std::vector<Sentence> sentences_of(const std::vector<CodePoint>& code_points,
                                   const std::vector<PlacedToken>& tokens, std::size_t num_tokens,
                                   bool continues, const TokenizerData& data) {
  std::vector<Sentence> sentences;
  Sentence current;
  std::size_t sentence_first = 0;  // code point where the current sentence begins
  auto finish_sentence = [&](std::size_t sentence_last) {
    if (current.words.empty()) return;
    current.comments.push_back("# text = " +
                               sentence_text(code_points, sentence_first, sentence_last));
    sentences.push_back(std::move(current));
    current = Sentence();
  };
  for (std::size_t i = 0; i < num_tokens; ++i) {
    const PlacedToken& token = tokens[i];
    if (token.starts_sentence) {
      finish_sentence(tokens[i - (i > 0 ? 1 : 0)].token.last);
      sentence_first = token.token.first;
      // A text's first token starts a paragraph, but a part's only after a blank line.
      const bool new_paragraph = !sentences.empty() || (continues && token.newlines_before >= 2);
      if (token.starts_paragraph && new_paragraph) current.comments.push_back("# newpar");
    }
    const Span span{code_points[token.token.first].begin, code_points[token.token.last - 1].end};
    const bool space_after = i + 1 == tokens.size() || tokens[i + 1].space_before;
    Word surface;
    surface.form = text::encode_range(code_points, token.token.first, token.token.last);
    if (!space_after) surface.misc = "SpaceAfter=No";
    std::vector<std::string> parts;
    if (token.token.kind == text::TokenKind::word) {
      parts = split_token(surface.form, code_points,
                          i + 1 < tokens.size() ? &tokens[i + 1] : nullptr, data);
    }
    if (parts.empty()) {
      current.words.push_back(std::move(surface));
      current.word_spans.push_back(span);
      continue;
    }
    MultiwordToken multiword;
    multiword.first = static_cast<int>(current.words.size()) + 1;
    multiword.last = multiword.first + static_cast<int>(parts.size()) - 1;
    multiword.token = std::move(surface);
    for (std::string& part : parts) {
      Word word;
      word.form = std::move(part);
      current.words.push_back(std::move(word));
      current.word_spans.push_back(span);
    }
    current.multiword_tokens.push_back(std::move(multiword));
  }
  if (num_tokens > 0) finish_sentence(tokens[num_tokens - 1].token.last);
  return sentences;
}

}  // namespace

Tokenizer::Tokenizer(TokenizerData data, TokenizerOptions options)
    : data_(std::move(data)), options_(options) {
  auto tables = std::make_shared<Tables>();
  tables->abbreviations = text::builtin_abbreviations();
  for (const std::string& abbreviation : data_.abbreviations) {
    tables->abbreviations.exact.insert(abbreviation);
  }
  if (data_.character_model) tables->characters = std::make_shared<Tagger>(data_.character_model);
  tables_ = std::move(tables);
}

std::vector<Sentence> Tokenizer::tokenize(std::string_view text) const {
  TokenizerReport report;
  return tokenize(text, report);
}

std::vector<Sentence> Tokenizer::tokenize(std::string_view input, TokenizerReport& report) const {
  const std::vector<CodePoint> code_points =
      text::decode_utf8(input, &report.invalid_utf8_sequences);
  const std::vector<PlacedToken> tokens = tokens_of(code_points, tables_->abbreviations, tables_->characters.get(), options_);
  return sentences_of(code_points, tokens, tokens.size(), false, data_);
}

TokenizedPart Tokenizer::tokenize_part(std::string_view text, std::size_t begin,
                                       std::size_t max_bytes, const RunTasks& run_tasks) const {
  const bool learned = tables_->characters != nullptr;
  const std::size_t window_end =
      learned ? code_point_limit(text, begin, max_bytes) : part_limit(text, begin, max_bytes);
  const std::vector<CodePoint> code_points =
      text::decode_utf8(text.substr(begin, window_end - begin));
  const std::vector<PlacedToken> tokens = tokens_of(
      code_points, tables_->abbreviations, tables_->characters.get(), options_, run_tasks);
  TokenizedPart part;
  part.end = window_end;
  std::size_t num_tokens = tokens.size();
  if (window_end < text.size()) {
    // The window's last sentence may go on after it: it starts the next part, which begins
    // with the whitespace before it. With no sentence start to go back to, the part ends at
    // the window's end and the sentence is cut there.
    const std::size_t restart =
        learned ? last_sentence_start(tokens) : last_restart(code_points, tokens);
    if (restart > 0) {
      num_tokens = restart;
      std::size_t space_begin = tokens[restart].token.first;
      while (space_begin > 0 && separates_words(code_points[space_begin - 1].value)) {
        --space_begin;
      }
      part.end = begin + code_points[space_begin].begin;
    }
  }
  part.sentences = sentences_of(code_points, tokens, num_tokens, begin > 0, data_);
  for (Sentence& sentence : part.sentences) {
    for (Span& span : sentence.word_spans) {
      span.begin += begin;
      span.end += begin;
    }
  }
  return part;
}

}  // namespace sawtag
