// Raw text -> sentences of words: the way UD English EWT tokenizes, or as a model learned from a
// treebank says (TokenizerData::character_model).
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"
#include "sawtag/tag_in_tasks.hpp"
#include "sawtag/training.hpp"

namespace sawtag {

struct TokenizerOptions {
  // Every line break ends a sentence (input already split one sentence per line). Otherwise
  // only a blank line always does, and a single line break is a space.
  bool sentence_per_line = false;
};

// What a caller may want to warn about after tokenizing.
struct TokenizerReport {
  std::size_t invalid_utf8_sequences = 0;  // each replaced by U+FFFD in the words
};

// A part of a long text: its sentences, and where the next part begins.
struct TokenizedPart {
  std::vector<Sentence> sentences;  // word_spans are offsets into the whole text
  std::size_t end = 0;              // byte offset into the whole text
};

class Tokenizer {
 public:
  explicit Tokenizer(TokenizerData data = {}, TokenizerOptions options = {});

  // Splits `text` into sentences of words, following UD English EWT:
  // - punctuation is split off ("Hi, you." -> "Hi" "," "you" "."), except inside URLs,
  //   e-mail addresses, @handles, #hashtags, emoticons, numbers ("1,000.50", "5:00",
  //   "12/31/01"), abbreviations ("Mr.", "U.S.") and file names ("notes.doc");
  // - hyphens are split off ("search-engine" -> "search" "-" "engine") unless after a prefix
  //   EWT keeps ("e-mail", "non-profit");
  // - contractions and possessives become multi-word tokens ("Don't" -> token "Don't" over
  //   words "Do" "n't"; "Bush's" -> "Bush" "'s"; "gonna" -> "gon" "na" from the learned table).
  // Words carry SpaceAfter=No in misc when no whitespace follows them; word_spans are byte
  // offsets into `text` (the words of a multi-word token share its span). Each sentence has a
  // "# text" comment (its line breaks as spaces), and "# newpar" when it follows a blank line.
  // Invalid UTF-8 becomes U+FFFD. Linear in the size of the text.
  // With a learned tokenizer (TokenizerData::character_model), its model finds the word and
  // sentence ends instead of the rules above (text/learned_tokenizer.hpp); whitespace and blank
  // lines still end words and sentences, and the rest of this contract holds.
  std::vector<Sentence> tokenize(std::string_view text) const;

  // The same, adding what was found to `report`.
  std::vector<Sentence> tokenize(std::string_view text, TokenizerReport& report) const;

  // Tokenizes a long text a part at a time, so that memory stays bounded by the part, not the
  // text: the sentences of `text` from byte `begin` (0 or the `end` of the part before) up to
  // about `max_bytes` further, where a sentence ends. Calling it from begin 0 until `end` is
  // text.size() gives the same sentences as tokenize(text), except where the `max_bytes` bytes
  // from `begin` on hold no sentence start after the first that a part may begin with (one after
  // whitespace, not a ")" or "AM"/"PM", which the splitter decides from the token before them):
  // then the part ends at the first ASCII whitespace after `max_bytes` and the sentence there is
  // cut in two ("# text" and all). A text of at most `max_bytes` is one part: tokenize(text)'s.
  // With a learned tokenizer, a part ends at the last sentence start the model finds in the
  // `max_bytes` from `begin` (rounded up to a whole character), or there when it finds none;
  // the model sees no text after that end, so a sentence there may be split differently.
  // `run_tasks`, when given, runs the learned model's windows on the caller's threads
  // (sawtag/tag_in_tasks.hpp): the same sentences, sooner.
  TokenizedPart tokenize_part(std::string_view text, std::size_t begin, std::size_t max_bytes,
                              const RunTasks& run_tasks = {}) const;

  const TokenizerData& data() const { return data_; }
  const TokenizerOptions& options() const { return options_; }

 private:
  struct Tables;  // the abbreviations as sets, built once
  TokenizerData data_;
  TokenizerOptions options_;
  std::shared_ptr<const Tables> tables_;
};

// Learns the tables of TokenizerData from a treebank's sentences:
// - multi-word tokens: lower-cased surface form -> lower-cased words, kept when the form is a
//   multi-word token at least as often as a single word, with its most frequent split
//   ("don't" -> "do" "n't"; "its" is dropped: mostly a single word);
// - abbreviations: single-word tokens of letters, inner periods and apostrophes ending in one
//   "." that are kept whole at least as often as their period is split off ("Mr.", "e.g.",
//   "U.S."; not "etc.", split off at the end of 29 sentences and kept whole 19 times).
TokenizerData learn_tokenizer_data(const std::vector<Sentence>& sentences);

// What a learned tokenizer's character model is trained with: a network far smaller than a
// tagger's (a character and its neighbours say where a word ends), sequences of
// config.max_sequence_length characters, small batches (there are few sequences).
TrainOptions character_model_options();

// Trains the character model of a learned tokenizer (TokenizerData::character_model) from the
// surface tokens and sentences of `train`, choosing epochs on `dev`: the raw text they make
// (text/learned_tokenizer.hpp, character_sequences), so "# text" is not needed. The model's own
// tokenizer tables are left empty. Dev scores are per-character accuracy of the I/E/S tags.
Model train_character_model(const std::vector<Sentence>& train, const std::vector<Sentence>& dev,
                            const TrainOptions& options, const TrainObserver& observer = {});

}  // namespace sawtag
