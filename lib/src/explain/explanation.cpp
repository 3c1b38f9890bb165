// Occlusion: the sentence and its n copies with one word masked, run through the network
// together (InferenceNetwork::forward_masked), split over threads kept by an Explainer.
#include "sawtag/explanation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "threads/helper_threads.hpp"
#include "infer/network_ensemble.hpp"
#include "sawtag/error.hpp"
#include "tagging/tagger_internals.hpp"

namespace sawtag {

namespace {

// Masked copies run through the network per forward_masked call: this bounds the logits kept
// at a time (4096 rows of ~70 floats, ~1.1 MB a thread); a sentence of up to 64 words has all
// its copies in one call (a call also recomputes the first layer's rows of the sentence).
constexpr int kWordsPerCall = 4096;

// A thread gets at least this many windows: each thread also computes the first layer's rows of
// the unmasked sentence, as much work as about a third of a window.
constexpr int kWindowsPerThread = 2;

// One row's tags as Tagger gives them: tag_softmax, then the first most likely tag.
struct RowTags {
  int upos = 0;  // indices into the model's tag sets
  int xpos = 0;
  std::vector<float> upos_probabilities;
  std::vector<float> xpos_probabilities;

  void compute(const Model& model, const float* logits) {
    const int num_upos = model.config.num_upos;
    tag_softmax(logits, num_upos, model.calibration.upos_temperature, upos_probabilities);
    tag_softmax(logits + num_upos, model.config.num_xpos, model.calibration.xpos_temperature,
                xpos_probabilities);
    upos = most_likely(upos_probabilities);
    xpos = most_likely(xpos_probabilities);
  }
  static int most_likely(const std::vector<float>& probabilities) {
    return static_cast<int>(std::max_element(probabilities.begin(), probabilities.end()) -
                            probabilities.begin());
  }
};

// The sentence's own tags: what the occlusions are measured against.
struct SentenceTags {
  std::vector<int> upos, xpos;  // [n]: indices into the model's tag sets
  TagResult result;             // as Tagger::tag gives it
};

// What one thread does: windows [first_window, last_window) of the sentence (window 0: the
// sentence as it is, published through `sentence_tags`; window j + 1: word j masked, written
// to the occlusions of column j once the sentence's tags are known).
struct Share {
  const Tagger* tagger = nullptr;
  const std::vector<std::string>* words = nullptr;
  int first_window = 0;
  int last_window = 0;
  int word = -1;  // ExplainOptions::word
};

SentenceTags tag_sentence(const Share& share) {
  const Model& model = share.tagger->model();
  const auto n = static_cast<int>(share.words->size());
  infer::MaskedCopies sentence_only;
  std::vector<float> logits;
  TaggerInternals::network(*share.tagger).forward_masked(*share.words, sentence_only, logits);
  const int columns = TaggerInternals::network(*share.tagger).num_logits();
  SentenceTags tags;
  tags.result.words.resize(static_cast<std::size_t>(n));
  RowTags row;
  for (int i = 0; i < n; ++i) {
    row.compute(model, logits.data() + static_cast<std::size_t>(i) * columns);
    tags.upos.push_back(row.upos);
    tags.xpos.push_back(row.xpos);
    WordTags& word = tags.result.words[static_cast<std::size_t>(i)];
    word.upos = model.upos.at(row.upos);
    word.xpos = model.xpos.at(row.xpos);
    word.upos_probability = row.upos_probabilities[static_cast<std::size_t>(row.upos)];
    word.xpos_probability = row.xpos_probabilities[static_cast<std::size_t>(row.xpos)];
  }
  return tags;
}

void run_share(const Share& share, std::promise<SentenceTags>* sentence_promise,
               const std::shared_future<SentenceTags>& sentence_tags,
               SentenceExplanation& explanation) {
  const Model& model = share.tagger->model();
  const auto n = static_cast<int>(share.words->size());
  const int columns = TaggerInternals::network(*share.tagger).num_logits();
  int first_copy = share.first_window - 1;
  if (share.first_window == 0) {
    sentence_promise->set_value(tag_sentence(share));
    first_copy = 0;
  }
  const int last_copy = share.last_window - 1;
  const int copies_per_call = std::max(1, kWordsPerCall / n);
  thread_local std::vector<float> logits;  // kept: a thread's calls reuse it
  RowTags row;
  for (int first = first_copy; first < last_copy; first += copies_per_call) {
    infer::MaskedCopies copies;
    copies.first = first;
    copies.last = std::min(last_copy, first + copies_per_call);
    copies.with_sentence = false;
    copies.only_word = share.word;
    TaggerInternals::network(*share.tagger).forward_masked(*share.words, copies, logits);
    const SentenceTags& original = sentence_tags.get();  // waits for the sentence's tags
    // Logit rows per copy: every word's, or share.word's alone.
    const int rows = share.word < 0 ? n : 1;
    const int first_word = share.word < 0 ? 0 : share.word;
    for (int j = copies.first; j < copies.last; ++j) {
      for (int i = first_word; i < first_word + rows; ++i) {
        const auto word = static_cast<std::size_t>(i);
        const std::size_t logit_row = static_cast<std::size_t>(j - copies.first) * rows +
                                      static_cast<std::size_t>(i - first_word);
        row.compute(model, logits.data() + logit_row * columns);
        const WordTags& tags = original.result.words[word];
        Occlusion& occlusion = explanation.occlusions[word * n + static_cast<std::size_t>(j)];
        occlusion.upos_drop = tags.upos_probability -
                              row.upos_probabilities[static_cast<std::size_t>(original.upos[word])];
        occlusion.xpos_drop = tags.xpos_probability -
                              row.xpos_probabilities[static_cast<std::size_t>(original.xpos[word])];
        occlusion.upos_when_masked = model.upos.at(row.upos);
        occlusion.xpos_when_masked = model.xpos.at(row.xpos);
      }
    }
  }
}

}  // namespace

Explainer::Explainer(const Tagger& tagger, const ExplainOptions& options)
    : tagger_(tagger),
      word_(options.word),
      helpers_(std::make_unique<HelperThreads>(std::max(1, options.threads) - 1)) {}

Explainer::~Explainer() = default;

SentenceExplanation Explainer::explain(const std::vector<std::string>& words) {
  const auto n = static_cast<int>(words.size());
  if (n > tagger_.max_window()) {
    throw InputError("explain: a sentence of " + std::to_string(n) +
                     " words is longer than the model's window of " +
                     std::to_string(tagger_.max_window()) + " words; explain it in shorter parts");
  }
  if (word_ >= n) {
    throw InputError("explain: word " + std::to_string(word_ + 1) + " of a sentence of " +
                     std::to_string(n) + (n == 1 ? " word" : " words"));
  }
  SentenceExplanation explanation;
  explanation.num_words = n;
  if (n == 0) return explanation;
  explanation.occlusions.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));

  // Thread t runs windows [(n + 1) t / T, (n + 1) (t + 1) / T): the calling thread runs the
  // first, which holds the sentence itself; the others wait for its tags only once their first
  // masked copies are through the network. Threads beyond (n + 1) / kWindowsPerThread have nothing
  // to do.
  const int windows = n + 1;
  const int threads = std::min(helpers_->count() + 1, std::max(1, windows / kWindowsPerThread));
  std::promise<SentenceTags> sentence_promise;
  const std::shared_future<SentenceTags> sentence_tags = sentence_promise.get_future().share();
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  const auto job = [&](int t) {
    if (t >= threads) return;
    const Share share{&tagger_, &words, static_cast<int>(std::int64_t{windows} * t / threads),
                      static_cast<int>(std::int64_t{windows} * (t + 1) / threads), word_};
    try {
      run_share(share, t == 0 ? &sentence_promise : nullptr, sentence_tags, explanation);
    } catch (...) {
      errors[static_cast<std::size_t>(t)] = std::current_exception();
      if (t == 0) {  // the helpers wait for the sentence's tags: give them the error instead
        try {
          sentence_promise.set_exception(std::current_exception());
        } catch (const std::future_error&) {  // the tags were set before the error
        }
      }
    }
  };
  helpers_->run(job);
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  explanation.tags = sentence_tags.get().result;
  return explanation;
}

SentenceExplanation explain_tags(const Tagger& tagger, const std::vector<std::string>& words,
                                 const ExplainOptions& options) {
  return Explainer(tagger, options).explain(words);
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
