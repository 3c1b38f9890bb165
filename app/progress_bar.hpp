// A one-line progress bar on stderr, redrawn in place; for terminals only (callers check).
#pragma once

#include <string>

namespace sawtag::cli {

// "1:02:03"
std::string format_duration(double seconds);

// "\r<label> [#########       ]  56%  <details> ". fraction in [0, 1].
void draw_progress_bar(const std::string& label, double fraction, const std::string& details);

// Erases the bar, so that a message can take its line.
void clear_progress_bar();

}  // namespace sawtag::cli
