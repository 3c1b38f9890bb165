// How the library hands work to the caller's threads: loading a model (load_model) and building
// a Tagger run their independent parts (an ensemble's taggers, a learned tokenizer's model, the
// tensors) as tasks of a TaskRunner, when they are given one. The library starts no pool of its
// own: the CLI passes its `-j N` pool, a program with none passes nothing.
#pragma once

#include <functional>
#include <vector>

namespace sawtag {

// Runs every task, on any threads, and returns once all have run. The library's tasks never
// throw (each keeps its error for the library to report in the order a run in turn would).
// An empty TaskRunner: the tasks run in turn on the calling thread.
//   TaskRunner run = [&pool](std::vector<std::function<void()>> tasks) {
//     pool.run_all(std::move(tasks));
//   };
using TaskRunner = std::function<void(std::vector<std::function<void()>> tasks)>;

}  // namespace sawtag
