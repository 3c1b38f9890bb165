// Whole CoNLL-U files for training and evaluation.
#pragma once

#include <string>
#include <vector>

#include "sawtag/sentence.hpp"

namespace sawtag::cli {

// Every sentence of a CoNLL-U file; throws InputError naming the file (and line).
std::vector<Sentence> read_treebank(const std::string& path);

// The same, for a treebank that is trained on or scored against: throws InputError naming the
// file when it has no words, or when no word has a UPOS tag (column 4 all "_": the tags were
// never there, or were stripped), instead of training on nothing or scoring 100 %.
std::vector<Sentence> read_tagged_treebank(const std::string& path);

}  // namespace sawtag::cli
