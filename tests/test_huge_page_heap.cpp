// use_huge_page_heap (app/huge_page_heap.hpp): afterwards every thread's blocks, big ones too,
// come from the one heap, asked to be backed by 2 MiB pages (/proc/self/smaps: "THPeligible:
// 1"). glibc's defaults put them elsewhere, neither place asked: a block of 128 KiB or more in a
// mapping of its own, another thread's block in that thread's own heap. Linux with glibc only;
// skipped where transparent huge pages are turned off, and under sanitizers, whose allocators
// ignore mallopt.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "huge_page_heap.hpp"
#include "sanitized.hpp"

namespace {

// False where the kernel has no transparent huge pages, or they are turned off.
bool huge_pages_available() {
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(mode, line) && line.find("[never]") == std::string::npos;
}

// The THPeligible field of the mapping that holds `address`, or nothing when /proc/self/smaps
// does not say (not Linux, or a kernel before 5.x).
std::optional<bool> may_have_huge_pages(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= at && at < end;
    } else if (inside && line.rfind("THPeligible:", 0) == 0) {
      return std::stoi(line.substr(line.find(':') + 1)) == 1;
    }
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("after use_huge_page_heap, every thread's big blocks may get huge pages",
          "[huge_page_heap]") {
#if !defined(__linux__) || !defined(__GLIBC__) || defined(SAWTAG_TEST_SANITIZED)
  WARN("skipped: glibc on Linux only, without sanitizers");
  return;
#endif
  const int on_the_stack = 0;
  if (!huge_pages_available() || !may_have_huge_pages(&on_the_stack)) {
    WARN("skipped: this kernel has no transparent huge pages, or /proc/self/smaps does not tell");
    return;
  }
  sawtag::cli::use_huge_page_heap();
  // 8 MiB each, looked at in their middle: the heap's first 2 MiB are not asked for huge pages.
  constexpr std::size_t kBytes = std::size_t{8} << 20;
  std::vector<char> on_this_thread(kBytes, 'a');
  std::vector<char> on_another_thread;
  std::thread([&] { on_another_thread.assign(kBytes, 'b'); }).join();
  CHECK(may_have_huge_pages(on_this_thread.data() + kBytes / 2) == true);
  CHECK(may_have_huge_pages(on_another_thread.data() + kBytes / 2) == true);
  CHECK(on_this_thread.back() == 'a');  // still ordinary memory
  CHECK(on_another_thread.back() == 'b');
}
