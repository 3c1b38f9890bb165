// Views of a walkthrough (walkthrough.hpp): the steps of one layer and head for the terminal,
// every number as JSON (docs/walkthrough-format.md), and a self-contained HTML page of every
// layer and head. These only format; the caller computes the walkthrough and decides colour.
#pragma once

#include <iosfwd>
#include <string>

#include "sawtag/attention_view.hpp"
#include "sawtag/walkthrough.hpp"

namespace sawtag {

inline constexpr int kLastWord = -1;  // the word a view follows by default

// Throws InputError unless `word` is kLastWord or a word of the walkthrough's sentence (counted
// from 0): "--word 9: the sentence has 4 words".
void check_followed_word(const Walkthrough& walk, int word);

struct WalkthroughViewOptions {
  int word = kLastWord;               // the word followed through the steps, counted from 0
  Shading shading = Shading::blocks;  // colours256: the followed word and the weights coloured
};

// The steps of the walkthrough's first layer and its first head, for an 80-column terminal:
// the textbook's names, wide matrices cut to their first columns (with their shapes), the
// scores and weights in full (in blocks of columns for a long sentence), the followed word's
// row marked, one line where the model differs from the textbook, and at the end the followed
// word's tag and probability. Throws InputError when the walkthrough has no layer or head, or
// the word is not one of the sentence's.
void write_walkthrough_view(std::ostream& out, const Walkthrough& walk,
                            const WalkthroughViewOptions& options);

struct WalkthroughJsonOptions {
  // 0: every number. Else every matrix is cut to its first `max_columns` columns, and the
  // weight matrices (W_q, W_k, W_v, W_o) also to their first `max_columns` rows; the document
  // then says so in "shown_columns" (the page's copy).
  int max_columns = 0;
};

// {"format":"sawtag-walkthrough","version":1,...}: docs/walkthrough-format.md.
void write_walkthrough_json(std::ostream& out, const Walkthrough& walk,
                            const WalkthroughJsonOptions& options = {});

struct WalkthroughPageOptions {
  std::string title = "sawtag walkthrough";
  int word = kLastWord;  // the word the page follows when it opens, counted from 0
};

// One self-contained HTML page (no network, no external file): the sentence's words (click one
// to follow it), a layer and a head selector over those of the walkthrough, and the steps of the
// chosen layer, head and word, as the terminal view has them. The numbers travel inside the page
// as the walkthrough's JSON, cut to the first columns of wide matrices; every word is escaped.
// The page's address may name the followed word, and a step to scroll to: "page.html#word=2",
// "page.html#word=2&step=4". Throws InputError when the walkthrough has no layer or head, or the
// word is not one of the sentence's.
void write_walkthrough_page(std::ostream& out, const Walkthrough& walk,
                            const WalkthroughPageOptions& options);

}  // namespace sawtag
