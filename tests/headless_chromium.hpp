// Runs an HTML page's scripts in headless Chromium, for the tests of the pages `sawtag
// attention --html` and `sawtag walkthrough --html` write; such tests skip where Chromium is
// not installed.
#pragma once

#include <cstdlib>
#include <string>

#include "cli_runner.hpp"

namespace sawtag::testing {

// The path of headless Chromium, or "" when it is not installed.
inline std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    const std::string command = std::string("command -v ") + name + " > /dev/null 2>&1";
    if (std::system(command.c_str()) == 0) return name;
  }
  return "";
}

// The page's DOM after its scripts ran, as headless Chromium serializes it.
inline std::string rendered_dom(const std::string& chromium, const std::string& page) {
  return shell_output("timeout 120 " + chromium +
                      " --headless --no-sandbox --disable-gpu --dump-dom 'file://" + page +
                      "' 2> /dev/null");
}

}  // namespace sawtag::testing
