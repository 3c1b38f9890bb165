// The tests' main: Catch2's, after pointing XDG_CACHE_HOME into the build folder, so that
// neither these tests nor the sawtag they run read or write the user's cache (the measured CPU
// level, lib/src/infer/level_cache.hpp). test_level_choice.cpp uses directories of its own.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char** argv) {
  ::setenv("XDG_CACHE_HOME", SAWTAG_TEST_CACHE_HOME, 1);
  return Catch::Session().run(argc, argv);
}
