// The CLI's thread pool: run_all() runs every task once, shares them with free threads,
// rethrows, and may be called from the pool's own threads without waiting for itself.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <catch2/catch.hpp>

#include "thread_pool.hpp"

namespace {

using sawtag::cli::ThreadPool;

// Tasks that count how often each one ran.
std::vector<std::function<void()>> counting_tasks(std::vector<std::atomic<int>>& runs) {
  std::vector<std::function<void()>> tasks;
  for (std::atomic<int>& count : runs) tasks.emplace_back([&count] { ++count; });
  return tasks;
}

}  // namespace

TEST_CASE("run_all runs every task once, from any thread", "[thread_pool]") {
  const int threads = GENERATE(1, 2, 3);
  ThreadPool pool(threads);
  std::vector<std::atomic<int>> runs(100);

  SECTION("called from outside the pool") { pool.run_all(counting_tasks(runs)); }
  SECTION("called from every pool thread at once") {
    // Each pool thread runs a task that itself shares tasks with the pool: with every thread
    // inside run_all, none is free to help, and each must finish its own.
    std::vector<std::vector<std::atomic<int>>> nested(static_cast<std::size_t>(threads));
    for (auto& counts : nested) counts = std::vector<std::atomic<int>>(50);
    std::vector<std::future<void>> done;
    for (auto& counts : nested) {
      done.push_back(pool.submit([&pool, &counts] { pool.run_all(counting_tasks(counts)); }));
    }
    for (std::future<void>& future : done) future.get();
    for (const auto& counts : nested) {
      for (const std::atomic<int>& count : counts) CHECK(count == 1);
    }
    pool.run_all(counting_tasks(runs));
  }
  for (const std::atomic<int>& count : runs) CHECK(count == 1);
  pool.run_all({});  // nothing to do
}

TEST_CASE("run_all shares its tasks with a free pool thread", "[thread_pool]") {
  ThreadPool pool(1);
  // Task 0 (taken by the caller) waits for task 1 to start: only a pool thread can run it.
  std::mutex mutex;
  std::condition_variable changed;
  bool second_started = false;
  bool first_saw_second = false;
  std::vector<std::function<void()>> tasks;
  tasks.emplace_back([&] {
    std::unique_lock<std::mutex> lock(mutex);
    first_saw_second =
        changed.wait_for(lock, std::chrono::seconds(30), [&] { return second_started; });
  });
  tasks.emplace_back([&] {
    const std::lock_guard<std::mutex> lock(mutex);
    second_started = true;
    changed.notify_all();
  });
  pool.run_all(std::move(tasks));
  CHECK(second_started);
  CHECK(first_saw_second);
}

TEST_CASE("run_all rethrows a task's exception after every task has run", "[thread_pool]") {
  ThreadPool pool(2);
  std::vector<std::atomic<int>> runs(20);
  std::vector<std::function<void()>> tasks = counting_tasks(runs);
  tasks[7] = [] { throw std::runtime_error("task 7 failed"); };
  CHECK_THROWS_WITH(pool.run_all(std::move(tasks)), "task 7 failed");
  for (std::size_t t = 0; t < runs.size(); ++t) CHECK(runs[t] == (t == 7 ? 0 : 1));
}
