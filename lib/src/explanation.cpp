// Occlusion: the sentence and its n copies with one word masked, tagged in batches.
#include "sawtag/explanation.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "sawtag/error.hpp"
#include "sawtag/features.hpp"

namespace sawtag {

namespace {

// Words tagged per Tagger::tag_batch call. Each keeps every tag's probability (about 70
// candidates of ~40 bytes with the shipped model), so this bounds memory at ~12 MB for any
// sentence; a sentence of up to 64 words and its copies go in one call.
constexpr int kWordsPerCall = 4096;

// The probability of `tag` among `candidates` (all of a word's tags, tag_batch's top_k).
float probability_of(const std::vector<TagCandidate>& candidates, const std::string& tag) {
  for (const TagCandidate& candidate : candidates) {
    if (candidate.tag == tag) return candidate.probability;
  }
  return 0.0f;  // not reached: top_k covers every tag
}

}  // namespace

SentenceExplanation explain_tags(const Tagger& tagger, const std::vector<std::string>& words) {
  const auto n = static_cast<int>(words.size());
  if (n > tagger.max_window()) {
    throw InputError("explain: a sentence of " + std::to_string(n) +
                     " words is longer than the model's window of " +
                     std::to_string(tagger.max_window()) + " words; explain it in shorter parts");
  }
  const ModelConfig& config = tagger.model().config;
  TagOptions options;
  options.top_k = std::max(config.num_upos, config.num_xpos);  // every tag's probability
  SentenceExplanation explanation;
  explanation.num_words = n;
  explanation.occlusions.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  // The sentence, then its masked copies, kWordsPerCall words to a tag_batch call (the first
  // call also has the sentence as it is).
  const int copies_per_call = std::max(1, kWordsPerCall / std::max(1, n));
  for (int first = 0; first < std::max(n, 1); first += copies_per_call) {
    const int last = std::min(n, first + copies_per_call);  // masked words [first, last)
    std::vector<std::vector<std::string>> sentences;
    if (first == 0) sentences.push_back(words);
    for (int j = first; j < last; ++j) {
      sentences.push_back(words);
      sentences.back()[static_cast<std::size_t>(j)] = kMaskedWord;
    }
    std::vector<TagResult> results = tagger.tag_batch(sentences, options);
    if (first == 0) explanation.tags = std::move(results.front());
    const std::size_t first_copy = first == 0 ? 1 : 0;
    for (int j = first; j < last; ++j) {
      const TagResult& masked = results[first_copy + static_cast<std::size_t>(j - first)];
      for (int i = 0; i < n; ++i) {
        const WordTags& original = explanation.tags.words[static_cast<std::size_t>(i)];
        const WordTags& tags = masked.words[static_cast<std::size_t>(i)];
        Occlusion& occlusion = explanation.occlusions[static_cast<std::size_t>(i) * n + j];
        occlusion.upos_drop =
            original.upos_probability - probability_of(tags.upos_top, original.upos);
        occlusion.xpos_drop =
            original.xpos_probability - probability_of(tags.xpos_top, original.xpos);
        occlusion.upos_when_masked = tags.upos;
        occlusion.xpos_when_masked = tags.xpos;
      }
    }
  }
  for (WordTags& word : explanation.tags.words) {
    word.upos_top.clear();
    word.xpos_top.clear();
  }
  return explanation;
}

std::vector<int> strongest_first(const SentenceExplanation& explanation, int word,
                                 ExplainedTag tag) {
  const auto strength = [&](int masked) {
    const Occlusion& occlusion = explanation.at(word, masked);
    return std::fabs(tag == ExplainedTag::upos ? occlusion.upos_drop : occlusion.xpos_drop);
  };
  std::vector<int> others;
  for (int j = 0; j < explanation.num_words; ++j) {
    if (j != word) others.push_back(j);
  }
  std::stable_sort(others.begin(), others.end(),
                   [&](int a, int b) { return strength(a) > strength(b); });
  return others;
}

}  // namespace sawtag
