#include "thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include "sawtag/error.hpp"

namespace sawtag::cli {

ThreadPool::ThreadPool(int threads) {
  try {
    for (int t = 0; t < threads; ++t) threads_.emplace_back([this] { work(); });
  } catch (const std::system_error& error) {
    // Let through, the error would destroy joinable threads: std::terminate, exit 134.
    stop_and_join();
    throw InputError("could not start " + std::to_string(threads) + " threads (" +
                     std::to_string(threads_.size()) + " started: " + error.code().message() +
                     "); ask for fewer threads (-j)");
  }
}

ThreadPool::~ThreadPool() { stop_and_join(); }

void ThreadPool::stop_and_join() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

std::future<void> ThreadPool::submit(std::function<void()> task) {
  std::packaged_task<void()> packaged(std::move(task));
  std::future<void> done = packaged.get_future();
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(packaged));
  }
  wake_.notify_one();
  return done;
}

namespace {

// The tasks of one run_all() call, taken in order by whichever thread asks next.
struct SharedTasks {
  std::vector<std::function<void()>> tasks;
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::condition_variable all_done;
  std::size_t done = 0;
  std::exception_ptr error;

  // Runs tasks until none is left to start.
  void take() {
    for (std::size_t t; (t = next.fetch_add(1)) < tasks.size();) {
      std::exception_ptr thrown;
      try {
        tasks[t]();
      } catch (...) {
        thrown = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(mutex);
      if (thrown && !error) error = thrown;
      if (++done == tasks.size()) all_done.notify_all();
    }
  }
};

}  // namespace

void ThreadPool::run_all(std::vector<std::function<void()>> tasks) {
  if (tasks.empty()) return;
  // Shared: a helper may start after this call has returned, and then finds nothing to do.
  auto shared = std::make_shared<SharedTasks>();
  shared->tasks = std::move(tasks);
  const std::size_t helpers = std::min(shared->tasks.size() - 1, threads_.size());
  for (std::size_t h = 0; h < helpers; ++h) submit([shared] { shared->take(); });
  shared->take();
  std::unique_lock<std::mutex> lock(shared->mutex);
  shared->all_done.wait(lock, [&] { return shared->done == shared->tasks.size(); });
  if (shared->error) std::rethrow_exception(shared->error);
}

void ThreadPool::work() {
  while (true) {
    std::packaged_task<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping, and nothing left
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

TaskRunner tasks_of(ThreadPool* pool) {
  if (pool == nullptr) return {};
  return [pool](std::vector<std::function<void()>> tasks) { pool->run_all(std::move(tasks)); };
}

}  // namespace sawtag::cli
