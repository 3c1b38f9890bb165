// How a long sentence is tagged: in overlapping windows.
//
// A sentence of n <= whole words is one window (the caller's `whole` is at most the model's
// window). A longer one gets windows of `length` words starting every `step` words, the last
// one ending at the sentence's end; each word takes its tags from the window in which it sits
// furthest from an edge (the earlier window on a tie), so every word sees at least
// (length - step) / 2 words of context on both sides where the sentence has them. Time and
// memory grow linearly with n.
//
// length is at most whole; where it has to shrink to fit, step shrinks in proportion.
#pragma once

#include <vector>

namespace sawtag::infer {

struct WindowPlan {
  std::vector<int> starts;  // first word of each window; every window has `length` words
  std::vector<int> owner;   // [n]: the window each word takes its tags from
  int length = 0;           // words per window: n for a sentence that is one window
};

// whole, length and step >= 1.
WindowPlan plan_windows(int num_words, int whole, int length, int step);

// Words [first, last) of a sentence.
struct WordRange {
  int first = 0;
  int last = 0;
};

// The words window `window` of `plan` owns: consecutive, since a word's owner never comes
// before the previous word's, and within the window (an empty range too, were a window no
// word's best).
WordRange owned_words(const WindowPlan& plan, int window);

// The longest sentence tagged whole (TagOptions::long_sentence): at most the model's window,
// and all of it where attention maps are asked for, since a windowed sentence has none.
inline int whole_sentence_words(int max_window, int long_sentence, bool capture_attention) {
  return capture_attention || long_sentence > max_window ? max_window : long_sentence;
}

}  // namespace sawtag::infer
