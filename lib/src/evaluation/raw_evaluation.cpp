#include "sawtag/raw_evaluation.hpp"

#include <utf8proc.h>

#include <algorithm>

#include "sawtag/column_match.hpp"
#include "sawtag/error.hpp"
#include "text/utf8.hpp"

namespace sawtag {

namespace {

// Characters [begin, end) of the whitespace-free text.
struct CharacterSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};

struct AlignedWord {
  CharacterSpan span;  // of the word, or of its whole multi-word token
  bool is_multiword = false;
  std::u32string lower_form;
  const Word* word = nullptr;
};

// A corpus as conll18_ud_eval.py sees it.
struct Flattened {
  std::u32string characters;
  std::vector<CharacterSpan> tokens;
  std::vector<AlignedWord> words;
  std::vector<CharacterSpan> sentences;
};

bool is_space_separator(char32_t value) {
  return utf8proc_category(static_cast<utf8proc_int32_t>(value)) == UTF8PROC_CATEGORY_ZS;
}

// Appends `form` without its Zs characters; returns its span.
CharacterSpan append_form(Flattened& corpus, const std::string& form) {
  const std::size_t begin = corpus.characters.size();
  for (const text::CodePoint& code_point : text::decode_utf8(form)) {
    if (!is_space_separator(code_point.value)) corpus.characters += code_point.value;
  }
  return {begin, corpus.characters.size()};
}

std::u32string lower(const std::string& form) {
  std::u32string result;
  for (const text::CodePoint& code_point : text::decode_utf8(form)) {
    result +=
        static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(code_point.value)));
  }
  return result;
}

Flattened flatten(const std::vector<Sentence>& sentences) {
  Flattened corpus;
  for (const Sentence& sentence : sentences) {
    const std::size_t sentence_begin = corpus.characters.size();
    std::size_t next_token = 0;  // index into multiword_tokens
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
      const int id = static_cast<int>(i) + 1;
      while (next_token < sentence.multiword_tokens.size() &&
             sentence.multiword_tokens[next_token].last < id) {
        ++next_token;
      }
      if (next_token < sentence.multiword_tokens.size() &&
          sentence.multiword_tokens[next_token].first == id) {
        const MultiwordToken& token = sentence.multiword_tokens[next_token];
        const CharacterSpan span = append_form(corpus, token.token.form);
        corpus.tokens.push_back(span);
        const auto last = std::min(static_cast<std::size_t>(token.last), sentence.words.size());
        for (std::size_t j = i; j < last; ++j) {
          const Word& word = sentence.words[j];
          corpus.words.push_back({span, true, lower(word.form), &word});
        }
        i = last - 1;
        ++next_token;
        continue;
      }
      const Word& word = sentence.words[i];
      const CharacterSpan span = append_form(corpus, word.form);
      corpus.tokens.push_back(span);
      corpus.words.push_back({span, false, lower(word.form), &word});
    }
    if (!sentence.words.empty())
      corpus.sentences.push_back({sentence_begin, corpus.characters.size()});
  }
  return corpus;
}

// Units with the same begin and end.
RawScore spans_score(const std::vector<CharacterSpan>& gold,
                     const std::vector<CharacterSpan>& system) {
  RawScore score;
  score.gold_total = gold.size();
  score.system_total = system.size();
  std::size_t gold_index = 0;
  std::size_t system_index = 0;
  while (gold_index < gold.size() && system_index < system.size()) {
    if (system[system_index].begin < gold[gold_index].begin) {
      ++system_index;
    } else if (gold[gold_index].begin < system[system_index].begin) {
      ++gold_index;
    } else {
      score.correct += gold[gold_index].end == system[system_index].end;
      ++gold_index;
      ++system_index;
    }
  }
  return score;
}

using Alignment = std::vector<std::pair<const AlignedWord*, const AlignedWord*>>;  // gold, system

bool beyond_end(const std::vector<AlignedWord>& words, std::size_t index, std::size_t span_end) {
  if (index >= words.size()) return true;
  if (words[index].is_multiword) return words[index].span.begin >= span_end;
  return words[index].span.end > span_end;
}

std::size_t extend_end(const AlignedWord& word, std::size_t span_end) {
  return word.is_multiword && word.span.end > span_end ? word.span.end : span_end;
}

// Aligns gold[gold_begin, gold_end) with system[system_begin, system_end) by the longest common
// subsequence of lower-cased forms.
void align_by_lcs(const std::vector<AlignedWord>& gold, const std::vector<AlignedWord>& system,
                  std::size_t gold_begin, std::size_t gold_end, std::size_t system_begin,
                  std::size_t system_end, Alignment& alignment) {
  const std::size_t rows = gold_end - gold_begin;
  const std::size_t columns = system_end - system_begin;
  // lcs[g][s]: the LCS length of gold suffix g and system suffix s; one extra row and column of 0.
  std::vector<std::vector<std::size_t>> lcs(rows + 1, std::vector<std::size_t>(columns + 1, 0));
  for (std::size_t g = rows; g-- > 0;) {
    for (std::size_t s = columns; s-- > 0;) {
      if (gold[gold_begin + g].lower_form == system[system_begin + s].lower_form) {
        lcs[g][s] = 1 + lcs[g + 1][s + 1];
      }
      lcs[g][s] = std::max({lcs[g][s], lcs[g + 1][s], lcs[g][s + 1]});
    }
  }
  std::size_t g = 0;
  std::size_t s = 0;
  while (g < rows && s < columns) {
    if (gold[gold_begin + g].lower_form == system[system_begin + s].lower_form) {
      alignment.emplace_back(&gold[gold_begin + g], &system[system_begin + s]);
      ++g;
      ++s;
    } else if (lcs[g][s] == lcs[g + 1][s]) {
      ++g;
    } else {
      ++s;
    }
  }
}

Alignment align_words(const std::vector<AlignedWord>& gold,
                      const std::vector<AlignedWord>& system) {
  Alignment alignment;
  std::size_t gold_index = 0;
  std::size_t system_index = 0;
  while (gold_index < gold.size() && system_index < system.size()) {
    if (!gold[gold_index].is_multiword && !system[system_index].is_multiword) {
      const CharacterSpan& gold_span = gold[gold_index].span;
      const CharacterSpan& system_span = system[system_index].span;
      if (gold_span.begin == system_span.begin && gold_span.end == system_span.end) {
        alignment.emplace_back(&gold[gold_index++], &system[system_index++]);
      } else if (gold_span.begin <= system_span.begin) {
        ++gold_index;
      } else {
        ++system_index;
      }
      continue;
    }
    // The smallest span holding every multi-word token that overlaps it, on either side.
    std::size_t span_end = 0;
    if (gold[gold_index].is_multiword) {
      span_end = gold[gold_index].span.end;
      if (!system[system_index].is_multiword &&
          system[system_index].span.begin < gold[gold_index].span.begin) {
        ++system_index;
      }
    } else {
      span_end = system[system_index].span.end;
      if (!gold[gold_index].is_multiword &&
          gold[gold_index].span.begin < system[system_index].span.begin) {
        ++gold_index;
      }
    }
    const std::size_t gold_begin = gold_index;
    const std::size_t system_begin = system_index;
    while (!beyond_end(gold, gold_index, span_end) || !beyond_end(system, system_index, span_end)) {
      if (gold_index < gold.size() &&
          (system_index >= system.size() ||
           gold[gold_index].span.begin <= system[system_index].span.begin)) {
        span_end = extend_end(gold[gold_index++], span_end);
      } else {
        span_end = extend_end(system[system_index++], span_end);
      }
    }
    align_by_lcs(gold, system, gold_begin, gold_index, system_begin, system_index, alignment);
  }
  return alignment;
}

// Whether an aligned system word is right on one metric's columns.
using WordMatch = bool (*)(const Word& gold, const Word& system);

bool upos_matches(const Word& gold, const Word& system) { return gold.upos == system.upos; }
bool xpos_matches(const Word& gold, const Word& system) { return gold.xpos == system.xpos; }
bool ufeats_matches(const Word& gold, const Word& system) {
  return universal_features_match(gold.feats, system.feats);
}
bool lemmas_match(const Word& gold, const Word& system) {
  return lemma_matches(gold.lemma, system.lemma);
}

// Aligned words scored on one metric; `matches` null scores the alignment itself.
RawScore alignment_score(const Flattened& gold, const Flattened& system, const Alignment& alignment,
                         WordMatch matches) {
  RawScore score;
  score.gold_total = gold.words.size();
  score.system_total = system.words.size();
  score.aligned_total = alignment.size();
  if (matches == nullptr) {
    score.correct = alignment.size();
    return score;
  }
  for (const auto& [gold_word, system_word] : alignment) {
    score.correct += matches(*gold_word->word, *system_word->word) ? 1 : 0;
  }
  return score;
}

std::string encode(const std::u32string& characters, std::size_t begin, std::size_t count) {
  std::string result;
  for (std::size_t i = begin; i < std::min(characters.size(), begin + count); ++i) {
    text::append_utf8(result, characters[i]);
  }
  return result;
}

double ratio(std::size_t numerator, std::size_t denominator) {
  return denominator == 0 ? 0.0 : static_cast<double>(numerator) / static_cast<double>(denominator);
}

}  // namespace

double RawScore::precision() const { return ratio(correct, system_total); }
double RawScore::recall() const { return ratio(correct, gold_total); }
double RawScore::f1() const { return ratio(2 * correct, gold_total + system_total); }
double RawScore::aligned_accuracy() const { return ratio(correct, aligned_total); }

std::string raw_text_from_gold(const std::vector<Sentence>& gold) {
  std::string text;
  for (const Sentence& sentence : gold) {
    bool starts_paragraph = false;
    for (const std::string& comment : sentence.comments) {
      if (comment.rfind("# newpar", 0) == 0 || comment.rfind("# newdoc", 0) == 0) {
        starts_paragraph = true;
      }
    }
    std::string sentence_text = comment_value(sentence, "text");
    if (sentence_text.empty()) {
      // Rebuild from the tokens: "do" "n't" inside token "don't" -> "don't".
      std::size_t next_token = 0;
      for (std::size_t i = 0; i < sentence.words.size(); ++i) {
        const Word* token = &sentence.words[i];
        const int id = static_cast<int>(i) + 1;
        if (next_token < sentence.multiword_tokens.size() &&
            sentence.multiword_tokens[next_token].first == id) {
          token = &sentence.multiword_tokens[next_token].token;
          i = static_cast<std::size_t>(sentence.multiword_tokens[next_token].last) - 1;
          ++next_token;
        }
        sentence_text += token->form;
        if (token->misc.find("SpaceAfter=No") == std::string::npos) sentence_text += ' ';
      }
      while (!sentence_text.empty() && sentence_text.back() == ' ') sentence_text.pop_back();
    }
    if (!text.empty()) text += starts_paragraph ? "\n\n" : " ";
    text += sentence_text;
  }
  if (!text.empty()) text += '\n';
  return text;
}

RawEvaluation evaluate_raw(const std::vector<Sentence>& gold, const std::vector<Sentence>& system) {
  const Flattened gold_corpus = flatten(gold);
  const Flattened system_corpus = flatten(system);
  if (gold_corpus.characters != system_corpus.characters) {
    std::size_t index = 0;
    while (index < gold_corpus.characters.size() && index < system_corpus.characters.size() &&
           gold_corpus.characters[index] == system_corpus.characters[index]) {
      ++index;
    }
    throw InputError("the gold and system texts differ at character " + std::to_string(index) +
                     " (whitespace removed): gold '" + encode(gold_corpus.characters, index, 20) +
                     "', system '" + encode(system_corpus.characters, index, 20) + "'");
  }
  const Alignment alignment = align_words(gold_corpus.words, system_corpus.words);
  RawEvaluation result;
  result.tokens = spans_score(gold_corpus.tokens, system_corpus.tokens);
  result.sentences = spans_score(gold_corpus.sentences, system_corpus.sentences);
  result.words = alignment_score(gold_corpus, system_corpus, alignment, nullptr);
  result.upos = alignment_score(gold_corpus, system_corpus, alignment, upos_matches);
  result.xpos = alignment_score(gold_corpus, system_corpus, alignment, xpos_matches);
  result.ufeats = alignment_score(gold_corpus, system_corpus, alignment, ufeats_matches);
  result.alltags = alignment_score(gold_corpus, system_corpus, alignment, all_tags_match);
  result.lemmas = alignment_score(gold_corpus, system_corpus, alignment, lemmas_match);
  return result;
}

}  // namespace sawtag
