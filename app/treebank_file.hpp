// Whole CoNLL-U files for training and evaluation.
#pragma once

#include <string>
#include <vector>

#include "sawtag/sentence.hpp"

namespace sawtag::cli {

// Every sentence of a CoNLL-U file; throws InputError naming the file (and line).
std::vector<Sentence> read_treebank(const std::string& path);

}  // namespace sawtag::cli
