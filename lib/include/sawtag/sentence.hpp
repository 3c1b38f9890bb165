// Plain structs for a sentence as CoNLL-U describes it: words, multi-word tokens, empty nodes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sawtag {

// One syntactic word: the ten CoNLL-U columns but the ID, which is its position in
// Sentence::words (words[i] has ID i + 1). Columns not known are "_".
struct Word {
  std::string form;         // the word as written ("n't")
  std::string lemma = "_";  // dictionary form
  std::string upos = "_";   // universal part of speech (NOUN, VERB, ...)
  std::string xpos = "_";   // language-specific tag (Penn Treebank for English: NN, VBD, ...)
  std::string feats = "_";  // morphological features
  std::string head = "_";   // ID of the syntactic head, kept as text
  std::string deprel = "_"; // dependency relation
  std::string deps = "_";   // enhanced dependencies
  std::string misc = "_";   // anything else, e.g. SpaceAfter=No
};

// A token that stands for several words: "don't" covers the words "do" and "n't".
struct MultiwordToken {
  int first = 0;  // ID of its first word (1-based)
  int last = 0;   // ID of its last word, inclusive
  Word token;     // form and misc of the surface token; the other columns are normally "_"
};

// An empty node of the enhanced graph, CoNLL-U ID "after.index" (e.g. "8.1").
struct EmptyNode {
  int after = 0;  // the ID of the word it follows (0 = before the first word)
  int index = 1;  // 1, 2, ... among the empty nodes after the same word
  Word node;
};

// Byte offsets [begin, end) into the text a tokenizer was given.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
};

struct Sentence {
  std::vector<std::string> comments;  // whole comment lines, "#" included ("# text = I saw")
  std::vector<Word> words;
  // For sentences from the tokenizer: word_spans[i] is where words[i]'s token stands in the
  // input (the words of a multi-word token share its span). Empty for CoNLL-U input.
  std::vector<Span> word_spans;
  std::vector<MultiwordToken> multiword_tokens;  // sorted by first
  std::vector<EmptyNode> empty_nodes;            // sorted by (after, index)
};

// The value of a "# key = value" comment, or "" when the sentence has none.
std::string comment_value(const Sentence& sentence, const std::string& key);

// The words' forms, in order: what Tagger::tag takes.
std::vector<std::string> word_forms(const Sentence& sentence);

}  // namespace sawtag
