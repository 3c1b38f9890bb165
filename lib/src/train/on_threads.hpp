// Runs work(t) for t = 0 .. threads - 1, each on its own thread, and waits for all; the first
// exception any of them threw is rethrown here; a thread that cannot be started (too many asked
// for) is an Error that says how many were. Callers split their work by t (item i goes to
// thread i % threads), a fixed split, so results never depend on timing.
#pragma once

#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

#include "threads/thread_start_error.hpp"

namespace sawtag::train {

template <class Work>
void on_threads(std::size_t threads, const Work& work) {
  std::vector<std::thread> workers;
  std::vector<std::exception_ptr> errors(threads);
  try {
    for (std::size_t t = 0; t < threads; ++t) {
      workers.emplace_back([&work, &errors, t] {
        try {
          work(t);
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
    }
  } catch (const std::system_error& error) {
    // The threads already started finish their share; joined, they do not end the process.
    for (std::thread& worker : workers) worker.join();
    throw_cannot_start_threads(threads, workers.size(), error);
  }
  for (std::thread& worker : workers) worker.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace sawtag::train
