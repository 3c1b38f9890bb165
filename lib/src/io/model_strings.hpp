// What a string of a model file may hold. Models come from anyone, and their tags and words
// end up in every output format: a tab in a tag or a newline in a multi-word expansion would
// give CoNLL-U rows with the wrong number of columns, so such files are refused at load.
#pragma once

#include <string>
#include <string_view>

namespace sawtag::model_strings {

// "" when `text` is valid UTF-8 without control characters (C0, DEL, C1) or line and paragraph
// separators (U+2028, U+2029); else what is wrong, for a message:
// "a\tb" -> "holds the control character U+0009 at byte 1".
std::string text_problem(std::string_view text);

// "" when `tag` can be written in every output format (text "word/TAG", TSV cells, CoNLL-U
// columns): text_problem is "", it is not empty and holds no space (U+0020, or any other
// Unicode space such as U+00A0). Else what is wrong: "A DJ" -> "holds a space (U+0020) at byte 1".
std::string tag_problem(std::string_view tag);

// "" when `word` can be written as a word (a CoNLL-U FORM, a text or TSV token): text_problem
// is "" and it is not empty. Spaces are allowed: the writers protect them.
std::string word_problem(std::string_view word);

// "" when `list` is words separated by single spaces, none empty, as Model::lemma_casing and
// LemmaDictionary::lemmas hold them; else what is wrong, naming an item `item`:
// "Kerala  NASA", "spelling" -> "spelling 2 is empty (...)".
std::string spaced_list_problem(std::string_view list, std::string_view item);

// True when `text` is exactly one UTF-8 code point: "é" -> true, "ab" -> false.
bool is_one_code_point(std::string_view text);

}  // namespace sawtag::model_strings
