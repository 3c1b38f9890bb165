// The JSON of `sawtag explain -f json`, docs/explain-format.md:
//   {"format":"sawtag-explanation","version":1,"sentences":[{"sent_id":"1","text":"I saw a saw",
//    "words":[{"id":4,"form":"saw","upos":"NOUN","upos_prob":0.97,
//              "self":{"drop":0.41,"tag_when_masked":"NOUN"},
//              "influence":[{"id":3,"form":"a","drop":0.61,"tag_when_masked":"VERB"},...]},...]}]}
// "drop" and "tag_when_masked" are UPOS's, "xpos_drop" and "xpos_when_masked" XPOS's; numbers
// have 4 decimals, as in `sawtag tag -f json --probs`.
#include <ostream>
#include <string>

#include "io/json_text.hpp"
#include "sawtag/error.hpp"
#include "sawtag/explanation_view.hpp"

namespace sawtag {
namespace {

bool wants_upos(TagColumns tags) { return tags != TagColumns::xpos; }
bool wants_xpos(TagColumns tags) { return tags != TagColumns::upos; }

// The drop fields of one occlusion: "drop":0.61,"tag_when_masked":"VERB" (and the XPOS pair).
void append_occlusion(std::string& json, const Occlusion& occlusion, TagColumns tags) {
  const char* separator = "";
  if (wants_upos(tags)) {
    json += "\"drop\":" + format_number(occlusion.upos_drop) + ",\"tag_when_masked\":";
    append_json_string(json, occlusion.upos_when_masked);
    separator = ",";
  }
  if (wants_xpos(tags)) {
    json += std::string(separator) + "\"xpos_drop\":" + format_number(occlusion.xpos_drop) +
            ",\"xpos_when_masked\":";
    append_json_string(json, occlusion.xpos_when_masked);
  }
}

void append_word(std::string& json, const Sentence& sentence,
                 const SentenceExplanation& explanation, int word, TagColumns tags) {
  const WordTags& word_tags = explanation.tags.words[static_cast<std::size_t>(word)];
  json += "{\"id\":" + std::to_string(word + 1) + ",\"form\":";
  append_json_string(json, sentence.words[static_cast<std::size_t>(word)].form);
  if (wants_upos(tags)) {
    json += ",\"upos\":";
    append_json_string(json, word_tags.upos);
    json += ",\"upos_prob\":" + format_number(word_tags.upos_probability);
  }
  if (wants_xpos(tags)) {
    json += ",\"xpos\":";
    append_json_string(json, word_tags.xpos);
    json += ",\"xpos_prob\":" + format_number(word_tags.xpos_probability);
  }
  json += ",\"self\":{";
  append_occlusion(json, explanation.at(word, word), tags);
  json += "},\"influence\":[";
  const ExplainedTag ordered_by = wants_upos(tags) ? ExplainedTag::upos : ExplainedTag::xpos;
  bool first = true;
  for (const int other : strongest_first(explanation, word, ordered_by)) {
    json += first ? "{\"id\":" : ",{\"id\":";
    first = false;
    json += std::to_string(other + 1) + ",\"form\":";
    append_json_string(json, sentence.words[static_cast<std::size_t>(other)].form);
    json += ',';
    append_occlusion(json, explanation.at(word, other), tags);
    json += '}';
  }
  json += "]}";
}

}  // namespace

void check_explained_word(const ExplanationViewOptions& options, int num_words) {
  if (options.word == kEveryWord || (options.word >= 0 && options.word < num_words)) return;
  throw InputError("--word " + std::to_string(options.word + 1) + ": the sentence has " +
                   std::to_string(num_words) + (num_words == 1 ? " word" : " words"));
}

ExplanationWriter::ExplanationWriter(std::ostream& out, const ExplanationViewOptions& options)
    : out_(out), options_(options) {
  out_ << "{\"format\":\"sawtag-explanation\",\"version\":1,\"sentences\":[";
}

void ExplanationWriter::write(const Sentence& sentence, const SentenceExplanation& explanation) {
  const int n = explanation.num_words;
  check_explained_word(options_, n);
  std::string json = first_ ? "\n{" : ",\n{";
  first_ = false;
  append_sentence_fields(json, sentence);
  json += "\"words\":[";
  bool first_word = true;
  for (int i = 0; i < n; ++i) {
    if (options_.word != kEveryWord && i != options_.word) continue;
    if (!first_word) json += ',';
    first_word = false;
    append_word(json, sentence, explanation, i, options_.tags);
  }
  json += "]}";
  out_ << json;
}

void ExplanationWriter::finish() {
  if (finished_) return;
  out_ << (first_ ? "]}\n" : "\n]}\n");
  finished_ = true;
}

}  // namespace sawtag
