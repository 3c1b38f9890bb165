// Runs work(t) for t = 0 .. threads - 1, each on its own thread, and waits for all; the first
// exception any of them threw is rethrown here. Callers split their work by t (item i goes to
// thread i % threads), a fixed split, so results never depend on timing.
#pragma once

#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace sawtag::train {

template <class Work>
void on_threads(std::size_t threads, const Work& work) {
  std::vector<std::thread> workers;
  std::vector<std::exception_ptr> errors(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    workers.emplace_back([&work, &errors, t] {
      try {
        work(t);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace sawtag::train
