// Threads kept waiting for work, so that each keeps its thread_local buffers (the network's
// workspaces) from one job to the next: starting threads per job would give every job cold,
// freshly zeroed memory. Used by sawtag::Explainer (lib/src/explain/explanation.cpp).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sawtag {

class HelperThreads {
 public:
  // count >= 0 helpers besides the calling thread; throws InputError when they cannot be started.
  explicit HelperThreads(int count);
  ~HelperThreads();                   // waits for the helpers to finish and stop
  HelperThreads(const HelperThreads&) = delete;
  HelperThreads& operator=(const HelperThreads&) = delete;

  int count() const { return static_cast<int>(threads_.size()); }

  // Runs job(1), ..., job(count()) on the helpers and job(0) on the calling thread; returns when
  // all have returned. `job` must not throw. One run at a time.
  void run(const std::function<void(int)>& job);

 private:
  void wait_for_jobs(int index);
  void stop_and_join();

  std::mutex mutex_;
  std::condition_variable wake_;  // a new job, or stop
  std::condition_variable done_;  // pending_ reached 0
  const std::function<void(int)>* job_ = nullptr;
  std::uint64_t generation_ = 0;  // jobs started so far
  int pending_ = 0;               // helpers still running the current job
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace sawtag
