// The process's heap backed by 2 MiB pages, for the tagging command.
#pragma once

namespace sawtag::cli {

// Loading a model writes fresh memory (zh_gsd.json: some 70 MB, its three taggers' tensors and
// the tables and packed weights built from them), and tagging writes more. Linux backs fresh
// memory a page at a time, with a page fault the first time each 4 KiB page is written: about
// 10 µs a fault on the virtual machine measured (docs/performance.md), more than half of
// zh_gsd.json's start-up. Transparent huge pages bring 2 MiB a fault, but in Linux's usual
// "madvise" mode only to memory that asks for them. This makes glibc's heap ask:
//  - every thread allocates from the one heap (glibc otherwise gives threads heaps of their
//    own, in mappings it does not tell of);
//  - blocks up to 32 MiB come from that heap (not each from a fresh mapping), and freed
//    blocks stay in it to be reused;
//  - the heap is grown at once by 256 MiB of address space, all asked to be backed by huge
//    pages (a page costs memory only once written to, but then all its 2 MiB).
// Past the reserve the heap grows as usual, in small pages. Call before any thread starts.
// Does nothing but on Linux with glibc.
void use_huge_page_heap();

// The most threads `sawtag tag` uses the heap above with. Its threads then all take their blocks
// under the one heap's lock: at -j 2 the tagging ran faster than before all the same, but it
// calls malloc 5 to 6 times a word (EWT test's text; one block in 8 to 17 is over the 1,032
// bytes that a thread's own cache, tcache, keeps, so taken under the lock), and beyond 2 threads
// that was not measured. With many threads a start-up of 0.1 s counts for less than their speed,
// so glibc keeps a heap for each thread there, as before.
constexpr int kHugePageHeapMaxThreads = 8;

}  // namespace sawtag::cli
