// Prints how long explaining one sentence takes once the model is loaded (README, "sawtag
// explain"): the sentence and its n masked copies tagged in one batch, then the drops.
//   sawtag_explain_bench MODEL [WORDS]
// WORDS (default 30) words of an English sentence, cycled; the median and the fastest of 21
// runs, and the same for tagging as many words with Tagger::tag_batch, for comparison.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sawtag/explanation.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"

namespace {

// The median and the fastest of 21 runs of `run` in milliseconds, after one warm-up (which
// fills the tagger's cache of word input rows).
template <class Run>
std::pair<double, double> median_and_fastest(Run run) {
  int sink = run();
  std::vector<double> milliseconds;
  for (int round = 0; round < 21; ++round) {
    const auto start = std::chrono::steady_clock::now();
    sink += run();
    const auto stop = std::chrono::steady_clock::now();
    milliseconds.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  if (sink < 0) std::printf("?\n");  // keeps the runs from being optimised away
  std::sort(milliseconds.begin(), milliseconds.end());
  return {milliseconds[milliseconds.size() / 2], milliseconds.front()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sawtag_explain_bench MODEL [WORDS]\n");
    return 2;
  }
  try {
    const int num_words = argc > 2 ? std::max(1, std::atoi(argv[2])) : 30;
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
    const auto [explain_median, explain_fastest] =
        median_and_fastest([&] { return sawtag::explain_tags(tagger, words).num_words; });
    const auto [tag_median, tag_fastest] =
        median_and_fastest([&] { return static_cast<int>(tagger.tag_batch(copies).size()); });
    std::printf(
        "explain, %d words (the sentence and %d masked copies in one batch): "
        "median %.2f ms, fastest %.2f ms\n",
        num_words, num_words, explain_median, explain_fastest);
    std::printf("tag_batch of the same %d words: median %.2f ms, fastest %.2f ms\n",
                num_words * (num_words + 1), tag_median, tag_fastest);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sawtag_explain_bench: %s\n", error.what());
    return 1;
  }
}
