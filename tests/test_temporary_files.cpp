// The tests leave nothing behind in the temporary directory. Each test process runs with TMPDIR
// set to a directory of its own (std::filesystem::temp_directory_path() and mktemp honour it);
// when the run ends, whatever is left there is named on stderr, removed, and the process exits
// with status 1, so a test that forgets to clean up fails under ctest.
#include <sys/types.h>
#include <unistd.h>
// The reporter interfaces a listener derives from (Catch2 v2 defines them only on request).
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace {

class TemporaryDirectoryCheck : public Catch::TestEventListenerBase {
 public:
  using TestEventListenerBase::TestEventListenerBase;

  void testRunStarting(const Catch::TestRunInfo& info) override {
    TestEventListenerBase::testRunStarting(info);
    std::string pattern = (std::filesystem::temp_directory_path() / "sawtag-tests-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return;  // the tests then use the usual TMPDIR
    directory_ = pattern;
    ::setenv("TMPDIR", directory_.c_str(), 1);
  }

  void testRunEnded(const Catch::TestRunStats& stats) override {
    TestEventListenerBase::testRunEnded(stats);
    if (directory_.empty()) return;
    std::string left_behind;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory_, error)) {
      left_behind += " " + entry.path().filename().string();
    }
    std::filesystem::remove_all(directory_, error);
    if (left_behind.empty()) return;
    std::fprintf(stderr, "sawtag_tests: the tests left files in the temporary directory:%s\n",
                 left_behind.c_str());
    std::fflush(nullptr);
    std::_Exit(1);
  }

 private:
  std::string directory_;
};

}  // namespace

CATCH_REGISTER_LISTENER(TemporaryDirectoryCheck)

TEST_CASE("the tests write their temporary files in a directory of their own", "[tests]") {
  const std::string directory = std::filesystem::temp_directory_path().filename().string();
  CHECK(directory.rfind("sawtag-tests-", 0) == 0);
}

// The check above sees only what is written under TMPDIR: a test that names /tmp itself would
// escape it (as test_pretraining.cpp did, leaving its text and vectors behind after every run).
TEST_CASE("no test names the temporary directory itself: they ask TMPDIR", "[tests]") {
  const std::string needle = std::string("\"/") + "tmp";  // not spelled out here either
  std::string offenders;
  const std::filesystem::path tests = std::filesystem::path(SAWTAG_SOURCE_DIR) / "tests";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(tests)) {
    const std::string extension = entry.path().extension().string();
    if (extension != ".cpp" && extension != ".hpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find(needle) != std::string::npos) {
      offenders += " " + entry.path().lexically_relative(tests).string();
    }
  }
  CHECK(offenders == "");
}
