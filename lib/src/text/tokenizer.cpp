#include "sawtag/tokenizer.hpp"

#include "text/character_classes.hpp"
#include "text/multiword_splitter.hpp"
#include "text/sentence_splitter.hpp"
#include "text/token_scanner.hpp"
#include "text/utf8.hpp"

namespace sawtag {

struct Tokenizer::Tables {
  text::AbbreviationTable abbreviations;
};

namespace {

using text::CodePoint;
using text::PlacedToken;

// Whitespace-separated chunks -> scanned tokens with the whitespace before each.
std::vector<PlacedToken> scan(const std::vector<CodePoint>& code_points,
                              const text::AbbreviationTable& abbreviations) {
  std::vector<PlacedToken> placed;
  std::vector<text::ScannedToken> scanned;
  std::size_t position = 0;
  while (position < code_points.size()) {
    std::size_t newlines = 0;
    const std::size_t space_begin = position;
    while (position < code_points.size() && text::is_space(code_points[position].value)) {
      newlines += code_points[position].value == '\n';
      ++position;
    }
    if (position == code_points.size()) break;
    std::size_t chunk_end = position;
    while (chunk_end < code_points.size() && !text::is_space(code_points[chunk_end].value)) {
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

// The text of a sentence for its "# text" comment: line breaks and tabs become spaces.
std::string sentence_text(std::string_view input, std::size_t begin, std::size_t end) {
  std::string text(input.substr(begin, end - begin));
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return text;
}

}  // namespace

Tokenizer::Tokenizer(TokenizerData data, TokenizerOptions options)
    : data_(std::move(data)), options_(options) {
  auto tables = std::make_shared<Tables>();
  tables->abbreviations = text::builtin_abbreviations();
  for (const std::string& abbreviation : data_.abbreviations) {
    tables->abbreviations.exact.insert(abbreviation);
  }
  tables_ = std::move(tables);
}

std::vector<Sentence> Tokenizer::tokenize(std::string_view text) const {
  TokenizerReport report;
  return tokenize(text, report);
}

std::vector<Sentence> Tokenizer::tokenize(std::string_view input, TokenizerReport& report) const {
  const std::vector<CodePoint> code_points =
      text::decode_utf8(input, &report.invalid_utf8_sequences);
  std::vector<PlacedToken> tokens = scan(code_points, tables_->abbreviations);
  text::SentenceSplitterOptions splitter_options;
  splitter_options.sentence_per_line = options_.sentence_per_line;
  text::split_sentences(code_points, tokens, splitter_options);

  std::vector<Sentence> sentences;
  auto finish_sentence = [&](Sentence& sentence) {
    if (sentence.words.empty()) return;
    const std::size_t begin = sentence.word_spans.front().begin;
    const std::size_t end = sentence.word_spans.back().end;
    sentence.comments.push_back("# text = " + sentence_text(input, begin, end));
    sentences.push_back(std::move(sentence));
    sentence = Sentence();
  };
  Sentence current;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const PlacedToken& token = tokens[i];
    if (token.starts_sentence) finish_sentence(current);
    if (token.starts_paragraph && !sentences.empty() && current.words.empty()) {
      current.comments.push_back("# newpar");
    }
    const Span span{code_points[token.token.first].begin, code_points[token.token.last - 1].end};
    const bool space_after = i + 1 == tokens.size() || tokens[i + 1].space_before;
    Word surface;
    surface.form = text::encode_range(code_points, token.token.first, token.token.last);
    if (!space_after) surface.misc = "SpaceAfter=No";
    std::vector<std::string> parts;
    if (token.token.kind == text::TokenKind::word) {
      parts = text::split_multiword(surface.form, data_.multiword_tokens);
      if (parts.empty() && i + 1 < tokens.size() && text::to_lower(surface.form) == "its") {
        const text::ScannedToken& next = tokens[i + 1].token;
        if (text::its_means_it_is(text::to_lower(text::encode_range(code_points, next.first,
                                                                    next.last)))) {
          parts = text::split_multiword(surface.form, {{"its", {"it", "s"}}});  // "Its" -> "It" "s"
        }
      }
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
  finish_sentence(current);
  return sentences;
}

}  // namespace sawtag
