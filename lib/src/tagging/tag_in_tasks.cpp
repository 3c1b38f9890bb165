#include "sawtag/tag_in_tasks.hpp"

#include <algorithm>
#include <cstddef>

#include "infer/windows.hpp"
#include "tagging/batch_tagger.hpp"

namespace sawtag {

namespace {

// A whole sentence (window < 0), or window `window` of a long one; `count` words.
struct Piece {
  std::size_t sentence = 0;
  int window = -1;
  int count = 0;
};

}  // namespace

std::vector<TagResult> tag_in_tasks(const Tagger& tagger,
                                    const std::vector<std::vector<std::string>>& sentences,
                                    const TagOptions& options, const RunTasks& run_tasks) {
  if (!run_tasks) return tagger.tag_batch(sentences, options);
  const int whole = infer::whole_sentence_words(tagger.max_window(), options.long_sentence,
                                                options.capture_attention);
  std::vector<TagResult> results(sentences.size());
  std::vector<infer::WindowPlan> plans(sentences.size());
  std::vector<Piece> pieces;
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    const auto n = static_cast<int>(sentences[s].size());
    if (n <= whole) {
      pieces.push_back(Piece{s, -1, n});
      continue;
    }
    plans[s] =
        infer::plan_windows(n, whole, options.long_sentence_window, options.long_sentence_step);
    results[s].words.resize(sentences[s].size());  // before the tasks fill in their words
    for (std::size_t w = 0; w < plans[s].starts.size(); ++w) {
      pieces.push_back(Piece{s, static_cast<int>(w), plans[s].length});
    }
  }

  // Each task writes whole results or the words its windows own: no two write the same.
  const auto tag_pieces = [&](std::size_t begin, std::size_t end) {
    BatchTagger batch(tagger, options);
    for (std::size_t p = begin; p < end; ++p) {
      const Piece& piece = pieces[p];
      const std::vector<std::string>& words = sentences[piece.sentence];
      TagResult& result = results[piece.sentence];
      if (piece.window < 0) {
        batch.add(words, result);
      } else {
        batch.add_window(words, plans[piece.sentence], piece.window, result);
      }
    }
    batch.run();
  };
  std::vector<std::function<void()>> tasks;
  const auto batch_words = static_cast<std::size_t>(std::max(1, options.batch_words));
  for (std::size_t begin = 0; begin < pieces.size();) {
    std::size_t end = begin;
    std::size_t words = 0;
    while (end < pieces.size() &&
           (end == begin || words + static_cast<std::size_t>(pieces[end].count) <= batch_words)) {
      words += static_cast<std::size_t>(pieces[end++].count);
    }
    tasks.emplace_back([&tag_pieces, begin, end] { tag_pieces(begin, end); });
    begin = end;
  }
  run_tasks(std::move(tasks));
  return results;
}

}  // namespace sawtag
