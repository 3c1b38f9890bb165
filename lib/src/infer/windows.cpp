#include "infer/windows.hpp"

#include <algorithm>

namespace sawtag::infer {

WindowPlan plan_windows(int num_words, int whole, int length, int step) {
  WindowPlan plan;
  plan.owner.assign(static_cast<std::size_t>(num_words), 0);
  if (num_words <= whole) {
    plan.length = num_words;
    if (num_words > 0) plan.starts.push_back(0);
    return plan;
  }
  const int window = std::min(std::max(1, length), whole);
  step = std::clamp(static_cast<int>(static_cast<long long>(step) * window / std::max(1, length)),
                    1, window);
  plan.length = window;
  plan.starts.push_back(0);
  const int last_start = num_words - window;
  while (plan.starts.back() + step < last_start) plan.starts.push_back(plan.starts.back() + step);
  plan.starts.push_back(last_start);

  // Distance of word i from the nearer edge of window w.
  const auto margin = [&](int w, int i) {
    const int start = plan.starts[static_cast<std::size_t>(w)];
    return std::min(i - start, start + window - 1 - i);
  };
  int w = 0;
  const int num_windows = static_cast<int>(plan.starts.size());
  for (int i = 0; i < num_words; ++i) {
    // Windows start in order, so the best window for word i never comes before word i-1's.
    while (w + 1 < num_windows && plan.starts[static_cast<std::size_t>(w) + 1] <= i &&
           margin(w + 1, i) > margin(w, i)) {
      ++w;
    }
    plan.owner[static_cast<std::size_t>(i)] = w;
  }
  return plan;
}

WordRange owned_words(const WindowPlan& plan, int window) {
  const auto words = plan.owner.begin() + plan.starts[static_cast<std::size_t>(window)];
  const auto first = std::lower_bound(words, words + plan.length, window);
  const auto last = std::upper_bound(first, words + plan.length, window);
  return {static_cast<int>(first - plan.owner.begin()),
          static_cast<int>(last - plan.owner.begin())};
}

}  // namespace sawtag::infer
