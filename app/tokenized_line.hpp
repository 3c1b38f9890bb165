// Lines of pre-tokenized text, shared by `sawtag tag --input tokenized` and `sawtag attention`.
#pragma once

#include <string>

#include "sawtag/sentence.hpp"

namespace sawtag::cli {

// Only spaces, tabs, form feeds, vertical tabs or carriage returns (or nothing).
bool is_blank(const std::string& line);

// "I  saw\ta saw" -> a sentence of the words "I" "saw" "a" "saw", with "# text = I saw a saw".
Sentence split_on_whitespace(const std::string& line);

}  // namespace sawtag::cli
