#include "threads/independent_tasks.hpp"

#include <cstddef>
#include <utility>

namespace sawtag {

std::vector<std::exception_ptr> run_independent(const TaskRunner& run_tasks,
                                                std::vector<std::function<void()>> tasks) {
  std::vector<std::exception_ptr> errors(tasks.size());
  if (!run_tasks) {
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      try {
        tasks[i]();
      } catch (...) {
        errors[i] = std::current_exception();
        break;  // a run in turn stops at its first error
      }
    }
    return errors;
  }
  // Each task keeps its own error: the runner is never given one that throws.
  std::vector<std::function<void()>> kept;
  kept.reserve(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    kept.push_back([&tasks, &errors, i] {
      try {
        tasks[i]();
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  }
  run_tasks(std::move(kept));
  return errors;
}

}  // namespace sawtag
