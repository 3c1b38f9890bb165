// The model file: one JSON document, described in docs/model-format.md. This is the only file of
// the library that includes nlohmann/json.
//
// Loading a ~20 MB model must take well under 100 ms, and nlohmann's lexer copies every token
// one character at a time. So before parsing, the big base64 payloads, the vocabulary's words,
// the tensors' arrays of numbers and every long string are cut out of the text and replaced by
// short placeholders (cut_document.hpp); after parsing, each tensor's data is decoded straight
// from the original text into its float vector. What the parser keeps in its document tree is
// counted as it parses, against kMaxTreeBytes. The file is mapped (mapped_file.hpp), and a big
// one's pages are released as the reader is done with them.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "io/base64.hpp"
#include "sawtag/lemma_rule.hpp"
#include "io/cut_document.hpp"
#include "io/float16.hpp"
#include "io/mapped_file.hpp"
#include "io/model_strings.hpp"
#include "io/string_array.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"

namespace sawtag {
namespace {

// Read into nlohmann::json (faster to parse); write with ordered_json so that sections keep the
// order of for_each_config_field and of the struct fields.
using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

using json::kMaxJsonDepth;
// What the parser's document tree may hold (estimated: a value's bytes and 64 for each value
// and key), with the strings over 64 KiB the loader restores (the learned tokenizer's document
// aside), the words and the numbers of tensor data arrays aside: sawtag's models need less
// than 1 MB; a vocabulary the fast reader cannot read (written with "\u" escapes) takes about
// 72 bytes a word.
constexpr std::size_t kMaxTreeBytes = std::size_t{16} << 20;
constexpr std::size_t kValueCost = 64;
// Bigger files are refused before they are read: 250 M float32 parameters (config.cpp's
// limit) are 1.33 GB of base64.
constexpr std::uint64_t kMaxFileBytes = std::uint64_t{2} << 30;
// Files bigger than this have their pages released as they are read (MappedFile::release).
constexpr std::size_t kReleasePagesAbove = std::size_t{32} << 20;
// Entries of one JSON array or object, checked while parsing, before the document tree holds
// them (a tree node costs 16 bytes or more). The vocabularies may be as long as config.cpp
// allows; tables (multi-word tokens, abbreviations, training fields...) are far shorter.
constexpr std::size_t kMaxVocabularyEntries = 5'000'000;
constexpr std::size_t kMaxTableEntries = std::size_t{1} << 16;
// Each self-test is tagged when a Tagger is built: 15,000 take 4 s.
constexpr std::size_t kMaxSelfTests = 1024;
// A vocabulary of more words than this, or more bytes of them, is read only once the rest of
// the file is known to be right (check_deferred_words): a word read costs ~50 bytes. The
// shipped models have 20,000 to 60,000 words.
constexpr std::size_t kEagerWords = std::size_t{1} << 18;
constexpr std::size_t kEagerWordBytes = std::size_t{8} << 20;
// A learned tokenizer's document, as the file writes it (escapes and all): it is copied before
// it is read. The shipped Chinese model's is 5 MB (a character model of 20,000 words, float16).
constexpr std::size_t kMaxLearnedTokenizerBytes = std::size_t{16} << 20;
// An ensemble's further taggers (Model::ensemble): 16 taggers in all, each document at most
// this long in the file. The shipped Chinese model's are 5.5 MB each (int8 words).
constexpr std::size_t kMaxEnsembleMembers = kMaxEnsembleTaggers - 1;
constexpr std::size_t kMaxEnsembleMemberBytes = std::size_t{256} << 20;
// The document's fields. Each may appear once, as may every key of every object.
const std::initializer_list<std::string_view> kDocumentFields = {
    "format",   "version",     "config",     "vocabularies", "tag_sets",          "tokenizer",
    "training", "calibration", "self_tests", "tensors",      "learned_tokenizer",
    "ensemble", "lemma_lexicon"};
// The most entries of "lemma_lexicon" (EWT train gives 6,500).
constexpr std::size_t kMaxLemmaLexiconEntries = 10'000'000;
constexpr std::string_view kBase64Prefix = "base64:";
constexpr std::string_view kFloat32 = "float32";
constexpr std::string_view kFloat16 = "float16";
constexpr std::string_view kInt8 = "int8";
constexpr std::size_t kMaxQuoted = 80;  // longest piece of the file quoted in a message

// The one list of config fields, used by both the reader and the writer. The four vocabulary
// sizes are not stored: they are derived from the lists.
template <class Config, class Visit>
void for_each_config_field(Config& config, Visit&& visit) {
  visit("word_dim", config.word_dim);
  visit("char_dim", config.char_dim);
  visit("char_widths", config.char_widths);
  visit("char_filters", config.char_filters);
  visit("max_word_chars", config.max_word_chars);
  visit("shape_dim", config.shape_dim);
  visit("d_model", config.d_model);
  visit("num_heads", config.num_heads);
  visit("num_layers", config.num_layers);
  visit("d_ff", config.d_ff);
  visit("relative_position", config.relative_position);
  visit("max_relative_distance", config.max_relative_distance);
  visit("layer_norm_epsilon", config.layer_norm_epsilon);
  visit("max_sequence_length", config.max_sequence_length);
}
// The one optional config field, written only when above 0 (ModelConfig::edge_char_dim).
constexpr const char* kEdgeCharDim = "edge_char_dim";

std::string quote(std::string_view text) {
  if (text.size() <= kMaxQuoted) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kMaxQuoted)) + "...'";
}

bool is_little_endian() {
  const std::uint32_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

template <class Floats>
void swap_bytes(Floats& values) {
  for (float& value : values) {
    unsigned char bytes[sizeof(float)];
    std::memcpy(bytes, &value, sizeof(float));
    std::reverse(bytes, bytes + sizeof(float));
    std::memcpy(&value, bytes, sizeof(float));
  }
}

// Index of the first NaN or Inf among `size` values, or `size`. The first pass has no branch,
// so it vectorises: this runs over every weight of every model loaded.
std::size_t first_non_finite(const float* values, std::size_t size) {
  constexpr std::uint32_t kExponent = 0x7f800000u;  // all ones for Inf and NaN
  std::uint32_t any = 0;
  for (std::size_t i = 0; i < size; ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, values + i, sizeof(bits));
    any |= static_cast<std::uint32_t>((bits & kExponent) == kExponent);
  }
  if (any == 0) return size;
  for (std::size_t i = 0; i < size; ++i) {
    if (!std::isfinite(values[i])) return i;
  }
  return size;
}

// ---- Reading ---------------------------------------------------------------------------------

// 1-based line and column of byte `position` of `text`. Counted a window at a time, each
// released when counted: an error at the end of a big file does not read it all back in.
std::string line_and_column(std::string_view text, std::size_t position,
                            const json::Release& release) {
  constexpr std::size_t kWindow = std::size_t{4} << 20;
  position = std::min(position, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t begin = 0; begin < position; begin += kWindow) {
    const std::string_view window = text.substr(begin, std::min(kWindow, position - begin));
    line += static_cast<std::size_t>(std::count(window.begin(), window.end(), '\n'));
    const std::size_t last = window.rfind('\n');
    if (last != std::string_view::npos) line_start = begin + last + 1;
    if (release) release(window);
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(1 + position - line_start);
}

// Which document a ModelReader reads: a model file's own, or one held inside it, which may not
// hold further documents (so nesting stops at one level).
enum class Document {
  file,               // may have a learned tokenizer and an ensemble
  learned_tokenizer,  // a learned tokenizer's character model (read_learned_tokenizer)
  ensemble_member,    // a further tagger of an ensemble (read_ensemble)
};

class ModelReader {
 public:
  // `release` (may be empty) is given the parts of `text` the reader is done with.
  ModelReader(std::string_view text, const std::string& source, Int8WordTable word_table,
              json::Release release = {}, Document document = Document::file)
      : text_(text),
        source_(source),
        word_table_(word_table),
        release_(std::move(release)),
        document_(document) {}

  Model read() {
    Json document = parse();
    require_type(document, Json::value_t::object, "the document");
    check_format(document);
    upgrade(document);  // before anything else is read: a newer file may have new fields
    check_known_fields(document, "", kDocumentFields);
    const Json& current = document;

    Model model;
    read_config(member(current, "config", ""), model.config);
    read_vocabularies(current, model);
    sync_vocabulary_sizes(model);
    if (deferred_words_ != nullptr) {
      model.config.word_vocab_size = static_cast<int>(deferred_words_->count);
    }
    try {
      validate(model.config);  // before any tensor is allocated
    } catch (const ModelError& error) {
      fail(error.what());
    }
    if (deferred_words_ != nullptr) check_deferred_words_unique();
    if (const Json* tokenizer = optional_member(current, "tokenizer", "")) {
      read_tokenizer(*tokenizer, model.tokenizer);
    }
    if (const Json* learned = optional_member(current, "learned_tokenizer", "")) {
      model.tokenizer.character_model = read_learned_tokenizer(*learned);
    }
    if (const Json* ensemble = optional_member(current, "ensemble", "")) {
      read_ensemble(*ensemble, model);
    }
    if (const Json* training = optional_member(current, "training", "")) {
      read_training(*training, model.training);
    }
    if (const Json* calibration = optional_member(current, "calibration", "")) {
      read_calibration(*calibration, model.calibration);
    }
    if (const Json* self_tests = optional_member(current, "self_tests", "")) {
      read_self_tests(*self_tests, model);
    }
    if (const Json* lexicon = optional_member(current, "lemma_lexicon", "")) {
      if (!model.has_lemmas()) fail("lemma_lexicon: the model has no tag_sets.lemma_rules");
      read_lemma_lexicon(*lexicon, model.lemma_lexicon);
    }
    read_tensors(member(current, "tensors", ""), model);
    if (deferred_words_ != nullptr) read_deferred_words(model);
    return model;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw ModelError(source_ + ": " + problem);
  }

  Json parse() {
    if (text_.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      fail(text_.empty() ? "empty file, not a sawtag model" : "blank file, not a sawtag model");
    }
    std::variant<json::CutDocument, json::CutProblem> cut = json::cut_document(text_, release_);
    if (const auto* problem = std::get_if<json::CutProblem>(&cut)) refuse(*problem);
    cut_.emplace(std::move(std::get<json::CutDocument>(cut)));
    const Json::parser_callback_t check_event = [this](int, Json::parse_event_t event,
                                                       Json& parsed_value) {
      return on_parse_event(event, parsed_value);
    };
    try {
      return Json::parse(cut_->begin(release_ ? &release_ : nullptr, text_), cut_->end(),
                         check_event);
    } catch (const Json::parse_error& error) {
      // error.byte is 1-based: the position of the last character read.
      const std::size_t parsed_position = error.byte == 0 ? 0 : error.byte - 1;
      if (parsed_position >= cut_->size()) refuse({json::CutProblem::Kind::truncated, 0, ""});
      const std::size_t position = cut_->original_position(parsed_position);
      std::string reason = error.what();
      const std::size_t column = reason.find("column ");
      const std::size_t colon = reason.find(": ", column == std::string::npos ? 0 : column);
      if (colon != std::string::npos) reason.erase(0, colon + 2);
      if (reason.size() > 2 * kMaxQuoted) reason = reason.substr(0, 2 * kMaxQuoted) + "...";
      fail("not valid JSON: parse error at " + where(position) + ": " + reason);
    } catch (const Json::exception& error) {
      // A number too large for a double ("1e999") is reported without a position.
      std::string reason = error.what();
      const std::size_t bracket = reason.find("] ");
      if (bracket != std::string::npos) reason.erase(0, bracket + 2);
      if (reason.size() > 2 * kMaxQuoted) reason = reason.substr(0, 2 * kMaxQuoted) + "...";
      fail("not valid JSON: " + reason);
    }
  }

  std::string where(std::size_t position) const {
    return line_and_column(text_, position, release_);
  }

  [[noreturn]] void refuse(const json::CutProblem& problem) const {
    using Kind = json::CutProblem::Kind;
    if (problem.kind == Kind::truncated) {
      fail("truncated: the JSON document ends at byte " + std::to_string(text_.size()) +
           " before it is complete");
    }
    if (problem.kind == Kind::too_deep) {
      fail("JSON nested more than " + std::to_string(kMaxJsonDepth) +
           " levels deep, not a sawtag model");
    }
    if (problem.kind == Kind::plain) fail(problem.problem);
    if (problem.kind == Kind::invalid_json) {
      fail("not valid JSON: parse error at " + where(problem.position) + ": " + problem.problem);
    }
    fail("not a sawtag model: " + problem.problem + " at " + where(problem.position));
  }

  // ---- Checks made while parsing, before the document tree holds what they refuse: nesting
  // depth, duplicate keys, unknown top-level fields, and the entries of each array and object,
  // a tensor's data against the count its config implies when config, vocabularies and
  // tag_sets come before tensors (as sawtag writes them). The numbers of a tensor's data array
  // go straight into floats (array_data_), not into the tree: 4 bytes each instead of 16.

  // One object or array being parsed.
  struct OpenValue {
    std::string path;  // "config", "tensors.heads.upos.bias.data"; an array's elements share it
    bool is_object = false;
    std::unordered_set<std::string> keys;  // of an object, as written in the parsed text
    std::size_t entries = 0;
    std::size_t max_entries = kMaxTableEntries;
    bool strings_only = false;  // an array of strings that may be long: refuse the rest at once
  };

  // False: `parsed` is not kept in the document tree.
  bool on_parse_event(Json::parse_event_t event, Json& parsed) {
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
  void check_cut_numbers(const std::string& text) const {
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

  // The tensor data array a parsed string stands for, or nullptr.
  const json::CutDocument::Cut* numbers_cut(const Json& data) const {
    if (!data.is_string()) return nullptr;
    const json::CutDocument::Cut* cut = cut_of(data.get_ref<const std::string&>());
    return cut != nullptr && cut->kind == json::CutDocument::Kind::numbers ? cut : nullptr;
  }

  // A tensor's data array cut out: its numbers read as the parser would read them, into
  // `values` (sized for them), or only checked when `values` is nullptr: then a value that is
  // no float (Inf) is refused here, as read_tensor refuses it once the tensor is made.
  void read_cut_numbers(const json::CutDocument::Cut& cut, const std::string& path,
                        std::int64_t expected_count, float* values) const {
    if (cut.count != static_cast<std::size_t>(expected_count)) {
      fail(path + ": expected " + std::to_string(expected_count) + " values, got " +
           std::to_string(cut.count));
    }
    const std::string_view raw = cut.raw;
    std::size_t at = 1;  // after '['
    std::size_t released = 0;
    std::optional<std::size_t> first_infinite;
    for (std::size_t i = 0; i < cut.count; ++i) {
      while (raw[at] != '-' && (raw[at] < '0' || raw[at] > '9')) ++at;  // whitespace, ','
      const std::size_t end = json::json_number_end(raw, at);
      const std::string_view number = raw.substr(at, end - at);
      const std::optional<double> parsed = json::json_number_value(number);
      if (!parsed) fail("not valid JSON: number overflow parsing '" + std::string(number) + "'");
      const auto value = static_cast<float>(*parsed);
      if (values != nullptr) {
        values[i] = value;
      } else if (!first_infinite && !std::isfinite(value)) {
        first_infinite = i;
      }
      at = end;
      if (release_ && at - released >= (std::size_t{4} << 20)) {
        release_(raw.substr(released, at - released));
        released = at;
      }
    }
    if (first_infinite) {
      fail(path + " has a non-finite value (Inf) at index " + std::to_string(*first_infinite));
    }
  }

  // A value the document tree is to hold: within kMaxTreeBytes, and a string where only strings
  // may be (a vocabulary may be long: its other values are refused as they come).
  void keep_value(const Json& value) {
    if (!open_.empty() && open_.back().strings_only && !value.is_string()) {
      refuse_non_string(value.type_name());
    }
    charge(kValueCost + (value.is_string() ? value.get_ref<const std::string&>().size() : 0));
  }

  void charge(std::size_t bytes) const {
    kept_bytes_ += bytes;
    if (kept_bytes_ > kMaxTreeBytes) {
      fail(
          "not a sawtag model: its strings, lists and objects (the words and the tensors' data "
          "aside) would take more than " +
          std::to_string(kMaxTreeBytes) + " bytes to hold");
    }
  }

  [[noreturn]] void refuse_non_string(const char* type_name) const {
    fail(open_.back().path + "[" + std::to_string(open_.back().entries - 1) +
         "]: expected a string, got " + type_name);
  }

  // The tensor whose data array is the innermost open value, or "".
  std::string open_tensor_data() const {
    return open_.empty() || open_.back().is_object ? "" : tensor_of(open_.back().path);
  }

  // Moves a number of a tensor's data array into array_data_; true when it did. Anything else
  // there is refused as read_array_data would.
  bool take_tensor_value(const Json& value) {
    const std::string tensor = open_tensor_data();
    if (tensor.empty()) return false;
    if (!value.is_number()) refuse_tensor_value(tensor, value.type_name());
    array_data_[tensor].push_back(static_cast<float>(value.get<double>()));
    return true;
  }

  [[noreturn]] void refuse_tensor_value(const std::string& tensor, const char* type_name) const {
    fail("tensor '" + tensor + "': value at index " + std::to_string(open_.back().entries - 1) +
         " is " + type_name + ", expected a number");
  }

  // The entry of the innermost open value that starts now; false at the top level.
  void count_entry() {
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

  void open_value(bool is_object) {
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

  void add_key(const std::string& key) {
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
  static std::string tensor_of(const std::string& path) {
    constexpr std::string_view kPrefix = "tensors.";
    constexpr std::string_view kSuffix = ".data";
    if (path.size() <= kPrefix.size() + kSuffix.size() ||
        path.compare(0, kPrefix.size(), kPrefix) ||
        path.compare(path.size() - kSuffix.size(), kSuffix.size(), kSuffix)) {
      return "";
    }
    return path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size());
  }

  // A top-level section parsed whole: config and the sizes of the lists, for the tensors.
  void note_section(const std::string& path, const Json& section) {
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
  void expect_tensor_counts() {
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

  void check_format(const Json& document) const {
    const Json& format = member(document, "format", "");
    if (!format.is_string() || format.get_ref<const std::string&>() != kModelFormat) {
      fail(std::string("not a sawtag model: expected format \"") + kModelFormat + "\", got " +
           quote(format.dump()));
    }
  }

  // Brings a document of an older version up to kModelVersion, in place and in this one
  // function, so that everything after it reads the current version only. Version N + 1 adds
  // one step, and a file passes through every later step:
  //   if (version == 2) { /* rename a field, add a default, split a tensor */ version = 3; }
  void upgrade(Json& document) const {
    const int actual_version = read_int(member(document, "version", ""), "version");
    if (actual_version > kModelVersion) {
      fail("model file version " + std::to_string(actual_version) +
           " is newer than this sawtag supports (" + std::to_string(kModelVersion) +
           "): upgrade sawtag");
    }
    constexpr int kOldestVersion = 1;
    if (actual_version < kOldestVersion) {
      fail("model file version " + std::to_string(actual_version) +
           " is not a sawtag-model version: expected " + std::to_string(kOldestVersion) + " to " +
           std::to_string(kModelVersion));
    }
    int version = actual_version;
    // (the steps go here, oldest first)
    if (version == 1) version = 2;  // 2 only added dtype "int8": a version 1 file reads as is
    if (version == 2) version = 3;  // 3 only added the optional "calibration" and "learned_tokenizer"
    if (version == 3) version = 4;  // 4 only added the optional config.edge_char_dim
    if (version == 4) version = 5;  // 5 only added the optional "ensemble"
    if (version == 5) version = 6;  // 6 only added the optional tag_sets.feats and lemma_rules
    if (version != kModelVersion) {
      fail("internal error: no upgrade from version " + std::to_string(version));
    }
    document["version"] = version;
  }

  // ---- Typed access, each error naming the field by its path ("config.d_model").

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  void require_type(const Json& value, Json::value_t expected_type, const std::string& path) const {
    if (value.type() == expected_type) return;
    const Json sample(expected_type);
    const std::string expected_name = sample.type_name();  // "object", "array", "string"...
    fail(path + ": expected " +
         (expected_name[0] == 'o' || expected_name[0] == 'a' ? "an " : "a ") + expected_name +
         ", got " + value.type_name());
  }

  const Json* optional_member(const Json& object, const char* key, const std::string& path) const {
    require_type(object, Json::value_t::object, path.empty() ? "the document" : path);
    const auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
  }

  const Json& member(const Json& object, const char* key, const std::string& path) const {
    const Json* found = optional_member(object, key, path);
    if (found == nullptr) fail("missing field '" + join(path, key) + "'");
    return *found;
  }

  void check_known_fields(const Json& object, const std::string& path,
                          std::initializer_list<std::string_view> known) const {
    for (const auto& item : object.items()) {
      if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
        fail("unknown field '" + join(path, name_of(item.key())) + "'");
      }
    }
  }

  int read_int(const Json& value, const std::string& path) const {
    if (value.is_number_integer()) {
      if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number <= static_cast<std::uint64_t>(INT32_MAX)) return static_cast<int>(number);
      } else {
        const auto number = value.get<std::int64_t>();
        if (number >= INT32_MIN && number <= INT32_MAX) return static_cast<int>(number);
      }
      fail(path + " = " + value.dump() + " does not fit in a 32-bit integer");
    }
    fail(path + ": expected an integer, got " +
         (value.is_number() ? "the number " + value.dump() : std::string(value.type_name())));
  }

  // The cut a parsed string stands for (cut_document.hpp), or nullptr.
  const json::CutDocument::Cut* cut_of(const std::string& text) const {
    return cut_ ? cut_->cut_of(text) : nullptr;
  }

  // A placeholder left by cut_document() turned back into the file's string. A long string
  // counts toward kMaxTreeBytes, as it would had the parser kept it, unless it is the learned
  // tokenizer's document (a model of its own, with its own budget).
  std::string restore(const std::string& text, bool is_document = false) const {
    using Kind = json::CutDocument::Kind;
    const json::CutDocument::Cut* cut = cut_of(text);
    if (cut == nullptr || cut->kind == Kind::words || cut->kind == Kind::numbers) return text;
    if (cut->kind == Kind::string) {
      if (!is_document) charge(cut->raw.size());
      std::optional<std::string> restored = json::unescape(cut->raw, release_);
      if (release_) release_(cut->raw);
      if (!restored) {
        fail("not valid JSON: a bad escape or a control character in the string at " +
             where(static_cast<std::size_t>(cut->raw.data() - text_.data())));
      }
      return std::move(*restored);
    }
    for (char c : cut->raw) {
      // The parser would have refused it had the string not been cut.
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("not valid JSON: a control character in the string " +
             quote(std::string(kBase64Prefix) + std::string(cut->raw)));
      }
    }
    return std::string(kBase64Prefix) + std::string(cut->raw);
  }

  // A key as a message or a path names it: a long one is not restored whole, only its start.
  std::string name_of(const std::string& key) const {
    const json::CutDocument::Cut* cut = cut_of(key);
    if (cut == nullptr || cut->kind != json::CutDocument::Kind::string) return restore(key);
    const std::string_view start = cut->raw.substr(0, kMaxQuoted);
    return json::unescape(start).value_or(std::string(start)) + "...";
  }

  // The base64 characters after "base64:" in a string of the file.
  std::string_view payload(const std::string& text) const {
    const json::CutDocument::Cut* cut = cut_of(text);
    if (cut != nullptr && cut->kind == json::CutDocument::Kind::payload) return cut->raw;
    return std::string_view(text).substr(kBase64Prefix.size());
  }

  // Every string of the file is valid UTF-8 without control characters, also one the cut took
  // out unchecked ("base64:..."); what the outputs write (tags, words) is checked further.
  // `problem_of` is a model_strings function.
  void require_valid(
      std::string_view text, const std::string& path,
      std::string (*problem_of)(std::string_view) = model_strings::text_problem) const {
    const std::string problem = problem_of(text);
    if (!problem.empty()) fail(path + " " + problem);
  }

  void require_all_valid(const std::vector<std::string>& strings, const std::string& path,
                         std::string (*problem_of)(std::string_view)) const {
    for (std::size_t i = 0; i < strings.size(); ++i) {
      if (!problem_of(strings[i]).empty()) {
        require_valid(strings[i], path + "[" + std::to_string(i) + "]", problem_of);
      }
    }
  }

  std::string read_string(const Json& value, const std::string& path) const {
    require_type(value, Json::value_t::string, path);
    std::string text = restore(value.get_ref<const std::string&>());
    require_valid(text, path);
    return text;
  }

  std::vector<std::string> read_strings(const Json& value, const std::string& path) const {
    require_type(value, Json::value_t::array, path);
    std::vector<std::string> strings;
    strings.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) {
      // The path is spelled out only for a message: a vocabulary has 100,000 entries.
      if (!value[i].is_string()) {
        require_type(value[i], Json::value_t::string, path + "[" + std::to_string(i) + "]");
      }
      strings.push_back(restore(value[i].get_ref<const std::string&>()));
    }
    require_all_valid(strings, path, model_strings::text_problem);
    return strings;
  }

  // ---- Sections

  void read_config(const Json& section, ModelConfig& config) const {
    require_type(section, Json::value_t::object, "config");
    std::vector<std::string_view> known;
    for_each_config_field(config, [&](const char* name, auto& field) {
      known.emplace_back(name);
      const std::string path = std::string("config.") + name;
      const Json& value = member(section, name, "config");
      using Field = std::decay_t<decltype(field)>;
      if constexpr (std::is_same_v<Field, int>) {
        field = read_int(value, path);
      } else if constexpr (std::is_same_v<Field, bool>) {
        require_type(value, Json::value_t::boolean, path);
        field = value.get<bool>();
      } else if constexpr (std::is_same_v<Field, float>) {
        if (!value.is_number()) fail(path + ": expected a number, got " + value.type_name());
        field = static_cast<float>(value.get<double>());
      } else {
        require_type(value, Json::value_t::array, path);
        field.clear();
        for (std::size_t i = 0; i < value.size(); ++i) {
          field.push_back(read_int(value[i], path + "[" + std::to_string(i) + "]"));
        }
      }
    });
    // Optional (version 4): absent means 0, no first- and last-character embeddings.
    known.emplace_back(kEdgeCharDim);
    config.edge_char_dim = 0;
    if (section.contains(kEdgeCharDim)) {
      config.edge_char_dim =
          read_int(section[kEdgeCharDim], std::string("config.") + kEdgeCharDim);
    }
    for (const auto& item : section.items()) {
      if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
        fail("unknown field 'config." + name_of(item.key()) + "'");
      }
    }
  }

  Vocabulary read_vocabulary(const Json& section, const char* key, const std::string& path) {
    const std::string full_path = join(path, key);
    const Json& value = member(section, key, path);
    std::vector<std::string> items;
    if (full_path == "vocabularies.words" && is_words_placeholder(value)) {
      // Valid: count_string_array left the rest to the parser. There is one placeholder.
      const json::CutDocument::Cut& words = *cut_->words();
      if (words.count > kEagerWords || words.raw.size() > kEagerWordBytes) {
        check_deferred_words(words);
        return {};
      }
      std::size_t end = 0;
      items = json::read_string_array(words.raw, 0, &end, words.count).value();
    } else {
      items = read_strings(value, full_path);
    }
    // Lemma rules may add text with spaces (a UD lemma may hold one); read_vocabularies parses them.
    if (path == "tag_sets" && full_path != "tag_sets.lemma_rules") {
      require_all_valid(items, full_path, model_strings::tag_problem);
    }
    if (full_path == "vocabularies.chars") {
      constexpr std::size_t kReservedChars = 4;  // "<pad>", "<unk>", "<w>", "</w>"
      for (std::size_t i = kReservedChars; i < items.size(); ++i) {
        if (!model_strings::is_one_code_point(items[i])) {
          fail(full_path + "[" + std::to_string(i) + "] = " + quote(items[i]) +
               " is not one character (one code point)");
        }
      }
    }
    try {
      return Vocabulary(std::move(items), full_path);
    } catch (const ModelError& error) {  // a duplicate entry
      fail(error.what());
    }
  }

  // A big vocabulary (more than kEagerWords words, or kEagerWordBytes of them) is checked here
  // as read_vocabulary checks one (its first entry, no entry twice) without being copied, and
  // read once everything else in the file is known to be right (read_deferred_words): so the
  // strings of millions of words are never made for a file that is then refused. Checking for
  // a word twice holds 8 bytes a word (check_deferred_words_unique).
  void check_deferred_words(const json::CutDocument::Cut& words) {
    const std::string path = "vocabularies.words";
    // Its first 1 KiB: enough to tell "<unk>", or to quote what is there instead.
    const std::string first =
        words.count == 0 ? "" : json::first_of_string_array(words.raw.substr(0, 1024), 0);
    if (words.count == 0 || first != "<unk>") {
      fail(path + "[0] must be the reserved entry \"<unk>\", got " +
           (words.count == 0 ? "nothing (the list is too short)" : quote(first)));
    }
    deferred_words_ = &words;
  }

  // After the config is validated: no word of a deferred vocabulary is there twice.
  void check_deferred_words_unique() const {
    const std::optional<json::RepeatedString> repeated =
        json::first_repeated_string(deferred_words_->raw, 0, deferred_words_->count, release_);
    if (repeated) {
      fail("vocabularies.words has a duplicate entry " + quote(repeated->text) + " at index " +
           std::to_string(repeated->index));
    }
  }

  void read_deferred_words(Model& model) const {
    std::size_t end = 0;
    std::vector<std::string> items =
        json::read_string_array(deferred_words_->raw, 0, &end, deferred_words_->count, release_)
            .value();
    model.words = Vocabulary(std::move(items), "vocabularies.words");  // checked: no duplicate
  }

  void require_reserved(const Vocabulary& vocabulary, const std::string& path,
                        std::initializer_list<std::string_view> expected_entries) const {
    int index = 0;
    for (std::string_view expected_entry : expected_entries) {
      const std::string actual_entry = index < vocabulary.size() ? vocabulary.at(index) : "";
      if (index >= vocabulary.size() || actual_entry != expected_entry) {
        fail(path + "[" + std::to_string(index) + "] must be the reserved entry \"" +
             std::string(expected_entry) + "\", got " +
             (index < vocabulary.size() ? quote(actual_entry) : "nothing (the list is too short)"));
      }
      ++index;
    }
  }

  bool is_words_placeholder(const Json& value) const {
    if (!value.is_string()) return false;
    const json::CutDocument::Cut* cut = cut_of(value.get_ref<const std::string&>());
    return cut != nullptr && cut->kind == json::CutDocument::Kind::words;
  }

  void read_vocabularies(const Json& document, Model& model) {
    const Json& vocabularies = member(document, "vocabularies", "");
    check_known_fields(vocabularies, "vocabularies", {"words", "chars"});
    model.words = read_vocabulary(vocabularies, "words", "vocabularies");
    model.chars = read_vocabulary(vocabularies, "chars", "vocabularies");
    if (deferred_words_ == nullptr) require_reserved(model.words, "vocabularies.words", {"<unk>"});
    require_reserved(model.chars, "vocabularies.chars", {"<pad>", "<unk>", "<w>", "</w>"});

    const Json& tag_sets = member(document, "tag_sets", "");
    check_known_fields(tag_sets, "tag_sets", {"upos", "xpos", "feats", "lemma_rules"});
    model.upos = read_vocabulary(tag_sets, "upos", "tag_sets");
    model.xpos = read_vocabulary(tag_sets, "xpos", "tag_sets");
    // Optional (version 6): the morphology heads' classes.
    if (optional_member(tag_sets, "feats", "tag_sets") != nullptr) {
      model.feats = read_vocabulary(tag_sets, "feats", "tag_sets");
      if (model.feats.size() == 0) fail("tag_sets.feats is empty: leave it out for no FEATS head");
    }
    if (optional_member(tag_sets, "lemma_rules", "tag_sets") != nullptr) {
      model.lemma_rules = read_vocabulary(tag_sets, "lemma_rules", "tag_sets");
      if (model.lemma_rules.size() == 0) {
        fail("tag_sets.lemma_rules is empty: leave it out for no lemma head");
      }
      // Every string of the file holds no control character (read_strings), so neither does
      // what a rule adds to the LEMMA column.
      for (int r = 0; r < model.lemma_rules.size(); ++r) {
        try {
          parse_lemma_rule(model.lemma_rules.at(r));
        } catch (const ModelError& error) {
          fail("tag_sets.lemma_rules[" + std::to_string(r) + "]: " + error.what());
        }
      }
    }
    if (model.upos.size() == 0) fail("tag_sets.upos is empty: a model needs at least one tag");
    if (model.xpos.size() == 0) fail("tag_sets.xpos is empty: a model needs at least one tag");
  }

  void read_tokenizer(const Json& section, TokenizerData& tokenizer) const {
    check_known_fields(section, "tokenizer", {"multiword_tokens", "abbreviations"});
    if (const Json* table = optional_member(section, "multiword_tokens", "tokenizer")) {
      require_type(*table, Json::value_t::object, "tokenizer.multiword_tokens");
      for (const auto& item : table->items()) {
        const std::string token = restore(item.key());
        require_valid(token, "tokenizer.multiword_tokens key", model_strings::word_problem);
        const std::string path = "tokenizer.multiword_tokens." + quote(token);
        std::vector<std::string> words = read_strings(item.value(), path);
        if (words.size() < 2)
          fail(path + ": expected at least 2 words, got " + std::to_string(words.size()));
        require_all_valid(words, path, model_strings::word_problem);
        tokenizer.multiword_tokens[token] = std::move(words);
      }
    }
    if (const Json* list = optional_member(section, "abbreviations", "tokenizer")) {
      tokenizer.abbreviations = read_strings(*list, "tokenizer.abbreviations");
      std::set<std::string_view> seen;
      for (std::size_t i = 0; i < tokenizer.abbreviations.size(); ++i) {
        if (!seen.insert(tokenizer.abbreviations[i]).second) {
          fail("tokenizer.abbreviations has a duplicate entry " +
               quote(tokenizer.abbreviations[i]) + " at index " + std::to_string(i));
        }
      }
    }
  }

  // A learned tokenizer's character model: a whole model document held as a JSON string, read
  // by a reader of its own. It may not hold a learned tokenizer itself, so nesting stops there.
  // Its document is copied out of the file (unescaped) before it is read, so its length is
  // checked first: kMaxLearnedTokenizerBytes.
  std::shared_ptr<const Model> read_learned_tokenizer(const Json& section) const {
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

  // An ensemble's further taggers: an array of whole model documents, each held as a JSON
  // string (as the learned tokenizer is) and read by a reader of its own, with this model's tag
  // sets. The tables derived from their weights count, with this model's, against
  // kMaxDerivedValues: a small file of small taggers cannot ask for 16 times the limit.
  void read_ensemble(const Json& section, Model& model) const {
    require_type(section, Json::value_t::array, "ensemble");
    if (section.empty()) fail("ensemble: expected at least one further tagger, got none");
    std::int64_t derived = derived_values(model.config);
    for (std::size_t i = 0; i < section.size(); ++i) {
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
      Model member =
          ModelReader(text, source_ + ": " + path, word_table_, {}, Document::ensemble_member)
              .read();
      if (!same_tag_sets(member, model)) {
        fail(path + ": its tag sets are not the first tagger's (the same UPOS and XPOS lists, "
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

  void read_training(const Json& section, TrainingRecord& training) const {
    require_type(section, Json::value_t::object, "training");
    for (const auto& item : section.items()) {
      const std::string key = restore(item.key());
      require_valid(key, "training key");
      training.fields[key] = read_string(item.value(), "training." + key);
    }
  }

  // {"upos_temperature": 0.8, "xpos_temperature": 0.8}: both required, in [0.01, 100];
  // "feats_temperature" and "lemma_temperature" optional (version 6), 1 when absent.
  void read_calibration(const Json& section, Calibration& calibration) const {
    require_type(section, Json::value_t::object, "calibration");
    check_known_fields(section, "calibration",
                       {"upos_temperature", "xpos_temperature", "feats_temperature",
                        "lemma_temperature"});
    const auto temperature = [&](const char* name) {
      const std::string path = std::string("calibration.") + name;
      const Json& value = member(section, name, "calibration");
      if (!value.is_number()) fail(path + ": expected a number, got " + value.type_name());
      const double actual = value.get<double>();
      if (!(actual >= 0.01 && actual <= 100.0)) {
        fail(path + ": expected a temperature in [0.01, 100], got " + std::to_string(actual));
      }
      return static_cast<float>(actual);
    };
    calibration.upos_temperature = temperature("upos_temperature");
    calibration.xpos_temperature = temperature("xpos_temperature");
    if (optional_member(section, "feats_temperature", "calibration") != nullptr) {
      calibration.feats_temperature = temperature("feats_temperature");
    }
    if (optional_member(section, "lemma_temperature", "calibration") != nullptr) {
      calibration.lemma_temperature = temperature("lemma_temperature");
    }
  }

  // [["was", "AUX", "VBD", "be"], ...]: form, UPOS, XPOS, lemma; none empty.
  void read_lemma_lexicon(const Json& section, std::vector<LemmaLexiconEntry>& lexicon) const {
    require_type(section, Json::value_t::array, "lemma_lexicon");
    if (section.size() > kMaxLemmaLexiconEntries) {
      fail("lemma_lexicon: " + std::to_string(section.size()) + " entries, at most " +
           std::to_string(kMaxLemmaLexiconEntries));
    }
    lexicon.reserve(section.size());
    for (std::size_t i = 0; i < section.size(); ++i) {
      const std::string path = "lemma_lexicon[" + std::to_string(i) + "]";
      const std::vector<std::string> fields = read_strings(section[i], path);
      if (fields.size() != 4) {
        fail(path + ": expected [form, UPOS, XPOS, lemma], got " + std::to_string(fields.size()) +
             " strings");
      }
      for (const std::string& field : fields) {
        if (field.empty()) fail(path + ": an empty string");
      }
      lexicon.push_back({fields[0], fields[1], fields[2], fields[3]});
    }
  }

  void read_self_tests(const Json& section, Model& model) const {
    require_type(section, Json::value_t::array, "self_tests");
    for (std::size_t i = 0; i < section.size(); ++i) {
      const std::string path = "self_tests[" + std::to_string(i) + "]";
      require_type(section[i], Json::value_t::object, path);
      check_known_fields(section[i], path, {"words", "upos"});
      SelfTest test;
      test.words = read_strings(member(section[i], "words", path), path + ".words");
      test.upos = read_strings(member(section[i], "upos", path), path + ".upos");
      require_all_valid(test.words, path + ".words", model_strings::word_problem);
      if (test.words.size() != test.upos.size()) {
        fail(path + ": " + std::to_string(test.words.size()) + " words but " +
             std::to_string(test.upos.size()) + " tags");
      }
      for (std::size_t j = 0; j < test.upos.size(); ++j) {
        if (model.upos.find(test.upos[j]) < 0) {
          fail(path + ".upos[" + std::to_string(j) + "] = " + quote(test.upos[j]) +
               " is not in tag_sets.upos");
        }
      }
      model.self_tests.push_back(std::move(test));
    }
  }

  // ---- Tensors

  void read_tensors(const Json& section, Model& model) const {
    require_type(section, Json::value_t::object, "tensors");
    std::set<std::string, std::less<>> expected_names;
    for_each_parameter(
        model.parameters, model.config,
        [&](const std::string& name, Tensor&, const Shape&) { expected_names.insert(name); });
    for (const auto& item : section.items()) {
      if (expected_names.count(item.key()) == 0) {
        fail("unknown tensor " + quote(name_of(item.key())) +
             " (not part of a model with this config)");
      }
    }
    if (release_ || has_cut_numbers_) check_tensors(section, model);
    // The word embedding, most of a model's bytes, is decoded on a second thread while the
    // others are decoded on this one. Errors are reported in file order all the same: the word
    // embedding's first. Stored as int8, it is kept so when the caller asked.
    std::future<void> word_embedding;
    std::exception_ptr later_error;
    try {
      for_each_parameter(
          model.parameters, model.config,
          [&](const std::string& name, Tensor& tensor, const Shape& expected_shape) {
            const auto found = section.find(name);
            if (found == section.end()) {
              fail("missing tensor '" + name + "' of shape " + to_string(expected_shape));
            }
            if (&tensor == &model.parameters.encoder.word_embedding) {
              std::optional<QuantizedRows>* kept =
                  word_table_ == Int8WordTable::keep ? &model.word_embedding_int8 : nullptr;
              word_embedding = std::async(
                  std::launch::async, [this, found, name, expected_shape, &tensor, kept] {
                    read_tensor(*found, name, expected_shape, tensor, kept);
                  });
            } else {
              read_tensor(*found, name, expected_shape, tensor);
            }
          });
    } catch (const ModelError&) {
      later_error = std::current_exception();
    }
    if (word_embedding.valid()) word_embedding.get();
    if (later_error) std::rethrow_exception(later_error);
  }

  // Reads `entry` into `tensor`; an int8 one into *kept_rows instead, as it is, when
  // kept_rows is given (`tensor` then stays empty).
  void read_tensor(const Json& entry, const std::string& name, const Shape& expected_shape,
                   Tensor& tensor, std::optional<QuantizedRows>* kept_rows = nullptr) const {
    const std::string path = "tensor '" + name + "'";
    const std::string_view type = checked_dtype(entry, path, expected_shape);
    const std::int64_t expected_count = element_count(expected_shape);
    const Json& data = member(entry, "data", path);
    if (type == kInt8 && kept_rows != nullptr) {
      *kept_rows = read_int8_rows(entry, data, path, expected_shape);
      return;
    }
    tensor.shape = expected_shape;
    if (type == kInt8) {
      const QuantizedRows table = read_int8_rows(entry, data, path, expected_shape);
      widen_rows(table, static_cast<float*>(allocate(tensor, false)));
    } else if (const json::CutDocument::Cut* numbers = numbers_cut(data)) {
      tensor.data.resize(numbers->count == static_cast<std::size_t>(expected_count) ? numbers->count
                                                                                    : 0);
      read_cut_numbers(*numbers, path, expected_count, tensor.data.data());
    } else if (data.is_string()) {
      // The payload's length is checked before the buffer is made: a few bytes may not cost
      // a gigabyte.
      std::string storage;
      const std::string_view encoded = checked_base64_payload(
          data.get_ref<const std::string&>(), path, expected_count,
          type == kFloat16 ? sizeof(std::uint16_t) : sizeof(float), &storage);
      decode_base64_payload(encoded, path,
                            reinterpret_cast<unsigned char*>(allocate(tensor, type == kFloat16)));
      if (type == kFloat16) widen_float16(tensor);
      if (!is_little_endian() && type == kFloat32) swap_bytes(tensor.data);
    } else if (data.is_array()) {
      read_array_data(data, name, path, expected_count, tensor);
    } else {
      fail(path + ": data must be a \"base64:...\" string or an array of numbers, got " +
           data.type_name());
    }
    const std::size_t bad = first_non_finite(tensor.data.data(), tensor.data.size());
    if (bad < tensor.data.size()) {
      fail(path + " has a non-finite value (" + (std::isnan(tensor.data[bad]) ? "NaN" : "Inf") +
           ") at index " + std::to_string(bad));
    }
  }

  // The dtype of `entry`, once its fields, shape and dtype are checked.
  std::string_view checked_dtype(const Json& entry, const std::string& path,
                                 const Shape& expected_shape) const {
    require_type(entry, Json::value_t::object, path);
    check_known_fields(entry, path, {"shape", "dtype", "data", "scales"});

    const Json& shape = member(entry, "shape", path);
    require_type(shape, Json::value_t::array, path + " shape");
    Shape actual_shape;
    for (const Json& dimension : shape) {
      if (!dimension.is_number_integer()) {
        fail(path + ": shape " + quote(shape.dump()) + " is not a list of integers");
      }
      actual_shape.push_back(dimension.get<std::int64_t>());
    }
    if (actual_shape != expected_shape) {
      fail(path + ": expected shape " + to_string(expected_shape) + ", got " +
           to_string(actual_shape));
    }

    const Json& dtype = member(entry, "dtype", path);
    const std::string_view type =
        dtype.is_string() ? std::string_view(dtype.get_ref<const std::string&>()) : "";
    if (type != kFloat32 && type != kFloat16 && type != kInt8) {
      fail(path + ": expected dtype \"" + std::string(kFloat32) + "\", \"" +
           std::string(kFloat16) + "\" or \"" + std::string(kInt8) + "\", got " +
           quote(dtype.dump()));
    }

    member(entry, "data", path);
    if (type != kInt8 && entry.contains("scales")) {
      fail(path + ": only an int8 tensor has 'scales'");
    }
    return type;
  }

  // For a big file (release_ set), every base64 tensor is checked before any is made: its
  // values decoded a window at a time into a small buffer, with read_tensor's errors in its
  // order. So a file refused for its last value has not first cost the memory of the others
  // (a float16 model's floats take 1.5 times its size). So is every tensor of a file that has
  // a tensor's array of numbers cut out, whatever the file's size: "0," is 2 bytes of the file
  // and 4 of floats.
  void check_tensors(const Json& section, Model& model) const {
    for_each_parameter(
        model.parameters, model.config,
        [&](const std::string& name, Tensor&, const Shape& expected_shape) {
          const auto found = section.find(name);
          if (found == section.end()) {
            fail("missing tensor '" + name + "' of shape " + to_string(expected_shape));
          }
          check_values(*found, name, expected_shape);
        });
  }

  void check_values(const Json& entry, const std::string& name, const Shape& expected_shape) const {
    constexpr std::size_t kWindow = std::size_t{64} << 10;  // characters, a multiple of 4
    const std::string path = "tensor '" + name + "'";
    const std::string_view type = checked_dtype(entry, path, expected_shape);
    const std::int64_t count = element_count(expected_shape);
    const Json& data = member(entry, "data", path);
    if (const json::CutDocument::Cut* numbers = numbers_cut(data); numbers && type != kInt8) {
      read_cut_numbers(*numbers, path, count, nullptr);
      return;
    }
    std::vector<float> scales;  // int8: one a row
    std::int64_t cols = 0;
    std::string scales_storage, storage;  // for payloads written with escapes
    if (type == kInt8) {
      const Json& scales_text = member(entry, "scales", path);
      if (!scales_text.is_string() || !data.is_string() || numbers_cut(data) != nullptr) {
        return;  // read_tensor says so
      }
      const std::int64_t rows = expected_shape.empty() ? 1 : expected_shape[0];
      cols = rows == 0 ? 0 : count / rows;
      const std::string_view encoded_scales =
          checked_base64_payload(scales_text.get_ref<const std::string&>(), path + " scales", rows,
                                 sizeof(float), &scales_storage);
      checked_base64_payload(data.get_ref<const std::string&>(), path, count, 1, &storage);
      scales.resize(static_cast<std::size_t>(rows));
      decode_base64_payload(encoded_scales, path + " scales",
                            reinterpret_cast<unsigned char*>(scales.data()));
      if (!is_little_endian()) swap_bytes(scales);
      const std::size_t bad = first_non_finite(scales.data(), scales.size());
      if (bad < scales.size()) fail(path + " has a non-finite scale at row " + std::to_string(bad));
    } else if (!data.is_string() || numbers_cut(data) != nullptr) {
      return;  // numbers, or not data: read_tensor checks them
    }
    const std::size_t value_bytes = type == kInt8 ? 1 : type == kFloat16 ? 2 : 4;
    const std::string_view encoded = checked_base64_payload(data.get_ref<const std::string&>(),
                                                            path, count, value_bytes, &storage);
    // The first non-finite value is told only once every character is known to be valid, as
    // read_tensor decodes them all before it looks at the values.
    std::optional<std::pair<std::size_t, bool>> first_bad;  // index, is NaN
    std::vector<unsigned char> window(kWindow / 4 * 3);
    constexpr float kSafeScale = std::numeric_limits<float>::max() / 128.0f;
    for (std::size_t begin = 0; begin < encoded.size(); begin += kWindow) {
      const std::string_view part = encoded.substr(begin, kWindow);
      decode_window(part, begin, begin + kWindow >= encoded.size(), path, window.data());
      const std::size_t bytes = base64::decoded_size(part).value_or(0);
      for (std::size_t i = 0; i + value_bytes <= bytes && !first_bad; i += value_bytes) {
        const std::size_t index = (begin / 4 * 3 + i) / value_bytes;
        const auto byte = [&](std::size_t k) { return std::uint32_t{window[i + k]}; };
        if (value_bytes == 4) {
          const std::uint32_t bits = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
          if ((bits & 0x7f800000u) == 0x7f800000u) first_bad = {{index, (bits & 0x7fffffu) != 0}};
        } else if (value_bytes == 2) {
          const std::uint32_t half = byte(0) | byte(1) << 8;
          if ((half & 0x7c00u) == 0x7c00u) first_bad = {{index, (half & 0x3ffu) != 0}};
        } else {
          const float scale =
              scales[static_cast<std::size_t>(index) / static_cast<std::size_t>(cols)];
          if (std::fabs(scale) > kSafeScale &&
              !std::isfinite(scale * static_cast<float>(static_cast<std::int8_t>(window[i])))) {
            first_bad = {{index, false}};
          }
        }
      }
      if (release_) release_(part);
    }
    if (first_bad) {
      fail(path + " has a non-finite value (" + (first_bad->second ? "NaN" : "Inf") +
           ") at index " + std::to_string(first_bad->first));
    }
  }

  // Sizes `tensor` for its shape and returns where its raw values are to be decoded: the start
  // of the buffer for float32, its back half for float16 (widened in place afterwards).
  static void* allocate(Tensor& tensor, bool is_float16) {
    tensor.data.resize(static_cast<std::size_t>(element_count(tensor.shape)));
    auto* halves = reinterpret_cast<std::uint16_t*>(tensor.data.data());
    return is_float16 ? static_cast<void*>(halves + tensor.data.size()) : tensor.data.data();
  }

  // The halves sit in the back half of the float buffer and are widened front to back: each
  // block of halves is read before the floats it becomes are written, and those never reach
  // the halves not yet read.
  static void widen_float16(Tensor& tensor) {
    const std::size_t count = tensor.data.size();
    auto* halves = reinterpret_cast<std::uint16_t*>(tensor.data.data()) + count;
    if (!is_little_endian()) {
      for (std::size_t i = 0; i < count; ++i) {
        halves[i] = static_cast<std::uint16_t>(halves[i] << 8 | halves[i] >> 8);
      }
    }
    float16::to_float(halves, count, tensor.data.data());
  }

  // dtype "int8": value (r, c) = scales[r] * data[r * cols + c], where data holds one signed
  // byte a value and scales one little-endian float32 a row (rows = the first dimension).
  QuantizedRows read_int8_rows(const Json& entry, const Json& data, const std::string& path,
                               const Shape& shape) const {
    const Json& scales_text = member(entry, "scales", path);
    if (!scales_text.is_string() || !data.is_string() || numbers_cut(data) != nullptr) {
      fail(path + ": an int8 tensor needs \"base64:...\" strings for scales and data");
    }
    QuantizedRows table;
    const std::int64_t count = element_count(shape);
    table.rows = shape.empty() ? 1 : shape[0];
    table.cols = table.rows == 0 ? 0 : count / table.rows;
    // Both payloads' lengths are checked before either buffer is made.
    std::string scales_storage, values_storage;  // for payloads written with escapes
    const std::string_view encoded_scales =
        checked_base64_payload(scales_text.get_ref<const std::string&>(), path + " scales",
                               table.rows, sizeof(float), &scales_storage);
    const std::string_view encoded_values =
        checked_base64_payload(data.get_ref<const std::string&>(), path, count, 1, &values_storage);
    table.scales.resize(static_cast<std::size_t>(table.rows));
    decode_base64_payload(encoded_scales, path + " scales",
                          reinterpret_cast<unsigned char*>(table.scales.data()));
    if (!is_little_endian()) swap_bytes(table.scales);
    const std::size_t bad = first_non_finite(table.scales.data(), table.scales.size());
    if (bad < table.scales.size()) {
      fail(path + " has a non-finite scale at row " + std::to_string(bad));
    }
    table.values.resize(static_cast<std::size_t>(count));
    decode_base64_payload(encoded_values, path,
                          reinterpret_cast<unsigned char*>(table.values.data()));
    require_finite_products(table, path);
    return table;
  }

  // A finite scale times a byte overflows to Inf only when the scale is above FLT_MAX / 128:
  // such rows are widened here value by value, so that a kept table can never widen to Inf and
  // both Int8WordTable choices refuse the same files with the same message.
  void require_finite_products(const QuantizedRows& table, const std::string& path) const {
    constexpr float kSafeScale = std::numeric_limits<float>::max() / 128.0f;
    const auto cols = static_cast<std::size_t>(table.cols);
    for (std::size_t r = 0; r < table.scales.size(); ++r) {
      if (std::fabs(table.scales[r]) <= kSafeScale) continue;
      for (std::size_t c = 0; c < cols; ++c) {
        if (!std::isfinite(table.scales[r] * static_cast<float>(table.values[r * cols + c]))) {
          fail(path + " has a non-finite value (Inf) at index " + std::to_string(r * cols + c));
        }
      }
    }
  }

  // The payload of a "base64:..." string, once its length is checked against `expected_count`
  // values of `value_bytes` each. One over 64 KiB written with escapes ("\/": not cut out as a
  // payload) is unescaped into *storage, which must outlive the view.
  std::string_view checked_base64_payload(const std::string& parsed, const std::string& path,
                                          std::int64_t expected_count, std::size_t value_bytes,
                                          std::string* storage) const {
    const json::CutDocument::Cut* cut = cut_of(parsed);
    if (cut != nullptr && cut->kind == json::CutDocument::Kind::string) {
      *storage = restore(parsed, true);  // tensor data, paid for by the file, not the tree's
    }
    const std::string& text =
        cut != nullptr && cut->kind == json::CutDocument::Kind::string ? *storage : parsed;
    if (text.compare(0, kBase64Prefix.size(), kBase64Prefix) != 0) {
      fail(path + ": data string must start with \"base64:\", got " + quote(text));
    }
    const std::string_view encoded = payload(text);
    const std::optional<std::size_t> actual_bytes = base64::decoded_size(encoded);
    if (!actual_bytes) {
      fail(path + ": base64 data of length " + std::to_string(encoded.size()) +
           " is malformed: the length must be a multiple of 4, with at most two '=' at the end");
    }
    const std::size_t expected_bytes = static_cast<std::size_t>(expected_count) * value_bytes;
    if (*actual_bytes != expected_bytes) {
      fail(path + ": expected " + std::to_string(expected_count) + " values (" +
           std::to_string(expected_bytes) + " bytes of base64 data), got " +
           std::to_string(*actual_bytes) + " bytes");
    }
    return encoded;
  }

  // Decodes a payload that checked_base64_payload let through into `out`, which has room. A
  // big file's payload is decoded a window at a time, each released once decoded.
  void decode_base64_payload(std::string_view encoded, const std::string& path,
                             unsigned char* out) const {
    constexpr std::size_t kWindow = std::size_t{4} << 20;  // a multiple of 4
    const std::size_t step = release_ ? kWindow : std::max<std::size_t>(encoded.size(), 1);
    for (std::size_t begin = 0; begin < encoded.size(); begin += step) {
      const std::string_view part = encoded.substr(begin, step);
      decode_window(part, begin, begin + step >= encoded.size(), path, out + begin / 4 * 3);
      if (release_) release_(part);
    }
  }

  // Decodes `part`, which starts at character `begin` of a payload, into `out`. Only the last
  // part may end with '='.
  void decode_window(std::string_view part, std::size_t begin, bool is_last,
                     const std::string& path, unsigned char* out) const {
    std::size_t bad = base64::decode(part, out);
    if (!is_last) {
      if (part[part.size() - 2] == '=') bad = std::min(bad, part.size() - 2);
      if (part.back() == '=') bad = std::min(bad, part.size() - 1);
    }
    if (bad != std::string_view::npos) {
      fail(path + ": invalid base64 character " + quote(part.substr(bad, 1)) + " at position " +
           std::to_string(begin + bad) + " of its data");
    }
  }

  void read_array_data(const Json& data, const std::string& name, const std::string& path,
                       std::int64_t expected_count, Tensor& tensor) const {
    const auto parsed = array_data_.find(name);
    if (parsed != array_data_.end() && data.empty()) {  // its numbers, taken while parsing
      if (parsed->second.size() != static_cast<std::size_t>(expected_count)) {
        fail(path + ": expected " + std::to_string(expected_count) + " values, got " +
             std::to_string(parsed->second.size()));
      }
      tensor.data = std::move(parsed->second);
      return;
    }
    if (data.size() != static_cast<std::size_t>(expected_count)) {
      fail(path + ": expected " + std::to_string(expected_count) + " values, got " +
           std::to_string(data.size()));
    }
    tensor.data.resize(data.size());
    for (std::size_t i = 0; i < data.size(); ++i) {
      if (!data[i].is_number()) {
        fail(path + ": value at index " + std::to_string(i) + " is " + data[i].type_name() +
             ", expected a number");
      }
      tensor.data[i] = static_cast<float>(data[i].get<double>());
    }
  }

  std::string_view text_;
  const std::string& source_;
  Int8WordTable word_table_;
  json::Release release_;
  Document document_;
  std::optional<json::CutDocument> cut_;
  // The vocabulary's words, checked, to be read last (check_deferred_words), or nullptr.
  const json::CutDocument::Cut* deferred_words_ = nullptr;
  mutable bool has_cut_numbers_ = false;  // a tensor's data array was cut out
  // In the document tree, estimated, and in long strings restored (kMaxTreeBytes).
  mutable std::size_t kept_bytes_ = 0;
  // State of the checks made while parsing (on_parse_event).
  std::vector<OpenValue> open_;
  std::string last_key_;
  bool newer_version_ = false;
  std::optional<Json> early_config_;
  int early_sizes_[4] = {-1, -1, -1, -1};                             // words, chars, upos, xpos
  int early_feats_ = 0;        // tag_sets.feats and lemma_rules, when present
  int early_lemma_rules_ = 0;
  std::map<std::string, std::int64_t, std::less<>> expected_counts_;  // tensor -> values
  // The numbers of each tensor's data array ("data": [...]), taken out of the document tree.
  // read_tensor moves them out (mutable: the reader is const after parsing).
  mutable std::map<std::string, TensorData, std::less<>> array_data_;
};

// ---- Writing ---------------------------------------------------------------------------------

// Shortest text that reads back as exactly `value`: 0.1f -> "0.1". Negative zero keeps its sign.
void append_float(float value, std::string& out) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
  if (value == 0.0f && std::signbit(value)) out += ".0";  // "-0" would read back as integer 0
}

void append_base64(const void* bytes, std::size_t size, std::string& out) {
  out += '"';
  out += kBase64Prefix;
  base64::encode_append(bytes, size, out);
  out += '"';
}

// `"scales": ..., "data": ...` of dtype "int8".
void append_int8_rows(const QuantizedRows& table, std::string& out) {
  std::vector<float> scales = table.scales;
  if (!is_little_endian()) swap_bytes(scales);
  out += "\"scales\": ";
  append_base64(scales.data(), scales.size() * sizeof(float), out);
  out += ", \"data\": ";
  append_base64(table.values.data(), table.values.size(), out);
}

void append_tensor_data(const Tensor& tensor, TensorEncoding encoding, std::string& out) {
  if (encoding == TensorEncoding::base64_float16) {
    std::vector<unsigned char> bytes(tensor.data.size() * 2);
    for (std::size_t i = 0; i < tensor.data.size(); ++i) {
      const std::uint16_t half = float16::from_float(tensor.data[i]);
      bytes[2 * i] = static_cast<unsigned char>(half & 0xFFu);
      bytes[2 * i + 1] = static_cast<unsigned char>(half >> 8);
    }
    append_base64(bytes.data(), bytes.size(), out);
    return;
  }
  if (encoding == TensorEncoding::base64) {
    if (is_little_endian()) {
      append_base64(tensor.data.data(), tensor.data.size() * sizeof(float), out);
    } else {
      TensorData swapped = tensor.data;
      swap_bytes(swapped);
      append_base64(swapped.data(), swapped.size() * sizeof(float), out);
    }
    return;
  }
  out += '[';
  for (std::size_t i = 0; i < tensor.data.size(); ++i) {
    if (i > 0) out += ", ";
    append_float(tensor.data[i], out);
  }
  out += ']';
}

OrderedJson config_json(const ModelConfig& config) {
  OrderedJson section = OrderedJson::object();
  for_each_config_field(config, [&](const char* name, const auto& field) {
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<Field, float>) {
      std::string text;
      append_float(field, text);
      section[name] = std::stod(text);  // 1e-5f is written "1e-05", not "9.99999974737875e-06"
    } else {
      section[name] = field;
    }
  });
  // Only when used, so that a model without it is written as before (and read by an older
  // sawtag).
  if (config.edge_char_dim > 0) section[kEdgeCharDim] = config.edge_char_dim;
  return section;
}

OrderedJson self_tests_json(const std::vector<SelfTest>& self_tests) {
  OrderedJson list = OrderedJson::array();
  for (const SelfTest& test : self_tests) {
    list.push_back(OrderedJson{{"words", test.words}, {"upos", test.upos}});
  }
  return list;
}

void append_section(const char* key, const OrderedJson& value, bool last, std::string& out) {
  out += " \"";
  out += key;
  out += "\": ";
  out += value.dump();
  out += last ? "\n" : ",\n";
}

// The learned tokenizer's character model, as a string holding its own model document.
void append_learned_tokenizer(const Model& character_model, TensorEncoding encoding,
                              std::string& out) {
  if (character_model.tokenizer.character_model) {
    throw ModelError(
        "cannot save the model: its learned tokenizer has a learned tokenizer of its own");
  }
  append_section("learned_tokenizer", OrderedJson(serialize_model(character_model, encoding)),
                 false, out);
}

// An ensemble's further taggers, each as a string holding its own model document: only what
// their networks need (no tokenizer tables, calibration or self-tests).
void append_ensemble(const Model& model, TensorEncoding encoding, std::string& out) {
  OrderedJson members = OrderedJson::array();
  for (std::size_t i = 0; i < model.ensemble.size(); ++i) {
    const Model& member = *model.ensemble[i];
    const std::string what = "cannot save the model: tagger " + std::to_string(i + 2) +
                             " of its ensemble ";
    if (!member.ensemble.empty()) throw ModelError(what + "has an ensemble of its own");
    if (member.tokenizer.character_model) {
      throw ModelError(what + "has a learned tokenizer of its own");
    }
    if (!same_tag_sets(member, model)) throw ModelError(what + "has other tag sets");
    Model network = member;
    network.tokenizer = TokenizerData{};
    network.calibration = Calibration{};
    network.self_tests.clear();
    members.push_back(serialize_model(network, encoding));
  }
  append_section("ensemble", members, false, out);
}

// A kept int8 word embedding must fit the config as the file's would, and be the only one.
void check_kept_word_table(const Model& model, const ModelConfig& config) {
  const QuantizedRows& table = *model.word_embedding_int8;
  const std::string what = "cannot save the model: int8 tensor 'encoder.word_embedding'";
  const Shape expected_shape{config.word_vocab_size, config.word_dim};
  const Shape actual_shape{table.rows, table.cols};
  if (actual_shape != expected_shape ||
      table.values.size() != static_cast<std::size_t>(element_count(expected_shape)) ||
      table.scales.size() != static_cast<std::size_t>(config.word_vocab_size)) {
    throw ModelError(what + ": expected shape " + to_string(expected_shape) + ", got " +
                     to_string(actual_shape) + " with " + std::to_string(table.values.size()) +
                     " values and " + std::to_string(table.scales.size()) + " scales");
  }
  const std::size_t bad = first_non_finite(table.scales.data(), table.scales.size());
  if (bad < table.scales.size()) {
    throw ModelError(what + " has a non-finite scale at row " + std::to_string(bad));
  }
  if (!model.parameters.encoder.word_embedding.data.empty()) {
    throw ModelError(what + " is also held as float32: keep one of the two");
  }
}

}  // namespace

Model parse_model(std::string_view text, const std::string& source_name, Int8WordTable word_table) {
  return ModelReader(text, source_name, word_table).read();
}

Model load_model(const std::string& path, Int8WordTable word_table) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(path + ": is a directory, not a model file");
  }
  const MappedFile file(path, kMaxFileBytes);
  // A big file's pages are released as the reader is done with them, so that refusing one
  // costs less memory than its size; a smaller one's are kept (reading a page twice costs
  // time: about 1 ms for the 23 MB shipped model).
  json::Release release;
  if (file.text().size() > kReleasePagesAbove) {
    release = [&file](std::string_view part) { file.release(part); };
  }
  return ModelReader(file.text(), path, word_table, std::move(release)).read();
}

// Layout: one top-level field per line, each section as compact JSON; then one tensor per line
// in for_each_parameter order. Tensors are written by hand so their data is never copied into
// a JSON value.
std::string serialize_model(const Model& model, TensorEncoding encoding) {
  // Check against the shapes a reader will expect: sizes come from the lists, as on load.
  ModelConfig config = model.config;
  config.word_vocab_size = model.words.size();
  config.char_vocab_size = model.chars.size();
  config.num_upos = model.upos.size();
  config.num_xpos = model.xpos.size();
  config.num_feats = model.feats.size();
  config.num_lemma_rules = model.lemma_rules.size();

  // The word embedding is most of a model: it alone may be written as int8. A kept int8 table
  // is written as it is then, and widened for the other encodings.
  const Tensor* word_embedding = &model.parameters.encoder.word_embedding;
  const bool words_as_int8 = encoding == TensorEncoding::base64_float16_int8_words;
  const QuantizedRows* kept_words =
      model.word_embedding_int8 ? &*model.word_embedding_int8 : nullptr;
  Tensor widened_words;
  if (kept_words != nullptr) {
    check_kept_word_table(model, config);
    if (!words_as_int8) {
      widened_words = Tensor({config.word_vocab_size, config.word_dim});
      widen_rows(*kept_words, widened_words.data.data());
    }
  }
  // The float32 tensor written for a visited one: a kept word table's widened copy stands in
  // for the empty word embedding.
  const auto values_of = [&](const Tensor& visited) -> const Tensor& {
    return &visited == word_embedding && kept_words != nullptr ? widened_words : visited;
  };

  std::size_t total_values = 0;
  for_each_parameter(
      model.parameters, config,
      [&](const std::string& name, const Tensor& tensor, const Shape& expected_shape) {
        if (&tensor == word_embedding && kept_words != nullptr) return;  // checked above
        if (tensor.shape != expected_shape ||
            tensor.data.size() != static_cast<std::size_t>(element_count(expected_shape))) {
          throw ModelError("cannot save the model: tensor '" + name + "': expected shape " +
                           to_string(expected_shape) + ", got " + to_string(tensor.shape) +
                           " with " + std::to_string(tensor.data.size()) + " values");
        }
        const std::size_t bad = first_non_finite(tensor.data.data(), tensor.data.size());
        if (bad < tensor.data.size()) {
          throw ModelError("cannot save the model: tensor '" + name +
                           "' has a non-finite value at index " + std::to_string(bad));
        }
        total_values += tensor.data.size();
      });

  std::string out;
  out.reserve(total_values * (encoding == TensorEncoding::json_array ? 14 : 6) + 4096);
  try {
    out += "{\n";
    append_section("format", OrderedJson(kModelFormat), false, out);
    const Calibration& calibration = model.calibration;
    const bool calibrated = calibration.upos_temperature != 1.0f ||
                            calibration.xpos_temperature != 1.0f ||
                            calibration.feats_temperature != 1.0f ||
                            calibration.lemma_temperature != 1.0f;
    const bool morphology = model.has_feats() || model.has_lemmas();
    // The lowest version that holds the model, so that older readers read what they can.
    const int version = morphology               ? kModelVersion
                        : !model.ensemble.empty()  ? kModelVersionWithoutMorphology
                        : config.edge_char_dim > 0 ? kModelVersionWithoutEnsemble
                        : model.tokenizer.character_model || calibrated
                            ? kModelVersionWithoutEdgeChars
                            : kModelVersionWithoutOptionalSections;
    append_section("version", OrderedJson(version), false, out);
    append_section("config", config_json(config), false, out);
    append_section("vocabularies",
                   OrderedJson{{"words", model.words.items()}, {"chars", model.chars.items()}},
                   false, out);
    OrderedJson tag_sets{{"upos", model.upos.items()}, {"xpos", model.xpos.items()}};
    if (model.has_feats()) tag_sets["feats"] = model.feats.items();
    if (model.has_lemmas()) tag_sets["lemma_rules"] = model.lemma_rules.items();
    append_section("tag_sets", tag_sets, false, out);
    append_section("tokenizer",
                   OrderedJson{{"multiword_tokens", model.tokenizer.multiword_tokens},
                               {"abbreviations", model.tokenizer.abbreviations}},
                   false, out);
    if (model.tokenizer.character_model) {
      append_learned_tokenizer(*model.tokenizer.character_model, encoding, out);
    }
    if (!model.ensemble.empty()) append_ensemble(model, encoding, out);
    append_section("training", OrderedJson(model.training.fields), false, out);
    if (calibrated) {
      OrderedJson temperatures{{"upos_temperature", calibration.upos_temperature},
                               {"xpos_temperature", calibration.xpos_temperature}};
      if (model.has_feats()) temperatures["feats_temperature"] = calibration.feats_temperature;
      if (model.has_lemmas()) temperatures["lemma_temperature"] = calibration.lemma_temperature;
      append_section("calibration", temperatures, false, out);
    }
    append_section("self_tests", self_tests_json(model.self_tests), false, out);
    if (!model.lemma_lexicon.empty()) {
      OrderedJson lexicon = OrderedJson::array();
      for (const LemmaLexiconEntry& entry : model.lemma_lexicon) {
        lexicon.push_back({entry.form, entry.upos, entry.xpos, entry.lemma});
      }
      append_section("lemma_lexicon", lexicon, false, out);
    }
  } catch (const OrderedJson::exception& error) {
    // nlohmann refuses to write invalid UTF-8.
    throw ModelError(std::string("cannot save the model: ") + error.what());
  }
  out += " \"tensors\": {";
  bool first = true;
  for_each_parameter(model.parameters, config,
                     [&](const std::string& name, const Tensor& visited,
                         const Shape& expected_shape) {
                       const Tensor& tensor = values_of(visited);
                       out += first ? "\n  \"" : ",\n  \"";
                       first = false;
                       out += name;  // our own names: nothing to escape
                       out += "\": {\"shape\": ";
                       out += OrderedJson(expected_shape).dump();  // checked above
                       const bool as_int8 = words_as_int8 && &visited == word_embedding;
                       const TensorEncoding values =
                           encoding == TensorEncoding::base64_float16_int8_words
                               ? TensorEncoding::base64_float16
                               : encoding;
                       out += ", \"dtype\": \"";
                       out += as_int8 ? kInt8
                              : values == TensorEncoding::base64_float16 ? kFloat16
                                                                         : kFloat32;
                       out += "\", ";
                       if (as_int8 && kept_words != nullptr) {
                         append_int8_rows(*kept_words, out);
                       } else if (as_int8) {
                         append_int8_rows(quantize_rows(tensor), out);
                       } else {
                         out += "\"data\": ";
                         append_tensor_data(tensor, values, out);
                       }
                       out += '}';
                     });
  out += "\n }\n}\n";
  return out;
}

void save_model(const Model& model, const std::string& path, TensorEncoding encoding) {
  const std::string text = serialize_model(model, encoding);
  // A temporary file in the same directory, renamed over `path` only once it is complete, so a
  // crash or a full disk never leaves a half-written model behind.
  std::random_device random;
  const std::string temporary = path + ".tmp-" + std::to_string(random());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw OutputError(path + ": cannot create the temporary file " + temporary + ": " +
                        std::strerror(errno));
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw OutputError(path + ": cannot write the model file (disk full?)");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw OutputError(path + ": cannot rename " + temporary + " to it: " + error.message());
  }
}

}  // namespace sawtag
