// How a sentence longer than the model's window is tagged: in overlapping windows.
//
// A sentence of n <= window words is one window. A longer one gets windows of `window` words
// starting every window / 2 words, the last one ending at the sentence's end; each word takes
// its tags from the window in which it sits furthest from an edge (the earlier window on a
// tie), so every word sees at least window / 4 words of context on both sides where the
// sentence has them. Time and memory grow linearly with n.
#pragma once

#include <vector>

namespace sawtag::infer {

struct WindowPlan {
  std::vector<int> starts;  // first word of each window; every window has min(n, window) words
  std::vector<int> owner;   // [n]: the window each word takes its tags from
  int length = 0;           // words per window
};

// window >= 1.
WindowPlan plan_windows(int num_words, int window);

}  // namespace sawtag::infer
