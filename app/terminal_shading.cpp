#include "terminal_shading.hpp"

#include <unistd.h>

#include <cstdlib>

namespace sawtag::cli {

Shading terminal_shading(const std::string& color, const std::string& output) {
  if (color == "always") return Shading::colors256;
  if (color == "never") return Shading::blocks;
  const char* no_color = std::getenv("NO_COLOR");
  const bool colour_wanted = no_color == nullptr || no_color[0] == '\0';
  const bool to_terminal = (output.empty() || output == "-") && ::isatty(1) == 1;
  return colour_wanted && to_terminal ? Shading::colors256 : Shading::blocks;
}

}  // namespace sawtag::cli
