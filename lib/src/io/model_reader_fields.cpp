// Typed access to the parsed document, each error naming the field by its path
// ("config.d_model"): objects, members, integers and strings; the strings cut out before
// parsing restored from the file (cut_document.hpp); every string checked to be valid UTF-8
// without control characters (model_strings.hpp).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/model_file_format.hpp"
#include "io/model_reader.hpp"

namespace sawtag::model_file {

void ModelReader::require_type(const Json& value, Json::value_t expected_type,
                               const std::string& path) const {
  if (value.type() == expected_type) return;
  const Json sample(expected_type);
  const std::string expected_name = sample.type_name();  // "object", "array", "string"...
  fail(path + ": expected " + (expected_name[0] == 'o' || expected_name[0] == 'a' ? "an " : "a ") +
       expected_name + ", got " + value.type_name());
}

const Json* ModelReader::optional_member(const Json& object, const char* key,
                                         const std::string& path) const {
  require_type(object, Json::value_t::object, path.empty() ? "the document" : path);
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

const Json& ModelReader::member(const Json& object, const char* key,
                                const std::string& path) const {
  const Json* found = optional_member(object, key, path);
  if (found == nullptr) fail("missing field '" + join(path, key) + "'");
  return *found;
}

void ModelReader::check_known_fields(const Json& object, const std::string& path,
                                     std::initializer_list<std::string_view> known) const {
  for (const auto& item : object.items()) {
    if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
      fail("unknown field '" + join(path, name_of(item.key())) + "'");
    }
  }
}

int ModelReader::read_int(const Json& value, const std::string& path) const {
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

// A placeholder left by cut_document() turned back into the file's string. A long string
// counts toward kMaxTreeBytes, as it would had the parser kept it, unless it is the learned
// tokenizer's document (a model of its own, with its own budget).
std::string ModelReader::restore(const std::string& text, bool is_document) const {
  using Kind = json::CutDocument::Kind;
  const json::CutDocument::Cut* cut = cut_of(text);
  if (cut == nullptr || cut->kind == Kind::words || cut->kind == Kind::numbers ||
      cut->kind == Kind::rows) {
    return text;
  }
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
std::string ModelReader::name_of(const std::string& key) const {
  const json::CutDocument::Cut* cut = cut_of(key);
  if (cut == nullptr || cut->kind != json::CutDocument::Kind::string) return restore(key);
  const std::string_view start = cut->raw.substr(0, kMaxQuoted);
  return json::unescape(start).value_or(std::string(start)) + "...";
}

// Every string of the file is valid UTF-8 without control characters, also one the cut took
// out unchecked ("base64:..."); what the outputs write (tags, words) is checked further.
// `problem_of` is a model_strings function.
void ModelReader::require_valid(std::string_view text, const std::string& path,
                                std::string (*problem_of)(std::string_view)) const {
  const std::string problem = problem_of(text);
  if (!problem.empty()) fail(path + " " + problem);
}

void ModelReader::require_all_valid(const std::vector<std::string>& strings,
                                    const std::string& path,
                                    std::string (*problem_of)(std::string_view)) const {
  for (std::size_t i = 0; i < strings.size(); ++i) {
    if (!problem_of(strings[i]).empty()) {
      require_valid(strings[i], path + "[" + std::to_string(i) + "]", problem_of);
    }
  }
}

std::string ModelReader::read_string(const Json& value, const std::string& path) const {
  require_type(value, Json::value_t::string, path);
  std::string text = restore(value.get_ref<const std::string&>());
  require_valid(text, path);
  return text;
}

std::vector<std::string> ModelReader::read_strings(const Json& value,
                                                   const std::string& path) const {
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

}  // namespace sawtag::model_file
