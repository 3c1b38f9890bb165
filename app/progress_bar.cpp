#include "progress_bar.hpp"

#include <algorithm>
#include <cstdio>

namespace sawtag::cli {

std::string format_duration(double seconds) {
  const long total = static_cast<long>(std::max(0.0, seconds) + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  return text;
}

void draw_progress_bar(const std::string& label, double fraction, const std::string& details) {
  constexpr int kWidth = 30;
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int filled = static_cast<int>(fraction * kWidth);
  std::fprintf(stderr, "\r%s [%-*s] %3.0f%%  %s ", label.c_str(), kWidth,
               std::string(static_cast<std::size_t>(filled), '#').c_str(), 100.0 * fraction,
               details.c_str());
  std::fflush(stderr);
}

void clear_progress_bar() { std::fputs("\r\033[K", stderr); }

}  // namespace sawtag::cli
