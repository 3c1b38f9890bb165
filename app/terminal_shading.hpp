// Whether a terminal view (`sawtag attention`, `sawtag explain`) is drawn in colour.
#pragma once

#include <string>

#include "sawtag/attention_view.hpp"

namespace sawtag::cli {

// `color` is the --color option ("auto", "always" or "never") and `output` the -o option ("-"
// or "" for stdout). auto: colours on a terminal unless NO_COLOR is set (https://no-color.org).
Shading terminal_shading(const std::string& color, const std::string& output);

}  // namespace sawtag::cli
