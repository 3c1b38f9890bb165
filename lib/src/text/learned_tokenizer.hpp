// A tokenizer learned from a treebank: a sawtag model run over characters. Each character is a
// "word" of the character model, and its tag says what follows it:
//   "I"  the word goes on        "E"  a word ends        "S"  a word and a sentence end
// "我看到一把鋸子." -> 我/E 看/I 到/E 一/E 把/E 鋸/I 子/E ./S -> "我" "看到" "一" "把" "鋸子" ".".
// Whitespace is not shown to the model: it always ends a word, so the model only has to find the
// word ends that are not written (all of them in Chinese, "don't"-like ones in English).
// The "word" the model sees at a character is the character and the next one in the text (the
// last has none): whether a word ends between two characters depends most on the pair, and so
// the pair gets a word embedding of its own when it is frequent (a classic Chinese word
// segmentation feature; with single characters, UD Chinese GSD dev was 89 % right per character
// after 10 epochs). 我看到 -> "我看"/E "看到"/I "到"/E.
#pragma once

#include <cstddef>
#include <vector>

#include "sawtag/sentence.hpp"
#include "sawtag/tag_in_tasks.hpp"
#include "sawtag/tagger.hpp"
#include "text/sentence_splitter.hpp"
#include "text/utf8.hpp"

namespace sawtag::text {

inline constexpr const char* kInsideWord = "I";
inline constexpr const char* kWordEnd = "E";
inline constexpr const char* kSentenceEnd = "S";

// The training material of a character model: the treebank's surface tokens (a multi-word
// token's form, not its words) in order, cut into sequences of at most `length` characters
// whose words are characters (with the next, as above) tagged I/E/S (UPOS and XPOS alike). The
// sequences run on across sentences, so that a sentence end is seen with the next sentence after
// it, as in raw text. Whitespace inside a form is left out, like the whitespace between tokens.
// {"我 看到", "他 來 ."} with length 4 -> [我看/E 看到/I 到他/S 他來/E] [來./E ./S].
std::vector<Sentence> character_sequences(const std::vector<Sentence>& treebank,
                                          std::size_t length);

// The tokens of `code_points` as the character model splits them: each run of characters
// between whitespace is cut after every character tagged E or S, and a token after an S
// starts a sentence. A blank line (or, with `sentence_per_line`, any line break) always ends a
// sentence, and the end of the text does. Tokens are of kind word, so multi-word tokens are
// still split by the model's table. Paragraphs are tagged as one batch; a paragraph longer
// than the model's window is tagged in overlapping windows, which `run_tasks` (when given)
// spreads over its threads (sawtag/tag_in_tasks.hpp): the same tokens.
std::vector<PlacedToken> learned_tokens(const std::vector<CodePoint>& code_points,
                                        const Tagger& character_tagger, bool sentence_per_line,
                                        const RunTasks& run_tasks = {});

}  // namespace sawtag::text
