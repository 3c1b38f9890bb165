#include "python_tagger.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <sstream>
#include <thread>
#include <utility>

#include "sawtag/error.hpp"
#include "sawtag/explanation.hpp"
#include "sawtag/explanation_view.hpp"
#include "text_input.hpp"

namespace sawtag::python {
namespace {

// [first, last) ranges of sentences of about `batch_words` words each (at least one sentence),
// as app/tag_chunk.cpp forms them.
std::vector<std::pair<std::size_t, std::size_t>> batches_of(
    const std::vector<std::vector<std::string>>& sentences, std::size_t batch_words) {
  std::vector<std::pair<std::size_t, std::size_t>> batches;
  std::size_t first = 0;
  while (first < sentences.size()) {
    std::size_t last = first;
    std::size_t words = 0;
    while (last < sentences.size() &&
           (last == first || words + sentences[last].size() <= batch_words)) {
      words += sentences[last++].size();
    }
    batches.emplace_back(first, last);
    first = last;
  }
  return batches;
}

// Tags every batch on `threads` threads (>= 1), the caller's among them; threads take the next
// batch not taken until none is left. The first exception is rethrown here, after every thread has
// stopped.
std::vector<TagResult> tag_batches(const Tagger& tagger,
                                   const std::vector<std::vector<std::string>>& sentences,
                                   const TagOptions& options, int threads) {
  std::vector<TagResult> results(sentences.size());
  const auto batches = batches_of(sentences, static_cast<std::size_t>(options.batch_words));
  std::atomic<std::size_t> next_batch{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  const auto work = [&] {
    try {
      for (std::size_t b = next_batch++; b < batches.size() && !failed; b = next_batch++) {
        const auto [first, last] = batches[b];
        const std::vector<std::vector<std::string>> batch(sentences.begin() + first,
                                                          sentences.begin() + last);
        std::vector<TagResult> tagged = tagger.tag_batch(batch, options);
        std::move(tagged.begin(), tagged.end(), results.begin() + first);
      }
    } catch (...) {
      if (!failed.exchange(true)) error = std::current_exception();
    }
  };
  const std::size_t wanted = std::min(batches.size(), static_cast<std::size_t>(threads));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < wanted; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
  return results;
}

}  // namespace

PythonTagger::PythonTagger(const std::string& path, TagPrecision precision)
    : path_(path),
      model_(std::make_shared<const Model>(load_model(path, Int8WordTable::keep))),
      tagger_(model_, precision),
      tokenizer_(model_->tokenizer) {}

std::vector<Sentence> PythonTagger::split_raw(const std::string& text) const {
  std::vector<Sentence> sentences = split_raw_text(text, tokenizer_, /*mark_paragraphs=*/false);
  number_sentences(sentences);
  return sentences;
}

TaggedSentences PythonTagger::tag(std::vector<Sentence> sentences, int threads,
                                  bool capture_attention) const {
  std::vector<std::vector<std::string>> forms;
  forms.reserve(sentences.size());
  for (const Sentence& sentence : sentences) forms.push_back(word_forms(sentence));
  TagOptions options;
  options.capture_attention = capture_attention;
  TaggedSentences tagged{std::move(sentences), tag_batches(tagger_, forms, options, threads)};
  OutputOptions columns;
  columns.tags = TagColumns::both;
  columns.lemmas = tagger_.model().has_lemmas();
  columns.feats = tagger_.model().has_feats();
  for (std::size_t s = 0; s < tagged.sentences.size(); ++s) {
    apply_tags(tagged.sentences[s], tagged.results[s], columns);
  }
  return tagged;
}

std::string PythonTagger::tag_conllu(const std::string& text, TextInput input, TagColumns tags,
                                     bool probabilities, bool morphology) const {
  std::vector<Sentence> sentences;
  switch (input) {
    case TextInput::raw:
      sentences = split_raw_text(text, tokenizer_, /*mark_paragraphs=*/true);
      number_sentences(sentences);
      break;
    case TextInput::tokenized:
      sentences = split_tokenized_text(text);
      number_sentences(sentences);
      break;
    case TextInput::conllu:
      sentences = read_conllu_text(text);
      break;
  }
  std::vector<std::vector<std::string>> forms;
  forms.reserve(sentences.size());
  for (const Sentence& sentence : sentences) forms.push_back(word_forms(sentence));
  TagOptions options;
  options.morphology_probabilities = probabilities;
  options.morphology = morphology;
  const std::vector<TagResult> results = tag_batches(tagger_, forms, options, 1);
  OutputOptions output;
  output.format = OutputFormat::conllu;
  output.tags = tags;
  output.probabilities = probabilities;
  // "all": also the lemma and FEATS columns the model predicts, as `sawtag tag --tags all`.
  output.lemmas = morphology && tagger_.model().has_lemmas();
  output.feats = morphology && tagger_.model().has_feats();
  std::ostringstream out;
  const std::unique_ptr<OutputWriter> writer = make_output_writer(out, output);
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    writer->write_line({TaggedSentence{&sentences[s], &results[s]}});
  }
  writer->finish();
  return out.str();
}

std::string PythonTagger::explain_json(const std::vector<Sentence>& sentences, int threads) const {
  const int max_window = tagger_.max_window();
  for (std::size_t s = 0; s < sentences.size(); ++s) {  // the CLI's message (explain_command.cpp)
    const auto n = static_cast<int>(sentences[s].words.size());
    if (n > max_window) {
      throw InputError("sentence " + std::to_string(s + 1) + ": " + std::to_string(n) +
                       " words, more than the model's window of " + std::to_string(max_window) +
                       ": explain explains sentences that fit one window; split it");
    }
  }
  ExplanationViewOptions view;
  view.tags = TagColumns::both;
  ExplainOptions options;
  options.threads = std::max(threads, 1);
  Explainer explainer(tagger_, options);
  std::ostringstream out;
  ExplanationWriter writer(out, view);
  for (const Sentence& sentence : sentences) {
    writer.write(sentence, explainer.explain(word_forms(sentence)));
  }
  writer.finish();
  return out.str();
}

}  // namespace sawtag::python
