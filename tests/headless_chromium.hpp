// Runs an HTML page's scripts in headless Chromium, for the tests of the pages `sawtag
// attention --html` and `sawtag walkthrough --html` write; such tests skip where Chromium is
// not installed.
#pragma once

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

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
  const std::string command = "timeout 120 " + chromium +
                              " --headless --no-sandbox --disable-gpu --dump-dom 'file://" + page +
                              "' 2> /dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  REQUIRE(pipe != nullptr);
  std::string dom;
  char buffer[65536];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0) dom.append(buffer, read);
  return dom;
}

}  // namespace sawtag::testing
