// Output formats for tagged sentences: text, tsv, conllu, json, jsonl; and the attention file.
// The syntax of each format is documented in docs/cli.md ("Output formats") and
// docs/attention-format.md. Writers only format: they never flush, and write errors are left in
// the stream's state for the caller to check.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string_view>
#include <vector>

#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag {

enum class OutputFormat {
  text,    // I/PRON saw/VERB a/DET saw/NOUN            (one line per input line)
  tsv,     // I saw a saw<TAB>PRON VERB DET NOUN        (one row per input line)
  conllu,  // CoNLL-U with UPOS/XPOS filled in
  json,    // one JSON array of sentence objects, written incrementally
  jsonl    // one JSON sentence object per line
};

// Which of UPOS and XPOS are written (none: only the lemma and/or features, OutputOptions).
enum class TagColumns { upos, xpos, both, none };

inline bool writes_upos(TagColumns tags) {
  return tags == TagColumns::upos || tags == TagColumns::both;
}
inline bool writes_xpos(TagColumns tags) {
  return tags == TagColumns::xpos || tags == TagColumns::both;
}

struct OutputOptions {
  OutputFormat format = OutputFormat::text;
  TagColumns tags = TagColumns::upos;  // which tags are written (and filled in CoNLL-U)
  // Also the lemma / the features (CoNLL-U's LEMMA, FEATS), from a model with those heads:
  // text "saw/VERB/see/Mood=Ind|...", a tsv column each, json "lemma" and "feats".
  bool lemmas = false;
  bool feats = false;
  bool probabilities = false;          // write each tag's probability
  int top_k = 0;                       // json/jsonl: the k most likely tags of each word
};

// A sentence as read (words, comments, multi-word tokens) and what the tagger said about it.
// result.words[i] belongs to sentence.words[i]. Both must outlive the call they are passed to.
struct TaggedSentence {
  const Sentence* sentence = nullptr;
  const TagResult* result = nullptr;
};

class OutputWriter {
 public:
  virtual ~OutputWriter() = default;

  // For text and tsv, the words of one input line: its sentences, where a sentence that runs
  // over several lines comes as the part of it on this line. For conllu, json and jsonl, whole
  // sentences (a raw paragraph's, a tokenized line's, or one CoNLL-U sentence).
  // text and tsv write exactly one line, an empty one when `sentences` is empty; conllu, json
  // and jsonl write one entry per sentence and nothing for an empty line.
  virtual void write_line(const std::vector<TaggedSentence>& sentences) = 0;

  // text and tsv: the first words of an input line whose other words come in later calls (a
  // raw paragraph tokenized in parts); write_line ends the line, and the calls together write
  // what one write_line of all their words would. conllu, json and jsonl: as write_line.
  virtual void continue_line(const std::vector<TaggedSentence>& sentences) = 0;

  // For one document formatted in parts by several writers (on several threads) and joined
  // in order: `sentences` were written before this writer's first one. json then begins with
  // "," instead of "[", and finish() closes the array as not empty. The other formats ignore it.
  virtual void continue_after(std::size_t sentences) = 0;

  // Ends the document (json's closing "]"). Call once, after the last line.
  virtual void finish() = 0;
};

// `out` must outlive the writer.
std::unique_ptr<OutputWriter> make_output_writer(std::ostream& out, const OutputOptions& options);

// Fills the UPOS and/or XPOS columns (as options.tags says), and LEMMA and FEATS (as
// options.lemmas and feats say), of `sentence` from `result`; with options.probabilities also
// adds "UPOSProb=0.982" / "XPOSProb=0.951" / "LemmaProb=0.990" / "FeatsProb=0.974" to MISC,
// replacing any earlier ones. Other columns, comments, multi-word tokens and empty nodes are kept.
void apply_tags(Sentence& sentence, const TagResult& result, const OutputOptions& options);

// Writes the attention file (docs/attention-format.md):
//   {"format": "sawtag-attention", "version": 1, "sentences": [
//    {"words": [...], "tags": [...], "layers": [[[[row of weights]...] per head] per layer]}, ...]}
// Sentences are written as they come, so memory stays bounded.
class AttentionWriter {
 public:
  explicit AttentionWriter(std::ostream& out);  // `out` must outlive the writer

  // `result` must hold attention maps (TagOptions::capture_attention).
  void write(const Sentence& sentence, const TagResult& result);
  void finish();

 private:
  std::ostream& out_;
  bool first_ = true;
  bool finished_ = false;
};

}  // namespace sawtag
