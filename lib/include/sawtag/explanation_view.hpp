// Views of explanations (explanation.hpp): bars for the terminal and the JSON of
// `sawtag explain -f json` (docs/explain-format.md). The attention page shows the same JSON in
// a panel (HtmlPageOptions::explanations, attention_view.hpp). These only format.
#pragma once

#include <iosfwd>
#include <vector>

#include "sawtag/attention_view.hpp"
#include "sawtag/explanation.hpp"
#include "sawtag/output.hpp"
#include "sawtag/sentence.hpp"

namespace sawtag {

inline constexpr int kEveryWord = -1;  // ExplanationViewOptions::word: explain all words

struct ExplanationViewOptions {
  TagColumns tags = TagColumns::upos;  // upos or both: bars of UPOS drops; xpos: of XPOS drops
  int word = kEveryWord;               // only this word, counted from 0
  Shading shading = Shading::blocks;   // colours256: bars coloured by sign
};

// Throws InputError unless options.word is kEveryWord or a word of a sentence of `num_words`
// words: "--word 9: the sentence has 4 words".
void check_explained_word(const ExplanationViewOptions& options, int num_words);

// One sentence (`number` counts from 1, for its heading): the tagged words, then for each word
// its tag and probability, what masking its own form does, and a bar per other word, the
// strongest influence first. `explanation` is of `sentence`'s words. Throws InputError when
// options.word is not a word of the sentence.
void write_explanation_view(std::ostream& out, const Sentence& sentence,
                            const SentenceExplanation& explanation, int number,
                            const ExplanationViewOptions& options);

// Writes {"format":"sawtag-explanation","version":1,"sentences":[...]} (docs/explain-format.md),
// a sentence at a time.
class ExplanationWriter {
 public:
  // `out` must outlive the writer; options.shading is not used.
  ExplanationWriter(std::ostream& out, const ExplanationViewOptions& options);

  // `explanation` is of `sentence`'s words. Throws InputError when options.word is not a word
  // of the sentence.
  void write(const Sentence& sentence, const SentenceExplanation& explanation);
  void finish();

 private:
  std::ostream& out_;
  ExplanationViewOptions options_;
  bool first_ = true;
  bool finished_ = false;
};

}  // namespace sawtag
