// Heap settings for the training commands.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace sawtag::cli {

// Every training step allocates and frees its activations (a few hundred KB each); by default
// glibc hands such blocks back to the kernel and faults them in again the next step, which
// cost a tenth of training's time. Keeps them in the heap instead.
inline void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}

}  // namespace sawtag::cli
