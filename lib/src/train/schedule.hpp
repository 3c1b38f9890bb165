// Learning-rate schedule: linear warm-up, then cosine decay to zero.
#pragma once

#include <cmath>
#include <algorithm>
#include <cstdint>

namespace sawtag::train {

// Learning rate for 1-based `step` of `total_steps`:
//   step <= warmup: peak * step / warmup;  after: peak * (1 + cos(pi * progress)) / 2.
inline float scheduled_learning_rate(float peak, std::int64_t step, std::int64_t warmup_steps,
                                     std::int64_t total_steps) {
  if (warmup_steps > 0 && step <= warmup_steps) {
    return peak * static_cast<float>(step) / static_cast<float>(warmup_steps);
  }
  const double span = static_cast<double>(std::max<std::int64_t>(1, total_steps - warmup_steps));
  const double progress = std::min(1.0, static_cast<double>(step - warmup_steps) / span);
  return static_cast<float>(peak * 0.5 * (1.0 + std::cos(M_PI * progress)));
}

}  // namespace sawtag::train
