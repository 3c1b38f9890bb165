// The cache of the measured CPU level (lib/src/infer/level_cache.hpp): round trips, other
// CPUs' entries kept, and a missing, corrupt or unwritable file never an error. Every file
// lives in a temporary directory that the test removes.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "cli_runner.hpp"
#include "infer/level_cache.hpp"

using namespace sawtag;
using infer::CachedLevel;

namespace {

const std::string kThisCpu = "sawtag 0.1.0|AuthenticAMD 25.17.1 AMD EPYC|d_model 256";
const std::string kOtherCpu = "sawtag 0.1.0|GenuineIntel 6.207.2 Xeon|d_model 256";

// Sets an environment variable for the scope, then puts the old value back.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    had_ = std::getenv(name) != nullptr;
    if (value == nullptr) {
      ::unsetenv(name);
    } else {
      ::setenv(name, value, 1);
    }
  }
  ~ScopedVariable() {
    if (had_) {
      ::setenv(name_, old_.c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace

TEST_CASE("level cache: what is written under a key is read back", "[level_cache]") {
  testing::TempDir directory;
  const std::string path = directory.file("sawtag/cpu-levels.tsv");  // sawtag/ is created
  CHECK_FALSE(infer::read_cached_level(path, kThisCpu).has_value());
  REQUIRE(infer::write_cached_level(path, kThisCpu, CachedLevel{"avx512", "avx512 0.5 ms"}));
  const auto read = infer::read_cached_level(path, kThisCpu);
  REQUIRE(read.has_value());
  CHECK(read->level == "avx512");
  CHECK(read->note == "avx512 0.5 ms");
  // Written again, the entry is replaced, not repeated.
  REQUIRE(infer::write_cached_level(path, kThisCpu, CachedLevel{"avx2", "again"}));
  CHECK(testing::read_file(path) == kThisCpu + "\tavx2\tagain\n");
}

TEST_CASE("level cache: another CPU's entry is not ours, and both are kept", "[level_cache]") {
  testing::TempDir directory;
  const std::string path =
      directory.write("cpu-levels.tsv", kOtherCpu + "\tavx512\tfrom the Xeon\n");
  CHECK_FALSE(infer::read_cached_level(path, kThisCpu).has_value());
  REQUIRE(infer::write_cached_level(path, kThisCpu, CachedLevel{"avx512bf16", "ours"}));
  CHECK(testing::read_file(path) ==
        kOtherCpu + "\tavx512\tfrom the Xeon\n" + kThisCpu + "\tavx512bf16\tours\n");
  CHECK(infer::read_cached_level(path, kOtherCpu)->level == "avx512");
  CHECK(infer::read_cached_level(path, kThisCpu)->level == "avx512bf16");
}

TEST_CASE("level cache: a corrupt file reads as empty and is mended by the next write",
          "[level_cache]") {
  testing::TempDir directory;
  const std::string path = directory.write(
      "cpu-levels.tsv", std::string("\x7f"
                                    "ELF\x01\x02\0\0 garbage\n",
                                    17) +
                            kThisCpu + "\n" + kThisCpu + "\t\tno level\n" + "\tavx2\tno key\n");
  CHECK_FALSE(infer::read_cached_level(path, kThisCpu).has_value());
  REQUIRE(infer::write_cached_level(path, kThisCpu, CachedLevel{"avx2", "note"}));
  CHECK(testing::read_file(path) == kThisCpu + "\tavx2\tnote\n");
}

TEST_CASE("level cache: a directory that cannot be made or written is not an error",
          "[level_cache]") {
  testing::TempDir directory;
  // A plain file where the cache directory should be: no user, root included, can write there.
  const std::string blocker = directory.write("not-a-directory", "x");
  const std::string path = blocker + "/sawtag/cpu-levels.tsv";
  CHECK_FALSE(infer::write_cached_level(path, kThisCpu, CachedLevel{"avx2", ""}));
  CHECK_FALSE(infer::read_cached_level(path, kThisCpu).has_value());
  CHECK_FALSE(infer::write_cached_level("", kThisCpu, CachedLevel{"avx2", ""}));
  CHECK_FALSE(infer::read_cached_level("", kThisCpu).has_value());
}

TEST_CASE("level cache: tabs and line breaks in a key or note cannot break the file",
          "[level_cache]") {
  testing::TempDir directory;
  const std::string path = directory.file("cpu-levels.tsv");
  REQUIRE(infer::write_cached_level(path, "a\tb\nc", CachedLevel{"avx2", "x\ty\nz"}));
  CHECK(testing::read_file(path) == "a b c\tavx2\tx y z\n");
  CHECK(infer::read_cached_level(path, "a\tb\nc")->note == "x y z");
}

TEST_CASE("level cache: under XDG_CACHE_HOME when it is absolute, else under HOME",
          "[level_cache]") {
  {
    const ScopedVariable cache("XDG_CACHE_HOME", "/var/cache/someone");
    CHECK(infer::level_cache_path() == "/var/cache/someone/sawtag/cpu-levels.tsv");
  }
  {
    const ScopedVariable cache("XDG_CACHE_HOME", "relative/path");  // ignored, as the spec says
    const ScopedVariable home("HOME", "/home/someone");
    CHECK(infer::level_cache_path() == "/home/someone/.cache/sawtag/cpu-levels.tsv");
  }
  {
    const ScopedVariable cache("XDG_CACHE_HOME", nullptr);
    const ScopedVariable home("HOME", nullptr);
    CHECK(infer::level_cache_path().empty());
  }
}
