// A fast reader for one JSON array of strings, such as a model's 100,000-word vocabulary, which
// a general JSON parser reads a character at a time into a tree of values.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sawtag::json {

// The strings of the JSON array that starts at text[begin] (a '['), and the position just after
// its ']' in *end: ["a", "b\"c"] -> {"a", "b\"c"}. Returns std::nullopt for anything that is not
// such an array, and for what it leaves to a full parser: "\u" escapes, and strings with
// invalid UTF-8 or what no string of a model may hold (model_strings.hpp): a control
// character, raw or escaped ("\t"), or U+2028, U+2029 (a full parser and the loader's checks
// then say what is wrong). So what it accepts needs no further check, and a JSON parser reads
// it as the same strings.
std::optional<std::vector<std::string>> read_string_array(std::string_view text, std::size_t begin,
                                                          std::size_t* end);

}  // namespace sawtag::json
