// The checks made while parsing (ModelReader::on_parse_event), before the document tree holds
// what they refuse: nesting depth, duplicate keys, unknown top-level fields, and the entries of
// each array and object, a tensor's data against the count its config implies when config,
// vocabularies and tag_sets come before tensors (as sawtag writes them). The numbers of a
// tensor's data array go straight into floats (array_data_), not into the tree: 4 bytes each
// instead of 16. What the tree keeps is counted against kMaxTreeBytes.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "io/model_file_format.hpp"
#include "io/model_reader.hpp"
#include "sawtag/error.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::model_file {

// False: `parsed` is not kept in the document tree.
bool ModelReader::on_parse_event(Json::parse_event_t event, Json& parsed) {
  using Event = Json::parse_event_t;
  switch (event) {
    case Event::object_start:
    case Event::array_start:
      open_value(event == Event::object_start);
      break;
    case Event::key:
      add_key(parsed.get_ref<const std::string&>());
      break;
    case Event::value:
      count_entry();
      if (open_.size() == 1 && last_key_ == "version" && parsed.is_number_integer()) {
        newer_version_ = parsed.get<std::int64_t>() > kModelVersion;
      }
      if (take_tensor_value(parsed)) return false;
      if (parsed.is_string()) check_cut_numbers(parsed.get_ref<const std::string&>());
      check_cut_rows(parsed);
      keep_value(parsed);
      break;
    case Event::object_end:
      if (open_.size() == 2) note_section(open_.back().path, parsed);
      [[fallthrough]];
    case Event::array_end:
      open_.pop_back();
      break;
  }
  return true;
}

// A tensor's data array cut out (cut_document.hpp), against its config's count when known,
// as the numbers of one not cut out are counted.
void ModelReader::check_cut_numbers(const std::string& text) const {
  const json::CutDocument::Cut* cut = cut_of(text);
  if (cut == nullptr || cut->kind != json::CutDocument::Kind::numbers || open_.empty()) return;
  has_cut_numbers_ = true;
  const std::string& path = open_.back().path;  // "tensors.NAME"
  const auto expected = expected_counts_.find(std::string_view(path).substr(8));
  if (expected != expected_counts_.end() &&
      cut->count > static_cast<std::size_t>(expected->second)) {
    fail("tensor '" + expected->first + "': expected " + std::to_string(expected->second) +
         " values, got more");
  }
}

// A table of rows cut out (cut_document.hpp), held to the limits its entries would have been
// had the parser read them: the bytes of each row and string, and kMaxTableEntries rows.
void ModelReader::check_cut_rows(const Json& value) const {
  const json::CutDocument::Cut* cut = cut_of(value, json::CutDocument::Kind::rows);
  if (cut == nullptr || open_.empty()) return;
  charge(cut->count * (1 + cut->width) * kValueCost + cut->raw.size());
  if (cut->count > kMaxTableEntries) {
    fail(join(open_.back().path, name_of(last_key_)) + " has more than " +
         std::to_string(kMaxTableEntries) + " entries, more than a model file may have");
  }
}

// A value the document tree is to hold: within kMaxTreeBytes, and a string where only strings
// may be (a vocabulary may be long: its other values are refused as they come).
void ModelReader::keep_value(const Json& value) {
  if (!open_.empty() && open_.back().strings_only && !value.is_string()) {
    refuse_non_string(value.type_name());
  }
  charge(kValueCost + (value.is_string() ? value.get_ref<const std::string&>().size() : 0));
}

void ModelReader::charge(std::size_t bytes) const {
  if ((kept_bytes_ += bytes) > kMaxTreeBytes) {
    fail(
        "not a sawtag model: its strings, lists and objects (the words and the tensors' data "
        "aside) would take more than " +
        std::to_string(kMaxTreeBytes) + " bytes to hold");
  }
}

void ModelReader::refuse_non_string(const char* type_name) const {
  fail(open_.back().path + "[" + std::to_string(open_.back().entries - 1) +
       "]: expected a string, got " + type_name);
}

// The tensor whose data array is the innermost open value, or "".
std::string ModelReader::open_tensor_data() const {
  return open_.empty() || open_.back().is_object ? "" : tensor_of(open_.back().path);
}

// Moves a number of a tensor's data array into array_data_; true when it did. Anything else
// there is refused as read_array_data would.
bool ModelReader::take_tensor_value(const Json& value) {
  const std::string tensor = open_tensor_data();
  if (tensor.empty()) return false;
  if (!value.is_number()) refuse_tensor_value(tensor, value.type_name());
  array_data_[tensor].push_back(static_cast<float>(value.get<double>()));
  return true;
}

void ModelReader::refuse_tensor_value(const std::string& tensor, const char* type_name) const {
  fail("tensor '" + tensor + "': value at index " + std::to_string(open_.back().entries - 1) +
       " is " + type_name + ", expected a number");
}

// The entry of the innermost open value that starts now; false at the top level.
void ModelReader::count_entry() {
  if (open_.empty()) return;
  OpenValue& value = open_.back();
  if (value.is_object || ++value.entries <= value.max_entries) return;
  const std::string limit = std::to_string(value.max_entries);
  if (const auto tensor = expected_counts_.find(tensor_of(value.path));
      tensor != expected_counts_.end()) {
    fail("tensor '" + tensor->first + "': expected " + limit + " values, got more");
  }
  fail(value.path + " has more than " + limit + " entries, more than a model file may have");
}

void ModelReader::open_value(bool is_object) {
  if (open_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
    fail("JSON nested more than " + std::to_string(kMaxJsonDepth) +
         " levels deep, not a sawtag model");
  }
  count_entry();
  if (const std::string tensor = open_tensor_data(); !tensor.empty()) {
    refuse_tensor_value(tensor, is_object ? "object" : "array");
  }
  if (!open_.empty() && open_.back().strings_only) {
    refuse_non_string(is_object ? "object" : "array");
  }
  charge(kValueCost);
  OpenValue value;
  value.is_object = is_object;
  if (!open_.empty()) {
    value.path =
        open_.back().is_object ? join(open_.back().path, name_of(last_key_)) : open_.back().path;
  }
  if (value.path == "vocabularies.words" || value.path == "vocabularies.chars") {
    value.max_entries = kMaxVocabularyEntries;
    value.strings_only = !is_object;
  }
  if (value.path == "self_tests" && !is_object) value.max_entries = kMaxSelfTests;
  if (value.path == "ensemble" && !is_object) {
    value.max_entries = kMaxEnsembleMembers;
    value.strings_only = true;
  }
  if (const std::string tensor = tensor_of(value.path); !tensor.empty() && !is_object) {
    // Its count when known; else as many as the file holds, at 4 bytes a number (2 or more
    // bytes of the file each), compared with the count after parsing.
    const auto expected = expected_counts_.find(tensor);
    value.max_entries = expected != expected_counts_.end()
                            ? static_cast<std::size_t>(expected->second)
                            : std::numeric_limits<std::size_t>::max();
  }
  open_.push_back(std::move(value));
}

void ModelReader::add_key(const std::string& key) {
  OpenValue& object = open_.back();
  if (++object.entries > object.max_entries) {
    fail((object.path.empty() ? "the document" : object.path) + " has more than " +
         std::to_string(object.max_entries) + " keys, more than a model file may have");
  }
  const bool known_field =
      std::find(kDocumentFields.begin(), kDocumentFields.end(), key) != kDocumentFields.end();
  if (open_.size() == 1 && !known_field && !newer_version_) {
    fail("unknown field '" + name_of(key) + "'");  // before its value is parsed
  }
  // Before the value is parsed:
  if (open_.size() == 1 && document_ != Document::file && key == "learned_tokenizer") {
    fail(document_ == Document::learned_tokenizer
             ? "its model has a learned tokenizer of its own"
             : "a tagger of an ensemble may not have a learned tokenizer of its own");
  }
  if (open_.size() == 1 && document_ != Document::file && key == "ensemble") {
    fail(document_ == Document::learned_tokenizer
             ? "a learned tokenizer may not be an ensemble"
             : "a tagger of an ensemble may not have an ensemble of its own");
  }
  charge(kValueCost + key.size());
  // A long key, cut out, is told apart from the others by a hash of its text: not copied.
  const json::CutDocument::Cut* cut = cut_of(key);
  const std::string identity =
      cut == nullptr ? key
                     : json::kCutMark + std::to_string(std::hash<std::string_view>{}(cut->raw));
  if (!object.keys.insert(identity).second) {
    fail("duplicate key '" + join(object.path, name_of(key)) + "': each may appear once");
  }
  last_key_ = key;
  if (open_.size() == 1 && key == "tensors") expect_tensor_counts();
  if (object.path == "tensors" && !expected_counts_.empty() && !expected_counts_.count(key)) {
    fail("unknown tensor " + quote(name_of(key)) + " (not part of a model with this config)");
  }
}

// "tensors.NAME.data" -> "NAME"; "" for any other path.
std::string ModelReader::tensor_of(const std::string& path) {
  constexpr std::string_view kPrefix = "tensors.";
  constexpr std::string_view kSuffix = ".data";
  if (path.size() <= kPrefix.size() + kSuffix.size() || path.compare(0, kPrefix.size(), kPrefix) ||
      path.compare(path.size() - kSuffix.size(), kSuffix.size(), kSuffix)) {
    return "";
  }
  return path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size());
}

// A top-level section parsed whole: config and the sizes of the lists, for the tensors.
void ModelReader::note_section(const std::string& path, const Json& section) {
  const auto size_of = [&](const char* key) -> int {
    const auto found = section.find(key);
    if (found == section.end()) return -1;
    if (path == "vocabularies" && std::string_view(key) == "words" &&
        is_words_placeholder(*found)) {
      return static_cast<int>(cut_->words()->count);
    }
    return found->is_array() ? static_cast<int>(found->size()) : -1;
  };
  if (path == "config") {
    early_config_ = section;
  } else if (path == "vocabularies") {
    early_sizes_[0] = size_of("words");
    early_sizes_[1] = size_of("chars");
  } else if (path == "tag_sets") {
    early_sizes_[2] = size_of("upos");
    early_sizes_[3] = size_of("xpos");
    // Optional (version 6): absent means no such head.
    early_feats_ = std::max(size_of("feats"), 0);
    early_lemma_rules_ = std::max(size_of("lemma_rules"), 0);
  }
}

// The count of every tensor's values, when config, vocabularies and tag_sets were parsed
// before tensors and describe a valid model; otherwise they are checked after parsing.
void ModelReader::expect_tensor_counts() {
  if (!early_config_ || *std::min_element(std::begin(early_sizes_), std::end(early_sizes_)) < 0) {
    return;
  }
  try {
    ModelConfig config;
    read_config(*early_config_, config);
    config.word_vocab_size = early_sizes_[0];
    config.char_vocab_size = early_sizes_[1];
    config.num_upos = early_sizes_[2];
    config.num_xpos = early_sizes_[3];
    config.num_feats = early_feats_;
    config.num_lemma_rules = early_lemma_rules_;
    validate(config);
    Parameters shapes;  // sized by the visit, its tensors left empty
    for_each_parameter(shapes, config,
                       [&](const std::string& name, Tensor&, const Shape& expected_shape) {
                         expected_counts_[name] = element_count(expected_shape);
                       });
  } catch (const ModelError&) {
    expected_counts_.clear();  // reported by read(), in the order of its checks
  }
}

}  // namespace sawtag::model_file
