#include "huge_page_heap.hpp"

#include <cstdint>
#include <cstdlib>  // first: defines __GLIBC__ where the C library is glibc

#ifdef __linux__
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace sawtag::cli {

#if defined(__linux__) && defined(__GLIBC__)

namespace {

constexpr std::uintptr_t kHugePageBytes = std::uintptr_t{2} << 20;
// glibc's largest M_MMAP_THRESHOLD on 64-bit systems (a 32-bit one refuses it, and keeps
// mapping big blocks).
constexpr int kLargestHeapBlock = 32 << 20;
constexpr int kHeapReserveBytes = 256 << 20;

std::uintptr_t heap_end() { return reinterpret_cast<std::uintptr_t>(::sbrk(0)); }

}  // namespace

void use_huge_page_heap() {
  ::mallopt(M_ARENA_MAX, 1);
  ::mallopt(M_MMAP_THRESHOLD, kLargestHeapBlock);
  ::mallopt(M_TOP_PAD, kHeapReserveBytes);
  ::mallopt(M_TRIM_THRESHOLD, 2 * kHeapReserveBytes);
  // A block the heap's free end cannot hold grows it, by the block and the reserve (volatile:
  // a compiler may otherwise leave out a malloc whose block is only freed).
  const std::uintptr_t old_end = heap_end();
  void* volatile block = std::malloc(kHugePageBytes);
  const std::uintptr_t new_end = heap_end();
  std::free(block);
  const std::uintptr_t begin = (old_end + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const std::uintptr_t end = new_end & ~(kHugePageBytes - 1);
  if (end > begin) {
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // a hint; may fail
  }
}

#else

void use_huge_page_heap() {}

#endif

}  // namespace sawtag::cli
