// Prints how long explaining one sentence takes once the model is loaded (README, "sawtag
// explain"): the sentence and its n masked copies through the network, then the drops.
//   sawtag_explain_bench MODEL [WORDS [THREADS]]
// WORDS (default 30) words of an English sentence, cycled, explained by a sawtag::Explainer
// with THREADS threads (default 1), as `sawtag explain -j THREADS` explains; the median and the
// fastest of 21 runs, wall time and the process's CPU time (user + sys, all threads), and the same
// for tagging as many words with Tagger::tag_batch on one thread, for comparison.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "sawtag/explanation.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"

namespace {

double cpu_milliseconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) * 1e-6;
}

struct Timing {
  double median = 0, fastest = 0;          // wall, ms
  double cpu_median = 0, cpu_fastest = 0;  // CPU time of all threads, ms
};

// The median and the fastest of 21 runs of `run`, after one warm-up (which fills the tagger's
// cache of word input rows).
template <class Run>
Timing time_runs(Run run) {
  int sink = run();
  std::vector<double> wall, cpu;
  for (int round = 0; round < 21; ++round) {
    const double cpu_start = cpu_milliseconds();
    const auto start = std::chrono::steady_clock::now();
    sink += run();
    const auto stop = std::chrono::steady_clock::now();
    cpu.push_back(cpu_milliseconds() - cpu_start);
    wall.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  if (sink < 0) std::printf("?\n");  // keeps the runs from being optimised away
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], wall.front(), cpu[cpu.size() / 2], cpu.front()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sawtag_explain_bench MODEL [WORDS]\n");
    return 2;
  }
  try {
    const int num_words = argc > 2 ? std::max(1, std::atoi(argv[2])) : 30;
    sawtag::ExplainOptions options;
    options.threads = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
    const char* text[] = {"The",     "committee", "said",   "on",     "Tuesday", "that",
                          "it",      "would",     "review", "the",    "plan",    "again",
                          "before",  "the",       "vote",   ",",      "but",     "several",
                          "members", "saw",       "no",     "reason", "to",      "delay",
                          "a",       "decision",  "that",   "many",   "expect",  "."};
    std::vector<std::string> words;
    for (int i = 0; i < num_words; ++i) words.emplace_back(text[i % 30]);
    const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(sawtag::load_model(argv[1])));
    // The reference: tagging as many words (the sentence n + 1 times) without top_k.
    const std::vector<std::vector<std::string>> copies(words.size() + 1, words);
    sawtag::Explainer explainer(tagger, options);  // as `sawtag explain` runs it
    const Timing explain = time_runs([&] { return explainer.explain(words).num_words; });
    const Timing tag = time_runs([&] { return static_cast<int>(tagger.tag_batch(copies).size()); });
    std::printf(
        "explain, %d words (the sentence and %d masked copies), %d thread%s: median %.2f ms, "
        "fastest %.2f ms; CPU median %.2f ms, fastest %.2f ms\n",
        num_words, num_words, options.threads, options.threads == 1 ? "" : "s", explain.median,
        explain.fastest, explain.cpu_median, explain.cpu_fastest);
    std::printf(
        "tag_batch of the same %d words, 1 thread: median %.2f ms, fastest %.2f ms; CPU median "
        "%.2f ms, fastest %.2f ms\n",
        num_words * (num_words + 1), tag.median, tag.fastest, tag.cpu_median, tag.cpu_fastest);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sawtag_explain_bench: %s\n", error.what());
    return 1;
  }
}
