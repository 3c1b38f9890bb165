// A fixed set of worker threads that run submitted tasks, oldest first.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "sawtag/task_runner.hpp"

namespace sawtag::cli {

class ThreadPool {
 public:
  // Throws InputError when the threads cannot be started.
  explicit ThreadPool(int threads);
  // Runs the tasks still queued, then joins the threads.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(threads_.size()); }

  // The future becomes ready when `task` has run, and rethrows what it threw.
  std::future<void> submit(std::function<void()> task);

  // Runs every task, on this thread and on any pool threads that come free meanwhile, and
  // returns when all have run; rethrows the first exception a task threw. May be called from
  // a pool thread: this thread takes every task no other has started, and only ever waits for
  // tasks that are running, so it cannot wait for itself.
  void run_all(std::vector<std::function<void()>> tasks);

 private:
  void work();
  void stop_and_join();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::packaged_task<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// The library's TaskRunner (sawtag/task_runner.hpp) for `pool`: its run_all. Empty when `pool`
// is nullptr (-j 1): the library then runs its tasks in turn.
TaskRunner tasks_of(ThreadPool* pool);

}  // namespace sawtag::cli
