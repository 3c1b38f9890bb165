#include "viz/markup.hpp"

#include <algorithm>
#include <cstdio>

namespace sawtag::viz {

std::string escape_markup(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

std::string heat_colour(float weight) {
  // White (255, 255, 255) to dark blue (8, 48, 107).
  const float t = weight > 0.0f ? std::min(weight, 1.0f) : 0.0f;  // NaN -> 0
  const auto channel = [t](int from, int to) {
    return static_cast<int>(static_cast<float>(from) + t * static_cast<float>(to - from) + 0.5f);
  };
  char colour[8];
  std::snprintf(colour, sizeof colour, "#%02x%02x%02x", channel(255, 8), channel(255, 48),
                channel(255, 107));
  return colour;
}

}  // namespace sawtag::viz
