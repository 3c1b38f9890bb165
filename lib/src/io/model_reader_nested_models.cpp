// The models a model file holds inside it, each a whole model document held as a JSON string
// and read by a ModelReader of its own: a learned tokenizer's character model, and an
// ensemble's further taggers. Neither may hold another, so nesting stops at one level.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/model_reader.hpp"
#include "threads/independent_tasks.hpp"

namespace sawtag::model_file {

// A learned tokenizer's character model: a whole model document held as a JSON string, read
// by a reader of its own. It may not hold a learned tokenizer itself, so nesting stops there.
// Its document is copied out of the file (unescaped) before it is read, so its length is
// checked first: kMaxLearnedTokenizerBytes.
std::shared_ptr<const Model> ModelReader::read_learned_tokenizer(const Json& section) const {
  // Not read_string: the document's line breaks are JSON whitespace, and every string inside
  // it is checked when it is parsed.
  require_type(section, Json::value_t::string, "learned_tokenizer");
  const std::string& parsed = section.get_ref<const std::string&>();
  if (const json::CutDocument::Cut* cut = cut_of(parsed);
      cut != nullptr && cut->raw.size() > kMaxLearnedTokenizerBytes) {
    fail("learned_tokenizer: its document takes " + std::to_string(cut->raw.size()) +
         " bytes of the file, more than a learned tokenizer may (" +
         std::to_string(kMaxLearnedTokenizerBytes) + ")");
  }
  const std::string text = restore(parsed, true);
  const std::string name = source_ + ": learned_tokenizer";
  Model character_model =
      ModelReader(text, name, Int8WordTable::widen, {}, Document::learned_tokenizer).read();
  return std::make_shared<const Model>(std::move(character_model));
}

// An ensemble's further taggers: an array of whole model documents, each held as a JSON string
// (as the learned tokenizer is) and read by a reader of its own, with this model's tag sets.
// Tagger i is read by read_ensemble_member(section, i), a task of its own (ModelReader::read);
// add_ensemble then checks them in order, with the errors of their reads. The tables derived
// from their weights count, with this model's, against kMaxDerivedValues: a small file of small
// taggers cannot ask for 16 times the limit.
Model ModelReader::read_ensemble_member(const Json& section, std::size_t i) const {
  const std::string path = "ensemble[" + std::to_string(i) + "]";
  require_type(section[i], Json::value_t::string, path);
  const std::string& parsed = section[i].get_ref<const std::string&>();
  if (const json::CutDocument::Cut* cut = cut_of(parsed);
      cut != nullptr && cut->raw.size() > kMaxEnsembleMemberBytes) {
    fail(path + ": its document takes " + std::to_string(cut->raw.size()) +
         " bytes of the file, more than a tagger of an ensemble may (" +
         std::to_string(kMaxEnsembleMemberBytes) + ")");
  }
  const std::string text = restore(parsed, true);
  return ModelReader(text, source_ + ": " + path, word_table_, {}, Document::ensemble_member)
      .read();
}

// `members` are the taggers read_ensemble_member read (one an element of an array `section`),
// errors[first + i] what the read of members[i] threw.
void ModelReader::add_ensemble(const Json& section, std::vector<Model>& members,
                               const std::vector<std::exception_ptr>& errors, std::size_t first,
                               Model& model) const {
  require_type(section, Json::value_t::array, "ensemble");
  if (section.empty()) fail("ensemble: expected at least one further tagger, got none");
  std::int64_t derived = derived_values(model.config);
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::string path = "ensemble[" + std::to_string(i) + "]";
    rethrow_if_failed(errors, first + i);
    Model& member = members[i];
    if (!same_tag_sets(member, model)) {
      fail(path +
           ": its tag sets are not the first tagger's (the same UPOS and XPOS lists, "
           "in the same order)");
    }
    derived += derived_values(member.config);
    if (derived > kMaxDerivedValues) {
      fail(path + ": the tables built from the taggers when they are loaded would hold " +
           std::to_string(derived) + " values in all, more than the limit of " +
           std::to_string(kMaxDerivedValues));
    }
    model.ensemble.push_back(std::make_shared<const Model>(std::move(member)));
  }
}

}  // namespace sawtag::model_file
