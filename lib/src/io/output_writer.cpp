// The five output formats. Syntax, with --tags both --probs:
//   text:   saw/VERB/VBD|0.982|0.951 ...              (one line per input line)
//   tsv:    words<TAB>upos<TAB>xpos<TAB>upos probs<TAB>xpos probs, each cell space-separated
//   conllu: UPOS/XPOS columns filled, MISC UPOSProb=0.982|XPOSProb=0.951
//   json(l): {"words": [{"id": 1, "form": "saw", "upos": "VERB", "upos_prob": 0.982, ...}]}
// With --tags all: text saw/VERB/VBD/see/Mood=Ind|..., tsv columns lemma and feats after xpos,
// CoNLL-U LEMMA and FEATS filled, json "lemma", "feats" (and "lemma_prob", "feats_prob").
#include <algorithm>
#include <cassert>
#include <cstdio>
#include <ostream>
#include <string>

#include "io/json_text.hpp"
#include "sawtag/conllu.hpp"
#include "sawtag/output.hpp"

namespace sawtag {
namespace {

bool wants_upos(const OutputOptions& options) { return writes_upos(options.tags); }
bool wants_xpos(const OutputOptions& options) { return writes_xpos(options.tags); }

// 0.98213 -> "0.982": the precision of text, tsv and CoNLL-U.
std::string format_probability(float probability) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", static_cast<double>(probability));
  return buffer;
}

// Text and tsv separate words by spaces, so a space inside a word becomes U+00A0.
std::string protect_spaces(const std::string& form) {
  std::string protected_form;
  for (char c : form) {
    if (c == ' ') {
      protected_form += "\xC2\xA0";
    } else {
      protected_form += c;
    }
  }
  return protected_form;
}

std::size_t word_count(const TaggedSentence& tagged) {
  assert(tagged.sentence->words.size() == tagged.result->words.size());
  return std::min(tagged.sentence->words.size(), tagged.result->words.size());
}

// "saw/VERB", "saw/VERB/VBD", "saw/VERB/VBD|0.982|0.951".
class TextWriter : public OutputWriter {
 public:
  TextWriter(std::ostream& out, const OutputOptions& options) : out_(out), options_(options) {}

  void write_line(const std::vector<TaggedSentence>& sentences) override {
    continue_line(sentences);
    line_ += '\n';
    out_ << line_;
    line_.clear();
  }

  void continue_line(const std::vector<TaggedSentence>& sentences) override {
    for (const TaggedSentence& tagged : sentences) {
      for (std::size_t i = 0; i < word_count(tagged); ++i) {
        const WordTags& tags = tagged.result->words[i];
        if (!line_.empty()) line_ += ' ';
        line_ += protect_spaces(tagged.sentence->words[i].form);
        if (wants_upos(options_)) line_ += '/' + tags.upos;
        if (wants_xpos(options_)) line_ += '/' + tags.xpos;
        if (options_.lemmas) line_ += '/' + protect_spaces(tags.lemma);
        if (options_.feats) line_ += '/' + tags.feats;
        if (options_.probabilities && wants_upos(options_)) {
          line_ += '|' + format_probability(tags.upos_probability);
        }
        if (options_.probabilities && wants_xpos(options_)) {
          line_ += '|' + format_probability(tags.xpos_probability);
        }
        if (options_.probabilities && options_.lemmas) {
          line_ += '|' + format_probability(tags.lemma_probability);
        }
        if (options_.probabilities && options_.feats) {
          line_ += '|' + format_probability(tags.feats_probability);
        }
      }
    }
  }

  void continue_after(std::size_t /*sentences*/) override {}
  void finish() override {}

 private:
  std::ostream& out_;
  OutputOptions options_;
  std::string line_;  // the line being written, without its "\n"
};

// One row per input line; cells are space-separated lists aligned word by word:
// words, then UPOS and/or XPOS, then (with probabilities) their probabilities in the same order.
class TsvWriter : public OutputWriter {
 public:
  TsvWriter(std::ostream& out, const OutputOptions& options) : out_(out), options_(options) {}

  void write_line(const std::vector<TaggedSentence>& sentences) override {
    continue_line(sentences);
    std::string row;
    if (!cells_[0].empty()) {
      for (std::size_t c = 0; c < cells_.size(); ++c) {
        if (c > 0) row += '\t';
        row += cells_[c];
      }
    }
    row += '\n';
    out_ << row;
    cells_.clear();
  }

  void continue_line(const std::vector<TaggedSentence>& sentences) override {
    const auto add = [this](std::size_t column, const std::string& value) {
      if (!cells_[column].empty()) cells_[column] += ' ';
      cells_[column] += value;
    };
    const bool upos = wants_upos(options_);
    const bool xpos = wants_xpos(options_);
    const bool lemma = options_.lemmas;
    const bool feats = options_.feats;
    const std::size_t tag_columns = (upos ? 1 : 0) + (xpos ? 1 : 0) + (lemma ? 1 : 0) + (feats ? 1 : 0);
    cells_.resize(1 + tag_columns * (options_.probabilities ? 2 : 1));
    for (const TaggedSentence& tagged : sentences) {
      for (std::size_t i = 0; i < word_count(tagged); ++i) {
        const WordTags& tags = tagged.result->words[i];
        std::size_t column = 0;
        add(column++, protect_spaces(tagged.sentence->words[i].form));
        if (upos) add(column++, tags.upos);
        if (xpos) add(column++, tags.xpos);
        if (lemma) add(column++, protect_spaces(tags.lemma));
        if (feats) add(column++, tags.feats);
        if (options_.probabilities && upos)
          add(column++, format_probability(tags.upos_probability));
        if (options_.probabilities && xpos)
          add(column++, format_probability(tags.xpos_probability));
        if (options_.probabilities && lemma)
          add(column++, format_probability(tags.lemma_probability));
        if (options_.probabilities && feats)
          add(column++, format_probability(tags.feats_probability));
      }
    }
  }

  void continue_after(std::size_t /*sentences*/) override {}
  void finish() override {}

 private:
  std::ostream& out_;
  OutputOptions options_;
  std::vector<std::string> cells_;  // of the line being written
};

class ConlluWriter : public OutputWriter {
 public:
  ConlluWriter(std::ostream& out, const OutputOptions& options) : out_(out), options_(options) {}

  void write_line(const std::vector<TaggedSentence>& sentences) override {
    for (const TaggedSentence& tagged : sentences) {
      filled_ = *tagged.sentence;
      apply_tags(filled_, *tagged.result, options_);
      write_conllu(out_, filled_);
    }
  }

  void continue_line(const std::vector<TaggedSentence>& sentences) override {
    write_line(sentences);
  }
  void continue_after(std::size_t /*sentences*/) override {}
  void finish() override {}

 private:
  std::ostream& out_;
  OutputOptions options_;
  Sentence filled_;  // the sentence being written, with its tags: its strings' memory reused
};

void append_candidates(std::string& json, const char* key,
                       const std::vector<TagCandidate>& candidates) {
  json += ",\"";
  json += key;
  json += "\":[";
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (c > 0) json += ',';
    json += "{\"tag\":";
    append_json_string(json, candidates[c].tag);
    json += ",\"prob\":" + format_number(candidates[c].probability) + '}';
  }
  json += ']';
}

// {"sent_id":"1","text":"I saw","words":[{"id":1,"form":"I","upos":"PRON"},...],
//  "multiword_tokens":[{"first":3,"last":4,"form":"don't"}]}
std::string sentence_json(const TaggedSentence& tagged, const OutputOptions& options) {
  const Sentence& sentence = *tagged.sentence;
  std::string json = "{";
  append_sentence_fields(json, sentence);
  json += "\"words\":[";
  for (std::size_t i = 0; i < word_count(tagged); ++i) {
    const WordTags& tags = tagged.result->words[i];
    if (i > 0) json += ',';
    json += "{\"id\":" + std::to_string(i + 1) + ",\"form\":";
    append_json_string(json, sentence.words[i].form);
    if (wants_upos(options)) {
      json += ",\"upos\":";
      append_json_string(json, tags.upos);
      if (options.probabilities) json += ",\"upos_prob\":" + format_number(tags.upos_probability);
      if (options.top_k > 0) append_candidates(json, "upos_top", tags.upos_top);
    }
    if (wants_xpos(options)) {
      json += ",\"xpos\":";
      append_json_string(json, tags.xpos);
      if (options.probabilities) json += ",\"xpos_prob\":" + format_number(tags.xpos_probability);
      if (options.top_k > 0) append_candidates(json, "xpos_top", tags.xpos_top);
    }
    if (options.lemmas) {
      json += ",\"lemma\":";
      append_json_string(json, tags.lemma);
      if (options.probabilities) json += ",\"lemma_prob\":" + format_number(tags.lemma_probability);
    }
    if (options.feats) {
      json += ",\"feats\":";
      append_json_string(json, tags.feats);
      if (options.probabilities) json += ",\"feats_prob\":" + format_number(tags.feats_probability);
    }
    json += '}';
  }
  json += ']';
  if (!sentence.multiword_tokens.empty()) {
    json += ",\"multiword_tokens\":[";
    for (std::size_t t = 0; t < sentence.multiword_tokens.size(); ++t) {
      const MultiwordToken& token = sentence.multiword_tokens[t];
      if (t > 0) json += ',';
      json += "{\"first\":" + std::to_string(token.first) +
              ",\"last\":" + std::to_string(token.last) + ",\"form\":";
      append_json_string(json, token.token.form);
      json += '}';
    }
    json += ']';
  }
  json += '}';
  return json;
}

// jsonl: one object per line. json: the same objects as one array, "[" written before the first
// and "]" by finish(), so the document streams.
class JsonWriter : public OutputWriter {
 public:
  JsonWriter(std::ostream& out, const OutputOptions& options, bool lines)
      : out_(out), options_(options), lines_(lines) {}

  void write_line(const std::vector<TaggedSentence>& sentences) override {
    for (const TaggedSentence& tagged : sentences) {
      std::string entry;
      if (!lines_) entry = first_ ? "[\n" : ",\n";
      entry += sentence_json(tagged, options_);
      if (lines_) entry += '\n';
      out_ << entry;
      first_ = false;
    }
  }

  void continue_line(const std::vector<TaggedSentence>& sentences) override {
    write_line(sentences);
  }
  void continue_after(std::size_t sentences) override { first_ = sentences == 0; }

  void finish() override {
    if (lines_ || finished_) return;
    out_ << (first_ ? "[]\n" : "\n]\n");
    finished_ = true;
  }

 private:
  std::ostream& out_;
  OutputOptions options_;
  bool lines_;
  bool first_ = true;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<OutputWriter> make_output_writer(std::ostream& out, const OutputOptions& options) {
  switch (options.format) {
    case OutputFormat::text:
      return std::make_unique<TextWriter>(out, options);
    case OutputFormat::tsv:
      return std::make_unique<TsvWriter>(out, options);
    case OutputFormat::conllu:
      return std::make_unique<ConlluWriter>(out, options);
    case OutputFormat::json:
      return std::make_unique<JsonWriter>(out, options, false);
    case OutputFormat::jsonl:
      return std::make_unique<JsonWriter>(out, options, true);
  }
  return std::make_unique<TextWriter>(out, options);
}

}  // namespace sawtag
