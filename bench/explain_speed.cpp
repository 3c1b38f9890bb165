// Prints how long explaining one sentence takes once the model is loaded (docs/cli.md, "sawtag
// explain"): the sentence and its n masked copies through the network, then the drops.
//   sawtag_explain_bench MODEL [WORDS [THREADS [RUNS [WORD]]]]
// WORDS (default 30) words of an English sentence, cycled, explained by a sawtag::Explainer
// with THREADS threads (default 1), as `sawtag explain -j THREADS` explains (with WORD, counted
// from 1: that word alone, as `--word WORD`); RUNS runs (default 201) after a warm-up: the
// median, the quartiles and the fastest, of the wall time and of the process's CPU time (user +
// sys, all threads); then the same for tagging as many words with Tagger::tag_batch on one
// thread, for comparison. Also the load average before and after, the multiply-adds an
// explanation needs and the GFLOP/s they reach per CPU second, to set beside the core's peak
// (a loop of independent vdpbf16ps: 64 FLOP a cycle on AMD Zen 4).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
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

std::string load_average() {
  std::ifstream file("/proc/loadavg");
  std::string one, five, fifteen;
  file >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

struct Quantiles {
  double fastest = 0, lower = 0, median = 0, upper = 0;  // ms
};

Quantiles quantiles(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return {values.front(), values[n / 4], values[n / 2], values[(3 * n) / 4]};
}

struct Timing {
  Quantiles wall, cpu;
};

// `runs` runs of `run`, after one warm-up (which fills the tagger's cache of word input rows).
template <class Run>
Timing time_runs(int runs, Run run) {
  int sink = run();
  std::vector<double> wall, cpu;
  for (int round = 0; round < runs; ++round) {
    const double cpu_start = cpu_milliseconds();
    const auto start = std::chrono::steady_clock::now();
    sink += run();
    const auto stop = std::chrono::steady_clock::now();
    cpu.push_back(cpu_milliseconds() - cpu_start);
    wall.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  if (sink < 0) std::printf("?\n");  // keeps the runs from being optimised away
  return {quantiles(wall), quantiles(cpu)};
}

void print(const char* what, const Timing& timing) {
  std::printf(
      "%s\n  wall: median %.2f ms (quartiles %.2f-%.2f), fastest %.2f ms\n"
      "  CPU:  median %.2f ms (quartiles %.2f-%.2f), fastest %.2f ms\n",
      what, timing.wall.median, timing.wall.lower, timing.wall.upper, timing.wall.fastest,
      timing.cpu.median, timing.cpu.lower, timing.cpu.upper, timing.cpu.fastest);
}

// Multiply-adds of one explanation of n words (InferenceNetwork::forward_masked): the first
// layer's norm and Q/K/V product for the sentence's n rows and the n masked ones, then for each
// of the n + 1 windows of n rows the rest of the first layer, the other layers in full, the
// attention (scores and weighted values) and the tag heads.
struct MultiplyAdds {
  double products = 0;   // the matrix products of the layers (bfloat16 on AVX512_BF16)
  double attention = 0;  // float32
  double heads = 0;      // float32
};

// With one word: the copies' last layer runs past its attention (W_o, the feed-forward layer)
// and the heads for that word's row alone.
MultiplyAdds multiply_adds(const sawtag::ModelConfig& config, double n, bool one_word) {
  const double d = config.d_model, ff = config.d_ff, rows = n * (n + 1);
  MultiplyAdds count;
  count.products = 2 * n * 3 * d * d + rows * (d * d + 2 * d * ff) +
                   rows * (config.num_layers - 1) * (3 * d * d + d * d + 2 * d * ff);
  count.attention = rows * config.num_layers * 2 * n * d;
  const double rows_out = one_word ? n + n : rows;  // the sentence's rows, one row a copy
  if (one_word) count.products -= (rows - rows_out) * (d * d + 2 * d * ff);
  count.heads = rows_out * d * (config.num_upos + config.num_xpos);
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sawtag_explain_bench MODEL [WORDS [THREADS [RUNS [WORD]]]]\n");
    return 2;
  }
  try {
    const int num_words = argc > 2 ? std::max(1, std::atoi(argv[2])) : 30;
    sawtag::ExplainOptions options;
    options.threads = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
    const int runs = argc > 4 ? std::max(1, std::atoi(argv[4])) : 201;
    options.word = argc > 5 ? std::atoi(argv[5]) - 1 : -1;
    const char* text[] = {"The",     "committee", "said",   "on",     "Tuesday", "that",
                          "it",      "would",     "review", "the",    "plan",    "again",
                          "before",  "the",       "vote",   ",",      "but",     "several",
                          "members", "saw",       "no",     "reason", "to",      "delay",
                          "a",       "decision",  "that",   "many",   "expect",  "."};
    std::vector<std::string> words;
    for (int i = 0; i < num_words; ++i) words.emplace_back(text[i % 30]);
    const auto model = std::make_shared<const sawtag::Model>(sawtag::load_model(argv[1]));
    const sawtag::Tagger tagger(model);
    // The reference: tagging as many words (the sentence n + 1 times) without top_k.
    const std::vector<std::vector<std::string>> copies(words.size() + 1, words);
    sawtag::Explainer explainer(tagger, options);  // as `sawtag explain` runs it
    std::printf("load average before: %s\n", load_average().c_str());
    const Timing explain = time_runs(runs, [&] { return explainer.explain(words).num_words; });
    const Timing tag =
        time_runs(runs, [&] { return static_cast<int>(tagger.tag_batch(copies).size()); });
    std::printf("load average after: %s\n", load_average().c_str());
    char title[200];
    std::snprintf(title, sizeof title,
                  "explain%s, %d words (the sentence and %d masked copies), %d thread%s, %d runs:",
                  options.word < 0 ? "" : " --word", num_words, num_words, options.threads,
                  options.threads == 1 ? "" : "s", runs);
    print(title, explain);
    std::snprintf(title, sizeof title,
                  "tag_batch of the same %d words, 1 thread, %d runs:", num_words * (num_words + 1),
                  runs);
    print(title, tag);
    const MultiplyAdds count = multiply_adds(model->config, num_words, options.word >= 0);
    const double flops = 2 * (count.products + count.attention + count.heads);
    std::printf(
        "FLOP per explanation: %.3f G (layer products %.3f G, attention %.3f G, heads %.3f G); "
        "at the median CPU time: %.1f GFLOP/s\n",
        flops / 1e9, 2 * count.products / 1e9, 2 * count.attention / 1e9, 2 * count.heads / 1e9,
        flops / (explain.cpu.median * 1e6));
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sawtag_explain_bench: %s\n", error.what());
    return 1;
  }
}
