#include "text/learned_tokenizer.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "sawtag/features.hpp"
#include "text/character_classes.hpp"

namespace sawtag::text {
namespace {

// As the rule tokenizer: whitespace and invisible characters separate words.
bool separates_words(char32_t value) { return is_space(value) || is_invisible(value); }

// The surface tokens of a sentence: a multi-word token's form stands for its words.
// "du chat" (words "de" "le" "chat") -> "du" "chat".
std::vector<std::string> surface_tokens(const Sentence& sentence) {
  std::vector<std::string> tokens;
  std::size_t next_multiword = 0;
  for (std::size_t i = 0; i < sentence.words.size(); ++i) {
    while (next_multiword < sentence.multiword_tokens.size() &&
           sentence.multiword_tokens[next_multiword].first < static_cast<int>(i) + 1) {
      ++next_multiword;
    }
    if (next_multiword < sentence.multiword_tokens.size() &&
        sentence.multiword_tokens[next_multiword].first == static_cast<int>(i) + 1) {
      const MultiwordToken& multiword = sentence.multiword_tokens[next_multiword];
      tokens.push_back(multiword.token.form);
      i = static_cast<std::size_t>(std::max(multiword.last, multiword.first)) - 1;
      continue;
    }
    tokens.push_back(sentence.words[i].form);
  }
  return tokens;
}

// The characters of a form the model sees: whitespace left out. "New York" -> N e w Y o r k.
std::vector<std::string> visible_characters(const std::string& form) {
  std::vector<std::string> characters;
  for (std::string& character : word_characters(form)) {
    const std::vector<CodePoint> decoded = decode_utf8(character);
    if (!decoded.empty() && separates_words(decoded.front().value)) continue;
    characters.push_back(std::move(character));
  }
  return characters;
}

// The first character of a character pair (a model "word"): "看到" -> "看".
std::string first_character(const std::string& pair) {
  const std::vector<std::string> characters = word_characters(pair);
  return characters.empty() ? std::string() : characters.front();
}

// A run of code points [first, last) between whitespace, and the whitespace before it.
struct Chunk {
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t newlines_before = 0;
  bool space_before = false;
};

std::vector<Chunk> chunks_of(const std::vector<CodePoint>& code_points) {
  std::vector<Chunk> chunks;
  std::size_t position = 0;
  while (position < code_points.size()) {
    Chunk chunk;
    const std::size_t space_begin = position;
    while (position < code_points.size() && separates_words(code_points[position].value)) {
      chunk.newlines_before += code_points[position].value == '\n';
      ++position;
    }
    if (position == code_points.size()) break;
    chunk.space_before = position > space_begin;
    chunk.first = position;
    while (position < code_points.size() && !separates_words(code_points[position].value)) {
      ++position;
    }
    chunk.last = position;
    chunks.push_back(chunk);
  }
  return chunks;
}

}  // namespace

std::vector<Sentence> character_sequences(const std::vector<Sentence>& treebank,
                                          std::size_t length) {
  std::vector<Sentence> sequences;
  Sentence current;
  const auto add = [&](std::string character, const char* label) {
    if (current.words.size() >= length) {
      sequences.push_back(std::move(current));
      current = Sentence();
    }
    Word word;
    word.form = std::move(character);
    word.upos = label;
    word.xpos = label;
    current.words.push_back(std::move(word));
  };
  for (const Sentence& sentence : treebank) {
    std::vector<std::vector<std::string>> tokens;
    for (const std::string& form : surface_tokens(sentence)) {
      std::vector<std::string> characters = visible_characters(form);
      if (!characters.empty()) tokens.push_back(std::move(characters));
    }
    for (std::size_t t = 0; t < tokens.size(); ++t) {
      for (std::size_t c = 0; c < tokens[t].size(); ++c) {
        const char* label = c + 1 < tokens[t].size() ? kInsideWord
                            : t + 1 < tokens.size()  ? kWordEnd
                                                     : kSentenceEnd;
        add(std::move(tokens[t][c]), label);
      }
    }
  }
  if (!current.words.empty()) sequences.push_back(std::move(current));
  // Each character's "word" is it and the character after it in the text (across sequences).
  for (std::size_t s = 0; s < sequences.size(); ++s) {
    std::vector<Word>& words = sequences[s].words;
    for (std::size_t i = 0; i < words.size(); ++i) {
      const Word* next = i + 1 < words.size()       ? &words[i + 1]
                         : s + 1 < sequences.size() ? &sequences[s + 1].words.front()
                                                    : nullptr;
      if (next != nullptr) words[i].form += first_character(next->form);
    }
  }
  return sequences;
}

std::vector<PlacedToken> learned_tokens(const std::vector<CodePoint>& code_points,
                                        const Tagger& character_tagger, bool sentence_per_line,
                                        const RunTasks& run_tasks) {
  const std::vector<Chunk> chunks = chunks_of(code_points);
  // Paragraphs: chunks [begins[p], begins[p + 1]); each is tagged as one sequence.
  std::vector<std::size_t> begins;
  std::vector<std::vector<std::string>> paragraphs;
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const std::size_t newlines = chunks[c].newlines_before;
    if (c == 0 || newlines >= 2 || (sentence_per_line && newlines >= 1)) {
      begins.push_back(c);
      paragraphs.emplace_back();
    }
    for (std::size_t i = chunks[c].first; i < chunks[c].last; ++i) {
      std::string character;
      append_utf8(character, code_points[i].value);
      paragraphs.back().push_back(std::move(character));
    }
  }
  begins.push_back(chunks.size());
  for (std::vector<std::string>& characters : paragraphs) {
    for (std::size_t i = 0; i + 1 < characters.size(); ++i) {
      characters[i] += first_character(characters[i + 1]);
    }
  }
  // The character model learned from windows of its full length: a long paragraph is cut into
  // those, every half window.
  TagOptions options;
  options.long_sentence = character_tagger.max_window();
  options.long_sentence_window = character_tagger.max_window();
  options.long_sentence_step = character_tagger.max_window() / 2;
  const std::vector<TagResult> tagged =
      tag_in_tasks(character_tagger, paragraphs, options, run_tasks);

  std::vector<PlacedToken> tokens;
  for (std::size_t p = 0; p < paragraphs.size(); ++p) {
    std::size_t character = 0;  // index into paragraphs[p]
    bool starts_sentence = true;
    for (std::size_t c = begins[p]; c < begins[p + 1]; ++c) {
      const Chunk& chunk = chunks[c];
      std::size_t token_first = chunk.first;
      for (std::size_t i = chunk.first; i < chunk.last; ++i, ++character) {
        const std::string& label = tagged[p].words[character].upos;
        if (label == kInsideWord && i + 1 < chunk.last) continue;
        PlacedToken token;
        token.token = ScannedToken{token_first, i + 1, TokenKind::word};
        if (token_first == chunk.first) {
          token.newlines_before = chunk.newlines_before;
          token.space_before = chunk.space_before;
        }
        token.starts_sentence = starts_sentence;
        token.starts_paragraph = starts_sentence && (tokens.empty() || token.newlines_before >= 2);
        tokens.push_back(token);
        starts_sentence = label == kSentenceEnd;
        token_first = i + 1;
      }
    }
  }
  return tokens;
}

}  // namespace sawtag::text
