// Threads that cannot be started (`-j` beyond what the process may start) are an InputError
// with one clear message, from each of the three places that start threads: train::on_threads
// (train, pretrain, eval, ensemble), HelperThreads (explain) and the CLI's ThreadPool (tag).
// Before, std::thread's std::system_error reached the destructor of a vector of joinable threads:
// std::terminate, exit status 134.
//
// Each case runs in a child process whose address space is capped a little above what it uses,
// so that thread stacks (8 MB each) run out after a few dozen threads. Not under
// AddressSanitizer, which needs the address space it reserved at start.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include "threads/helper_threads.hpp"
#include "sawtag/error.hpp"
#include "sanitized.hpp"
#include "thread_pool.hpp"
#include "train/on_threads.hpp"

namespace {

constexpr int kThreadsAsked = 5000;  // 40 GB of stacks
constexpr int kMatched = 0, kOtherMessage = 1, kNoError = 2, kOtherException = 3;

// The child's exit status: kMatched when `start` threw sawtag::InputError whose message
// contains `expected`; std::terminate shows as 128 + SIGABRT = 134.
int status_in_capped_child(const std::function<void()>& start, const std::string& expected) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    long pages = 0;
    std::ifstream("/proc/self/statm") >> pages;
    const rlim_t used = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
    const rlimit cap{used + (rlim_t{256} << 20), used + (rlim_t{256} << 20)};
    ::setrlimit(RLIMIT_AS, &cap);
    int status = kNoError;
    try {
      start();
    } catch (const sawtag::InputError& error) {
      status =
          std::string(error.what()).find(expected) != std::string::npos ? kMatched : kOtherMessage;
    } catch (...) {
      status = kOtherException;
    }
    ::_exit(status);
  }
  int wait_status = 0;
  ::waitpid(pid, &wait_status, 0);
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
}

}  // namespace

TEST_CASE("threads that cannot be started are one clear error, never std::terminate", "[threads]") {
#ifdef SAWTAG_TEST_SANITIZED
  SUCCEED("skipped under AddressSanitizer (it needs the address space this test caps)");
#else
  const std::string expected = "could not start 5000 threads (";
  CHECK(status_in_capped_child([] { sawtag::train::on_threads(kThreadsAsked, [](std::size_t) {}); },
                               expected) == kMatched);
  CHECK(status_in_capped_child([] { sawtag::HelperThreads helpers(kThreadsAsked); }, expected) ==
        kMatched);
  CHECK(status_in_capped_child([] { sawtag::cli::ThreadPool pool(kThreadsAsked); }, expected) ==
        kMatched);
  // The message says what to do.
  CHECK(status_in_capped_child([] { sawtag::cli::ThreadPool pool(kThreadsAsked); },
                               "); ask for fewer threads (-j)") == kMatched);
#endif
}

TEST_CASE("the threads that did start finish their share before the error", "[threads]") {
#ifndef SAWTAG_TEST_SANITIZED
  // Work that needs every thread would wait forever; on_threads' work is independent, so the
  // started threads finish and are joined, and the error follows.
  CHECK(status_in_capped_child(
            [] {
              std::atomic<int> done{0};
              try {
                sawtag::train::on_threads(kThreadsAsked, [&done](std::size_t) { ++done; });
              } catch (const sawtag::InputError&) {
                if (done.load() == 0) throw std::runtime_error("no thread ran");
                throw;
              }
            },
            "could not start") == kMatched);
#endif
}
