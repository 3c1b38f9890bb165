// Text given to the Python module, split into sentences exactly as `sawtag tag` splits what it
// reads (app/tag_session.cpp), so that the module's tags, CoNLL-U and attention are the CLI's.
#pragma once

#include <string>
#include <vector>

#include "sawtag/sentence.hpp"
#include "sawtag/tokenizer.hpp"

namespace sawtag::python {

// `sawtag tag --input raw`: lines ("\n", a "\r" before it dropped) gather into paragraphs,
// which end at a blank line, after 1000 lines, or at the end of the line that brings them to
// 16 KB; each paragraph is tokenized in parts of about 16 KB that end where a sentence ends
// (Tokenizer::tokenize_part). The first sentence of a paragraph after a blank line gets
// "# newpar" when `mark_paragraphs` (the CLI's CoNLL-U shows it; tags do not depend on it).
// "I saw a saw.\n\nGo." -> "I" "saw" "a" "saw" "." | "Go" "."
std::vector<Sentence> split_raw_text(const std::string& text, const Tokenizer& tokenizer,
                                     bool mark_paragraphs);

// `sawtag tag --input tokenized`: one sentence per non-blank line, words split on spaces, tabs,
// form feeds, vertical tabs and carriage returns, each with "# text = <the words>".
// "I  saw\ta saw" -> "I" "saw" "a" "saw"
std::vector<Sentence> split_tokenized_text(const std::string& text);

// `sawtag tag --input conllu`: the sentences of a CoNLL-U document. Throws InputError
// "<text>:<line>: <problem>" for malformed input.
std::vector<Sentence> read_conllu_text(const std::string& text);

// Puts "# sent_id = 1", "2", ... in front of each sentence's comments (after "# newpar"), as
// the CLI numbers raw and tokenized input.
void number_sentences(std::vector<Sentence>& sentences);

}  // namespace sawtag::python
