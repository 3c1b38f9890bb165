// The sections of a model document other than its tensors and the models it holds: config,
// vocabularies and tag sets, tokenizer tables, training record, calibration, lemma lexicon,
// lemma casing and self-tests, each checked as docs/model-format.md describes it.
#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "io/model_file_format.hpp"
#include "io/model_reader.hpp"
#include "io/string_array.hpp"
#include "sawtag/error.hpp"
#include "sawtag/lemma_rule.hpp"

namespace sawtag::model_file {

void ModelReader::read_config(const Json& section, ModelConfig& config) const {
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
    config.edge_char_dim = read_int(section[kEdgeCharDim], std::string("config.") + kEdgeCharDim);
  }
  for (const auto& item : section.items()) {
    if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
      fail("unknown field 'config." + name_of(item.key()) + "'");
    }
  }
}

Vocabulary ModelReader::read_vocabulary(const Json& section, const char* key,
                                        const std::string& path) {
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

void ModelReader::require_reserved(const Vocabulary& vocabulary, const std::string& path,
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

bool ModelReader::is_words_placeholder(const Json& value) const {
  return cut_of(value, json::CutDocument::Kind::words) != nullptr;
}

void ModelReader::read_vocabularies(const Json& document, Model& model) {
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

void ModelReader::read_tokenizer(const Json& section, TokenizerData& tokenizer) const {
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
        fail("tokenizer.abbreviations has a duplicate entry " + quote(tokenizer.abbreviations[i]) +
             " at index " + std::to_string(i));
      }
    }
  }
}

void ModelReader::read_training(const Json& section, TrainingRecord& training) const {
  require_type(section, Json::value_t::object, "training");
  for (const auto& item : section.items()) {
    const std::string key = restore(item.key());
    require_valid(key, "training key");
    training.fields[key] = read_string(item.value(), "training." + key);
  }
}

// {"upos_temperature": 0.8, "xpos_temperature": 0.8}: both required, in [0.01, 100];
// "feats_temperature" and "lemma_temperature" optional (version 6), 1 when absent.
void ModelReader::read_calibration(const Json& section, Calibration& calibration) const {
  require_type(section, Json::value_t::object, "calibration");
  check_known_fields(
      section, "calibration",
      {"upos_temperature", "xpos_temperature", "feats_temperature", "lemma_temperature"});
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

// `count` strings, none empty; `shape` names them for a message: "[form, UPOS, lemma]".
std::vector<std::string> ModelReader::read_filled_strings(const Json& value,
                                                          const std::string& path,
                                                          std::size_t count,
                                                          const char* shape) const {
  std::vector<std::string> fields = read_strings(value, path);
  if (fields.size() != count) {
    fail(path + ": expected " + shape + ", got " + std::to_string(fields.size()) + " strings");
  }
  for (const std::string& field : fields) {
    if (field.empty()) fail(path + ": an empty string");
  }
  return fields;
}

void ModelReader::require_upos(const Model& model, const std::string& upos,
                               const std::string& path) const {
  if (model.upos.find(upos) < 0) fail(path + ": " + quote(upos) + " is not in tag_sets.upos");
}

void ModelReader::read_rows(const Json& section, const std::string& path, std::size_t width,
                            const char* shape, std::size_t max_rows,
                            const std::function<void(const TableRow&)>& take_row) const {
  const auto refuse_count = [&](std::size_t count) {
    fail(path + ": " + std::to_string(count) + " entries, at most " + std::to_string(max_rows));
  };
  const auto row_path = [&](std::size_t i) { return path + "[" + std::to_string(i) + "]"; };
  if (const json::CutDocument::Cut* cut = cut_of(section, json::CutDocument::Kind::rows)) {
    if (cut->width != width) fail(path + ": internal error: a table of other rows cut out");
    if (cut->count > max_rows) refuse_count(cut->count);
    std::size_t index = 0;
    std::size_t end = 0;
    // count_string_rows accepted it, and its strings need no further check.
    const bool read = json::for_each_string_row(
        cut->raw, 0, width, &end,
        [&](std::vector<std::string>& fields) {
          for (const std::string& field : fields) {
            if (field.empty()) fail(row_path(index) + ": an empty string");
          }
          take_row({index++, cut->count, fields});
        },
        release_);
    if (!read || index != cut->count) fail(path + ": internal error: the table cut out misread");
    return;
  }
  require_type(section, Json::value_t::array, path);
  if (section.size() > max_rows) refuse_count(section.size());
  for (std::size_t i = 0; i < section.size(); ++i) {
    std::vector<std::string> fields = read_filled_strings(section[i], row_path(i), width, shape);
    take_row({i, section.size(), fields});
  }
}

// The lemma tables, which only a model with a lemma head may have.
void ModelReader::read_lemma_tables(const Json& document, Model& model) const {
  if (const Json* lexicon = optional_member(document, "lemma_lexicon", "")) {
    if (!model.has_lemmas()) fail("lemma_lexicon: the model has no tag_sets.lemma_rules");
    read_lemma_lexicon(*lexicon, model.lemma_lexicon);
  }
  if (const Json* casing = optional_member(document, "lemma_casing", "")) {
    if (!model.has_lemmas()) fail("lemma_casing: the model has no tag_sets.lemma_rules");
    read_lemma_casing(*casing, model.lemma_casing);
  }
  if (const Json* deletions = optional_member(document, "lemma_deletions", "")) {
    if (!model.has_lemmas()) fail("lemma_deletions: the model has no tag_sets.lemma_rules");
    read_lemma_deletions(*deletions, model);
  }
  if (const Json* dictionary = optional_member(document, "lemma_dictionary", "")) {
    if (!model.has_lemmas()) fail("lemma_dictionary: the model has no tag_sets.lemma_rules");
    read_lemma_dictionary(*dictionary, model);
  }
}

// [["was", "AUX", "VBD", "be"], ...]: form, UPOS, XPOS, lemma; none empty.
void ModelReader::read_lemma_lexicon(const Json& section,
                                     std::vector<LemmaLexiconEntry>& lexicon) const {
  read_rows(section, "lemma_lexicon", 4, "[form, UPOS, XPOS, lemma]", kMaxLemmaLexiconEntries,
            [&](const TableRow& row) {
              std::vector<std::string>& fields = row.fields;
              if (row.index == 0) lexicon.reserve(row.count);
              lexicon.push_back({std::move(fields[0]), std::move(fields[1]), std::move(fields[2]),
                                 std::move(fields[3])});
            });
}

// "Kerala NASA ...": usual spellings separated by single spaces, none empty. Their order and
// casing are not checked (a word's first spelling counts, tagging/lemma_choice.cpp).
void ModelReader::read_lemma_casing(const Json& section, std::string& spellings) const {
  spellings = read_string(section, "lemma_casing");
  if (const std::string problem = model_strings::spaced_list_problem(spellings, "spelling");
      !problem.empty()) {
    fail("lemma_casing: " + problem);
  }
}

// [["NUM", ","], ...]: a UPOS of tag_sets.upos and one code point, each pair once.
void ModelReader::read_lemma_deletions(const Json& section, Model& model) const {
  std::set<std::pair<std::string, std::string>> seen;
  read_rows(section, "lemma_deletions", 2, "[UPOS, character]", kMaxTableEntries,
            [&](const TableRow& row) {
              const std::vector<std::string>& fields = row.fields;
              const std::string path = "lemma_deletions[" + std::to_string(row.index) + "]";
              require_upos(model, fields[0], path);
              if (!model_strings::is_one_code_point(fields[1])) {
                fail(path + ": " + quote(fields[1]) + " is not one character (one code point)");
              }
              if (!seen.emplace(fields[0], fields[1]).second) fail(path + ": listed twice");
              model.lemma_deletions.push_back({fields[0], fields[1]});
            });
}

// {"notice": "...", "lemmas": {"ADJ": "able ...", ...}, "forms": [["fled", "VERB", "flee"],
// ...]}: each UPOS one of tag_sets.upos; lemmas separated by single spaces; forms' strings not
// empty. "notice" may be absent.
void ModelReader::read_lemma_dictionary(const Json& section, Model& model) const {
  require_type(section, Json::value_t::object, "lemma_dictionary");
  LemmaDictionary& dictionary = model.lemma_dictionary;
  if (const Json* notice = optional_member(section, "notice", "lemma_dictionary")) {
    dictionary.notice = read_string(*notice, "lemma_dictionary.notice");
  }
  const Json& lemmas = member(section, "lemmas", "lemma_dictionary");
  require_type(lemmas, Json::value_t::object, "lemma_dictionary.lemmas");
  for (const auto& item : lemmas.items()) {
    const std::string upos = restore(item.key());
    const std::string path = "lemma_dictionary.lemmas." + upos;
    require_upos(model, upos, path);
    std::string list = read_string(item.value(), path);
    if (const std::string problem = model_strings::spaced_list_problem(list, "lemma");
        !problem.empty()) {
      fail(path + ": " + problem);
    }
    dictionary.lemmas[upos] = std::move(list);
  }
  read_rows(member(section, "forms", "lemma_dictionary"), "lemma_dictionary.forms", 3,
            "[form, UPOS, lemma]", kMaxLemmaLexiconEntries, [&](const TableRow& row) {
              std::vector<std::string>& fields = row.fields;
              require_upos(model, fields[1],
                           "lemma_dictionary.forms[" + std::to_string(row.index) + "]");
              if (row.index == 0) dictionary.forms.reserve(row.count);
              dictionary.forms.push_back(
                  {std::move(fields[0]), std::move(fields[1]), std::move(fields[2])});
            });
}

void ModelReader::read_self_tests(const Json& section, Model& model) const {
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

}  // namespace sawtag::model_file
