// The reading of one document as a whole (ModelReader::read): the order in which its sections
// are read and checked, the parse (cut_document.hpp first, then nlohmann, with the checks of
// model_reader_parse_checks.cpp), the messages for a file that is not JSON or not a model, the
// format tag, and upgrade(), the one place that brings an older version up to date.
#include "io/model_reader.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "io/decode_avx2.hpp"
#include "io/model_file_format.hpp"
#include "sawtag/error.hpp"
#include "threads/independent_tasks.hpp"

namespace sawtag::model_file {

namespace {

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

}  // namespace

Model ModelReader::read() {
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
  // The big parts, each independent of the others, are read as tasks (with run_tasks_, on
  // several threads): a learned tokenizer's model, an ensemble's taggers, the lemma tables,
  // the tensors. Their errors are reported below, each where a read in turn reports it.
  const Json* learned = optional_member(current, "learned_tokenizer", "");
  const Json* ensemble = optional_member(current, "ensemble", "");
  std::shared_ptr<const Model> character_model;
  std::vector<Model> members(ensemble != nullptr && ensemble->is_array() ? ensemble->size() : 0);
  std::vector<std::function<void()>> tasks;
  if (learned != nullptr) {
    tasks.push_back([&] { character_model = read_learned_tokenizer(*learned); });
  }
  const std::size_t first_member = tasks.size();
  for (std::size_t i = 0; i < members.size(); ++i) {
    tasks.push_back([&, i] { members[i] = read_ensemble_member(*ensemble, i); });
  }
  // The lemma tables before the tensors: read in turn, their errors come first, as below.
  const std::size_t lemma_task = tasks.size();
  tasks.push_back([&] { read_lemma_tables(current, model); });
  const std::size_t tensors_task = tasks.size();
  tasks.push_back([&] { read_tensors(member(current, "tensors", ""), model); });
  // The CPU level may be chosen by timing its kernels on first use (base64 decodes with it):
  // chosen here, before the tasks, so that they cannot disturb the timing.
  if (run_tasks_) decode_avx2::usable();
  const std::vector<std::exception_ptr> errors = run_independent(run_tasks_, std::move(tasks));

  if (learned != nullptr) {
    rethrow_if_failed(errors, 0);
    model.tokenizer.character_model = std::move(character_model);
  }
  if (ensemble != nullptr) add_ensemble(*ensemble, members, errors, first_member, model);
  if (const Json* training = optional_member(current, "training", "")) {
    read_training(*training, model.training);
  }
  if (const Json* calibration = optional_member(current, "calibration", "")) {
    read_calibration(*calibration, model.calibration);
  }
  if (const Json* self_tests = optional_member(current, "self_tests", "")) {
    read_self_tests(*self_tests, model);
  }
  rethrow_if_failed(errors, lemma_task);
  rethrow_if_failed(errors, tensors_task);
  if (deferred_words_ != nullptr) read_deferred_words(model);
  return model;
}

void ModelReader::fail(const std::string& problem) const {
  throw ModelError(source_ + ": " + problem);
}

Json ModelReader::parse() {
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

std::string ModelReader::where(std::size_t position) const {
  return line_and_column(text_, position, release_);
}

void ModelReader::refuse(const json::CutProblem& problem) const {
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

void ModelReader::check_format(const Json& document) const {
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
void ModelReader::upgrade(Json& document) const {
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
  if (version == 6) version = 7;  // 7 only added the optional "lemma_casing", "lemma_deletions"
  if (version == 7) version = 8;  // 8 only added the optional "lemma_dictionary"
  if (version != kModelVersion) {
    fail("internal error: no upgrade from version " + std::to_string(version));
  }
  document["version"] = version;
}

}  // namespace sawtag::model_file
