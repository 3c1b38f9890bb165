// Which words a tag depends on, measured by occlusion: each word of a sentence is masked in
// turn (replaced by kMaskedWord, features.hpp), the masked copies are tagged, and the drop of
// every word's chosen tag's probability is kept. Unlike attention weights (several heads, several
// layers and residual paths between input and output), a drop is a measured effect on the
// decision. docs/explain-format.md defines the mask and the JSON that `sawtag explain` writes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sawtag/tagger.hpp"

namespace sawtag {

// What masking one word does to the tags of one (possibly the same) word.
struct Occlusion {
  // p(tag | sentence) - p(tag | sentence with the word masked), for the tag the word gets in
  // the sentence as it is; negative when masking makes that tag more likely.
  float upos_drop = 0.0f;
  float xpos_drop = 0.0f;
  std::string upos_when_masked;  // the word's tags in the masked sentence
  std::string xpos_when_masked;
};

struct SentenceExplanation {
  int num_words = 0;
  TagResult tags;  // of the sentence as it is: exactly what Tagger::tag gives (no top_k)
  // [num_words * num_words]: occlusions[i * num_words + j] is word i's tags with word j masked;
  // the diagonal (j == i) is the word's own form masked.
  std::vector<Occlusion> occlusions;

  const Occlusion& at(int word, int masked) const {
    return occlusions[static_cast<std::size_t>(word) * static_cast<std::size_t>(num_words) +
                      static_cast<std::size_t>(masked)];
  }
};

struct ExplainOptions {
  // Threads the sentence's masked copies are split over (the calling thread is one of them; a
  // sentence of n words uses at most (n + 1) / 2); any number gives the same result, bit for bit.
  int threads = 1;
  // When >= 0, only this word (counted from 0) is explained: explanation.at(word, j) for every
  // j, with the same values as when every word is explained; the other words' occlusions stay
  // empty (drops 0, no tags). The copies' last layer then runs past its attention for this
  // word's row alone, about a quarter less work. Explaining a sentence of `word` words or fewer
  // throws InputError.
  int word = -1;
};

// Explains every word's tags. The sentence and its n masked copies run through the tagger's
// network in batches (the copies of one sentence 4096 words at a time, which bounds memory),
// the first layer's norm and Q/K/V product of the unmasked words computed once for all the
// copies; each masked sentence still gets exactly the logits Tagger::tag gives it when it tags
// the sentence whole (TagOptions::long_sentence = max_window(); by default `tag` cuts a sentence
// of over 64 words into windows of 32, and its tags there may differ; a row's
// result depends on its own window only, so batching and sharing never change a bit). So
// upos_drop is exactly tags.words[i].upos_probability minus the probability of that tag in the
// result Tagger::tag gives for the masked sentence (top_k: the same probabilities `sawtag tag
// --probs` writes). Throws InputError when the sentence has more than tagger.max_window()
// words: such a sentence is tagged in overlapping windows and its explanations would cost n^2
// window passes; explain it in shorter sentences.
SentenceExplanation explain_tags(const Tagger& tagger, const std::vector<std::string>& words,
                                 const ExplainOptions& options = {});

class HelperThreads;

// explain_tags for sentence after sentence: its threads (options.threads - 1 besides the
// caller's) are started once and kept, each with its network buffers, instead of per call.
// `tagger` must outlive it; explain() gives exactly what explain_tags gives and may be called
// from one thread at a time.
class Explainer {
 public:
  explicit Explainer(const Tagger& tagger, const ExplainOptions& options = {});
  ~Explainer();
  Explainer(const Explainer&) = delete;
  Explainer& operator=(const Explainer&) = delete;

  SentenceExplanation explain(const std::vector<std::string>& words);

 private:
  const Tagger& tagger_;
  int word_;  // ExplainOptions::word
  std::unique_ptr<HelperThreads> helpers_;
};

enum class ExplainedTag { upos, xpos };

// The other words of the sentence (counted from 0), the strongest influence on `word`'s `tag`
// first: by |drop| descending, then by position.
std::vector<int> strongest_first(const SentenceExplanation& explanation, int word,
                                 ExplainedTag tag);

}  // namespace sawtag
