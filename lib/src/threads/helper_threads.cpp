#include "threads/helper_threads.hpp"

#include <system_error>

#include "threads/thread_start_error.hpp"

namespace sawtag {

HelperThreads::HelperThreads(int count) {
  try {
    for (int t = 0; t < count; ++t) threads_.emplace_back([this, t] { wait_for_jobs(t + 1); });
  } catch (const std::system_error& error) {
    stop_and_join();
    throw_cannot_start_threads(static_cast<std::size_t>(count), threads_.size(), error);
  }
}

HelperThreads::~HelperThreads() { stop_and_join(); }

void HelperThreads::stop_and_join() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void HelperThreads::run(const std::function<void(int)>& job) {
  if (threads_.empty()) {
    job(0);
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    ++generation_;
    pending_ = count();
  }
  wake_.notify_all();
  job(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
  job_ = nullptr;
}

void HelperThreads::wait_for_jobs(int index) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(int)>* job = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    (*job)(index);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace sawtag
