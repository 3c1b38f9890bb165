// The model file's reader: one ModelReader reads one document (a model file's own, or one held
// inside it) into a Model, checking everything as it goes (docs/model-format.md). Shared by the
// files that define its parts, one job each, named in the comments below; load_model and
// parse_model (model_file.cpp) start one. The reader and the writer (model_writer.cpp) are the
// only files of the library that include nlohmann/json.
//
// Loading a ~20 MB model must take well under 100 ms, and nlohmann's lexer copies every token
// one character at a time. So before parsing, the big base64 payloads, the vocabulary's words,
// the tensors' arrays of numbers and every long string are cut out of the text and replaced by
// short placeholders (cut_document.hpp); after parsing, each tensor's data is decoded straight
// from the original text into its float vector. What the parser keeps in its document tree is
// counted as it parses, against kMaxTreeBytes (model_file_limits.hpp). The file is mapped
// (mapped_file.hpp), and a big one's pages are released as the reader is done with them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "io/cut_document.hpp"
#include "io/model_file_limits.hpp"
#include "io/model_strings.hpp"
#include "sawtag/model.hpp"
#include "sawtag/task_runner.hpp"

namespace sawtag::model_file {

// Read into nlohmann::json (faster to parse); the writer writes with ordered_json.
using Json = nlohmann::json;

using json::kMaxJsonDepth;
constexpr std::size_t kMaxQuoted = 80;  // longest piece of the file quoted in a message

inline std::string quote(std::string_view text) {
  if (text.size() <= kMaxQuoted) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kMaxQuoted)) + "...'";
}

// Which document a ModelReader reads: a model file's own, or one held inside it, which may not
// hold further documents (so nesting stops at one level).
enum class Document {
  file,               // may have a learned tokenizer and an ensemble
  learned_tokenizer,  // a learned tokenizer's character model (read_learned_tokenizer)
  ensemble_member,    // a further tagger of an ensemble (read_ensemble_member)
};

class ModelReader {
 public:
  // `release` (may be empty) is given the parts of `text` the reader is done with.
  // `run_tasks` (may be empty) runs the big parts' reads (ModelReader::read).
  ModelReader(std::string_view text, const std::string& source, Int8WordTable word_table,
              json::Release release = {}, Document document = Document::file,
              TaskRunner run_tasks = {})
      : text_(text),
        source_(source),
        word_table_(word_table),
        release_(std::move(release)),
        document_(document),
        run_tasks_(std::move(run_tasks)) {}

  Model read();

 private:
  // One object or array being parsed (model_reader_parse_checks.cpp).
  struct OpenValue {
    std::string path;  // "config", "tensors.heads.upos.bias.data"; an array's elements share it
    bool is_object = false;
    std::unordered_set<std::string> keys;  // of an object, as written in the parsed text
    std::size_t entries = 0;
    std::size_t max_entries = kMaxTableEntries;
    bool strings_only = false;  // an array of strings that may be long: refuse the rest at once
  };

  // "config" + "d_model" -> "config.d_model"; "" + "config" -> "config".
  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  // The cut a parsed string stands for (cut_document.hpp), or nullptr.
  const json::CutDocument::Cut* cut_of(const std::string& text) const {
    return cut_ ? cut_->cut_of(text) : nullptr;
  }
  // The cut of that kind a parsed value stands for, or nullptr.
  const json::CutDocument::Cut* cut_of(const Json& value, json::CutDocument::Kind kind) const {
    const json::CutDocument::Cut* cut =
        value.is_string() ? cut_of(value.get_ref<const std::string&>()) : nullptr;
    return cut != nullptr && cut->kind == kind ? cut : nullptr;
  }

  // ---- model_reader.cpp: the parse and its errors, the format tag, upgrade()
  [[noreturn]] void fail(const std::string& problem) const;
  Json parse();
  std::string where(std::size_t position) const;
  [[noreturn]] void refuse(const json::CutProblem& problem) const;
  void check_format(const Json& document) const;
  void upgrade(Json& document) const;

  // ---- model_reader_parse_checks.cpp: the checks made while parsing (on_parse_event)
  bool on_parse_event(Json::parse_event_t event, Json& parsed);
  void check_cut_numbers(const std::string& text) const;
  void check_cut_rows(const Json& value) const;
  void keep_value(const Json& value);
  void charge(std::size_t bytes) const;
  [[noreturn]] void refuse_non_string(const char* type_name) const;
  std::string open_tensor_data() const;
  bool take_tensor_value(const Json& value);
  [[noreturn]] void refuse_tensor_value(const std::string& tensor, const char* type_name) const;
  void count_entry();
  void open_value(bool is_object);
  void add_key(const std::string& key);
  static std::string tensor_of(const std::string& path);
  void note_section(const std::string& path, const Json& section);
  void expect_tensor_counts();

  // ---- model_reader_fields.cpp: typed access, each error naming the field by its path
  void require_type(const Json& value, Json::value_t expected_type, const std::string& path) const;
  const Json* optional_member(const Json& object, const char* key, const std::string& path) const;
  const Json& member(const Json& object, const char* key, const std::string& path) const;
  void check_known_fields(const Json& object, const std::string& path,
                          std::initializer_list<std::string_view> known) const;
  int read_int(const Json& value, const std::string& path) const;
  std::string restore(const std::string& text, bool is_document = false) const;
  std::string name_of(const std::string& key) const;
  void require_valid(
      std::string_view text, const std::string& path,
      std::string (*problem_of)(std::string_view) = model_strings::text_problem) const;
  void require_all_valid(const std::vector<std::string>& strings, const std::string& path,
                         std::string (*problem_of)(std::string_view)) const;
  std::string read_string(const Json& value, const std::string& path) const;
  std::vector<std::string> read_strings(const Json& value, const std::string& path) const;

  // ---- model_reader_sections.cpp: config, vocabularies, tag sets and the other sections
  void read_config(const Json& section, ModelConfig& config) const;
  Vocabulary read_vocabulary(const Json& section, const char* key, const std::string& path);
  void require_reserved(const Vocabulary& vocabulary, const std::string& path,
                        std::initializer_list<std::string_view> expected_entries) const;
  bool is_words_placeholder(const Json& value) const;
  void read_vocabularies(const Json& document, Model& model);
  void read_tokenizer(const Json& section, TokenizerData& tokenizer) const;
  void read_training(const Json& section, TrainingRecord& training) const;
  void read_calibration(const Json& section, Calibration& calibration) const;
  // A table row: `count` strings, none empty ("expected [form, UPOS, lemma]" otherwise).
  std::vector<std::string> read_filled_strings(const Json& value, const std::string& path,
                                               std::size_t count, const char* shape) const;
  // A row of a table that read_rows reads: where it is, of how many, and its strings (which
  // may be moved away).
  struct TableRow {
    std::size_t index;
    std::size_t count;
    std::vector<std::string>& fields;
  };
  // A table of at most `max_rows` such rows of `width` strings, cut out of the file
  // (cut_document.hpp) or parsed: take_row is called with each, in order, once it is checked.
  void read_rows(const Json& section, const std::string& path, std::size_t width, const char* shape,
                 std::size_t max_rows, const std::function<void(const TableRow&)>& take_row) const;
  // Fails unless `upos` is one of model.upos.
  void require_upos(const Model& model, const std::string& upos, const std::string& path) const;
  // All four lemma tables of `document` (read as a task of its own, beside the tensors).
  void read_lemma_tables(const Json& document, Model& model) const;
  void read_lemma_lexicon(const Json& section, std::vector<LemmaLexiconEntry>& lexicon) const;
  void read_lemma_casing(const Json& section, std::string& spellings) const;
  void read_lemma_deletions(const Json& section, Model& model) const;
  void read_lemma_dictionary(const Json& section, Model& model) const;
  void read_self_tests(const Json& section, Model& model) const;

  // ---- model_reader_big_vocabulary.cpp: a vocabulary too big to read first, read last
  void check_deferred_words(const json::CutDocument::Cut& words);
  void check_deferred_words_unique() const;
  void read_deferred_words(Model& model) const;

  // ---- model_reader_nested_models.cpp: a learned tokenizer's model, an ensemble's taggers
  std::shared_ptr<const Model> read_learned_tokenizer(const Json& section) const;
  Model read_ensemble_member(const Json& section, std::size_t i) const;
  void add_ensemble(const Json& section, std::vector<Model>& members,
                    const std::vector<std::exception_ptr>& errors, std::size_t first,
                    Model& model) const;

  // ---- model_reader_tensors.cpp: the tensors, each checked and read
  void read_tensors(const Json& section, Model& model) const;
  void read_tensor(const Json& entry, const std::string& name, const Shape& expected_shape,
                   Tensor& tensor, std::optional<QuantizedRows>* kept_rows = nullptr) const;
  std::string_view checked_dtype(const Json& entry, const std::string& path,
                                 const Shape& expected_shape) const;
  void check_tensors(const Json& section, Model& model) const;
  void check_values(const Json& entry, const std::string& name, const Shape& expected_shape) const;
  static void* allocate(Tensor& tensor, bool is_float16);
  static void widen_float16(Tensor& tensor);
  void read_array_data(const Json& data, const std::string& name, const std::string& path,
                       std::int64_t expected_count, Tensor& tensor) const;
  const json::CutDocument::Cut* numbers_cut(const Json& data) const;
  void read_cut_numbers(const json::CutDocument::Cut& cut, const std::string& path,
                        std::int64_t expected_count, float* values) const;

  // ---- model_reader_payloads.cpp: base64 payloads checked and decoded; int8 rows
  std::string_view payload(const std::string& text) const;
  std::string_view checked_base64_payload(const std::string& parsed, const std::string& path,
                                          std::int64_t expected_count, std::size_t value_bytes,
                                          std::string* storage) const;
  void decode_base64_payload(std::string_view encoded, const std::string& path,
                             unsigned char* out) const;
  void decode_window(std::string_view part, std::size_t begin, bool is_last,
                     const std::string& path, unsigned char* out) const;
  QuantizedRows read_int8_rows(const Json& entry, const Json& data, const std::string& path,
                               const Shape& shape) const;
  void require_finite_products(const QuantizedRows& table, const std::string& path) const;

  std::string_view text_;
  const std::string& source_;
  Int8WordTable word_table_;
  json::Release release_;
  Document document_;
  TaskRunner run_tasks_;
  std::optional<json::CutDocument> cut_;
  // The vocabulary's words, checked, to be read last (check_deferred_words), or nullptr.
  const json::CutDocument::Cut* deferred_words_ = nullptr;
  mutable bool has_cut_numbers_ = false;  // a tensor's data array was cut out
  // In the document tree, estimated, and in long strings restored (kMaxTreeBytes).
  // Atomic: the lemma tables' strings are restored by a task beside the tensors'.
  mutable std::atomic<std::size_t> kept_bytes_{0};
  // State of the checks made while parsing (on_parse_event).
  std::vector<OpenValue> open_;
  std::string last_key_;
  bool newer_version_ = false;
  std::optional<Json> early_config_;
  int early_sizes_[4] = {-1, -1, -1, -1};  // words, chars, upos, xpos
  int early_feats_ = 0;                    // tag_sets.feats and lemma_rules, when present
  int early_lemma_rules_ = 0;
  std::map<std::string, std::int64_t, std::less<>> expected_counts_;  // tensor -> values
  // The numbers of each tensor's data array ("data": [...]), taken out of the document tree.
  // read_tensor moves them out (mutable: the reader is const after parsing).
  mutable std::map<std::string, TensorData, std::less<>> array_data_;
};

}  // namespace sawtag::model_file
