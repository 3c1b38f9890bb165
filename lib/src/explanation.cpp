// Occlusion: the sentence and its n copies with one word masked, tagged in one batch.
#include "sawtag/explanation.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "sawtag/error.hpp"
#include "sawtag/features.hpp"

namespace sawtag {

namespace {

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
  // sentences[0] is the sentence as it is, sentences[1 + j] has word j masked.
  std::vector<std::vector<std::string>> sentences(static_cast<std::size_t>(n) + 1, words);
  for (int j = 0; j < n; ++j) {
    sentences[static_cast<std::size_t>(j) + 1][static_cast<std::size_t>(j)] = kMaskedWord;
  }
  const ModelConfig& config = tagger.model().config;
  TagOptions options;
  options.top_k = std::max(config.num_upos, config.num_xpos);  // every tag's probability
  std::vector<TagResult> results = tagger.tag_batch(sentences, options);

  SentenceExplanation explanation;
  explanation.num_words = n;
  explanation.tags = std::move(results.front());
  explanation.occlusions.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const WordTags& original = explanation.tags.words[static_cast<std::size_t>(i)];
    for (int j = 0; j < n; ++j) {
      const WordTags& masked =
          results[static_cast<std::size_t>(j) + 1].words[static_cast<std::size_t>(i)];
      Occlusion& occlusion = explanation.occlusions[static_cast<std::size_t>(i) * n + j];
      occlusion.upos_drop =
          original.upos_probability - probability_of(masked.upos_top, original.upos);
      occlusion.xpos_drop =
          original.xpos_probability - probability_of(masked.xpos_top, original.xpos);
      occlusion.upos_when_masked = masked.upos;
      occlusion.xpos_when_masked = masked.xpos;
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
