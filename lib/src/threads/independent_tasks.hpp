// Independent tasks run with the caller's TaskRunner (sawtag/task_runner.hpp), their errors
// kept one a task, so that the caller reports the one a run in turn would: the first in the
// order the tasks were given. Used by the model file's reader (an ensemble's taggers, a learned
// tokenizer's model, the tensors) and by NetworkEnsemble (each tagger's network).
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

#include "sawtag/task_runner.hpp"

namespace sawtag {

// Runs tasks[0], tasks[1], ... and returns what each threw (nullptr: nothing), in their order.
// With an empty `run_tasks` they run in turn on this thread, and the tasks after the first that
// throws are not run (their entries are nullptr): a caller that rethrows the first error in
// order sees the same error either way, as long as no task depends on another.
std::vector<std::exception_ptr> run_independent(const TaskRunner& run_tasks,
                                                std::vector<std::function<void()>> tasks);

// Rethrows errors[i] when it holds one; does nothing otherwise.
inline void rethrow_if_failed(const std::vector<std::exception_ptr>& errors, std::size_t i) {
  if (errors[i]) std::rethrow_exception(errors[i]);
}

}  // namespace sawtag
