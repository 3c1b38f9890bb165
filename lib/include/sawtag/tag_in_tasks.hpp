// Tagging on several threads, a long sentence included: the work of Tagger::tag_batch cut into
// tasks of about TagOptions::batch_words words that the caller's threads run.
//
// A sentence longer than Tagger::max_window() is tagged in overlapping windows
// (lib/src/infer/windows.hpp), and a word's tags depend on its window alone (positions count
// from the window's start), so each window can be tagged as a sentence of its own, on any
// thread, giving the same floats. A line of text without sentence ends (a transcript,
// unpunctuated Chinese) is then as parallel as text of many sentences.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sawtag/tagger.hpp"

namespace sawtag {

// Runs every task (on whatever threads it has) and returns when all have run; rethrows the
// first exception one threw. A ThreadPool's run_all, say (app/thread_pool.hpp).
using RunTasks = std::function<void(std::vector<std::function<void()>>)>;

// Exactly what tagger.tag_batch(sentences, options) returns, computed in tasks handed to
// `run_tasks` (all of them in one call): whole sentences grouped up to options.batch_words
// words, and each window of a long sentence, groups of windows up to the same size. Without
// `run_tasks`, tag_batch itself runs.
std::vector<TagResult> tag_in_tasks(const Tagger& tagger,
                                    const std::vector<std::vector<std::string>>& sentences,
                                    const TagOptions& options, const RunTasks& run_tasks);

}  // namespace sawtag
