// Tagging in tasks (sawtag/tag_in_tasks.hpp): long sentences cut into their windows, each
// tagged as a sentence of its own on any thread, give exactly what Tagger::tag_batch gives.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fixtures.hpp"
#include "infer/windows.hpp"
#include "sawtag/tag_in_tasks.hpp"

using namespace sawtag;

namespace {

// `count` words cycling through the fixture model's vocabulary and an unknown word.
std::vector<std::string> words_of(int count, int offset) {
  const std::vector<std::string> forms = {"I",   "saw",   "a",   "dog", ".", "the",
                                          "Saw", "don't", "see", "it",  ",", "zebra"};
  std::vector<std::string> words;
  for (int i = 0; i < count; ++i)
    words.push_back(forms[static_cast<std::size_t>(i * 7 + offset) % forms.size()]);
  return words;
}

void require_same(const std::vector<TagResult>& expected, const std::vector<TagResult>& actual) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t s = 0; s < expected.size(); ++s) {
    REQUIRE(actual[s].words.size() == expected[s].words.size());
    for (std::size_t i = 0; i < expected[s].words.size(); ++i) {
      const WordTags& want = expected[s].words[i];
      const WordTags& got = actual[s].words[i];
      INFO("sentence " << s << ", word " << i);
      CHECK(got.upos == want.upos);
      CHECK(got.xpos == want.xpos);
      CHECK(got.upos_probability == want.upos_probability);  // the same floats, not close ones
      CHECK(got.xpos_probability == want.xpos_probability);
      CHECK(got.upos_logits == want.upos_logits);
      CHECK(got.xpos_logits == want.xpos_logits);
      REQUIRE(got.upos_top.size() == want.upos_top.size());
      for (std::size_t k = 0; k < want.upos_top.size(); ++k) {
        CHECK(got.upos_top[k].tag == want.upos_top[k].tag);
        CHECK(got.upos_top[k].probability == want.upos_top[k].probability);
      }
    }
  }
}

// Runs the tasks on `threads` threads, task t on thread t % threads, last task first.
RunTasks on_threads(int threads, int& tasks_seen) {
  return [threads, &tasks_seen](std::vector<std::function<void()>> tasks) {
    tasks_seen = static_cast<int>(tasks.size());
    std::reverse(tasks.begin(), tasks.end());
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&tasks, t, threads] {
        for (std::size_t i = static_cast<std::size_t>(t); i < tasks.size(); i += threads)
          tasks[i]();
      });
    }
    for (std::thread& worker : workers) worker.join();
  };
}

}  // namespace

TEST_CASE("tag_in_tasks: long and short sentences, on threads, give tag_batch's results",
          "[tag_in_tasks]") {
  const auto model = std::make_shared<Model>(testing::make_random_model());
  const Tagger tagger(model);
  const int window = tagger.max_window();
  REQUIRE(window == 64);
  // Longer than a window by far, by one word, exactly one window, short, empty.
  const std::vector<std::vector<std::string>> sentences = {words_of(7 * window + 13, 0),
                                                           words_of(window + 1, 1),
                                                           words_of(window, 2),
                                                           words_of(5, 3),
                                                           {},
                                                           words_of(3 * window + 40, 4)};
  TagOptions options;
  options.top_k = 3;
  options.logits = true;
  options.batch_words = 100;  // a window per task, short sentences grouped
  const std::vector<TagResult> expected = tagger.tag_batch(sentences, options);
  for (const int threads : {1, 2, 3}) {
    int tasks = 0;
    INFO(threads << " threads");
    require_same(expected, tag_in_tasks(tagger, sentences, options, on_threads(threads, tasks)));
    CHECK(tasks > 10);  // the long sentences were cut into windows
  }
  require_same(expected, tag_in_tasks(tagger, sentences, options, RunTasks()));  // no runner
}

TEST_CASE("tag_in_tasks: run_tasks is called once, also with no sentences to tag",
          "[tag_in_tasks]") {
  // app/tag_chunk.cpp adds its own tasks (the next part's tokenizing) to that one call.
  const auto model = std::make_shared<Model>(testing::make_random_model());
  const Tagger tagger(model);
  int calls = 0;
  std::size_t tasks_seen = 0;
  const RunTasks count_calls = [&](std::vector<std::function<void()>> tasks) {
    ++calls;
    tasks_seen = tasks.size();
    for (const std::function<void()>& task : tasks) task();
  };
  CHECK(tag_in_tasks(tagger, {}, TagOptions(), count_calls).empty());
  CHECK(calls == 1);
  CHECK(tasks_seen == 0);
  const std::vector<std::vector<std::string>> sentences = {words_of(5, 0), {}, words_of(300, 1)};
  const std::vector<TagResult> results = tag_in_tasks(tagger, sentences, TagOptions(), count_calls);
  CHECK(calls == 2);
  CHECK(tasks_seen > 1);
  require_same(tagger.tag_batch(sentences, TagOptions()), results);
}

TEST_CASE("tag_in_tasks: a long sentence's words get the bits of their window tagged whole",
          "[tag_in_tasks]") {
  // A window computes its last layer past the attention for the words it owns alone; windows
  // of 32 words (the attention's row loops) and of 64 (Eigen's products).
  const auto model = std::make_shared<Model>(testing::make_random_model());
  const Tagger tagger(model);
  const std::vector<std::string> words = words_of(500, 5);
  for (const auto& [length, step] : std::vector<std::pair<int, int>>{{32, 28}, {64, 32}}) {
    TagOptions options;
    options.logits = true;
    options.long_sentence_window = length;
    options.long_sentence_step = step;
    int tasks = 0;
    const std::vector<TagResult> results =
        tag_in_tasks(tagger, {words}, options, on_threads(2, tasks));
    const infer::WindowPlan plan = infer::plan_windows(500, 64, length, step);
    REQUIRE(plan.length == length);
    for (std::size_t w = 0; w < plan.starts.size(); ++w) {
      const auto first = words.begin() + plan.starts[w];
      const TagResult alone = tagger.tag(std::vector<std::string>(first, first + length), options);
      const infer::WordRange owned = infer::owned_words(plan, static_cast<int>(w));
      for (int word = owned.first; word < owned.last; ++word) {
        INFO("length " << length << ", word " << word);
        const WordTags& got = results[0].words[static_cast<std::size_t>(word)];
        const WordTags& want = alone.words[static_cast<std::size_t>(word - plan.starts[w])];
        CHECK(got.upos_probability == want.upos_probability);
        CHECK(got.xpos_probability == want.xpos_probability);
        CHECK(got.upos_logits == want.upos_logits);
        CHECK(got.xpos_logits == want.xpos_logits);
      }
    }
  }
}
