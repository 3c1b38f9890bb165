// A dictionary of a language's words and lemmas for the lemma choice (sawtag/lemma_dictionary.hpp).
#include "sawtag/lemma_dictionary.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "io/model_strings.hpp"
#include "sawtag/error.hpp"
#include "sawtag/lemma_rule.hpp"

namespace sawtag {

namespace {

// The fields of `line` between tabs.
std::vector<std::string_view> tab_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t begin = 0;;) {
    const std::size_t end = line.find('\t', begin);
    fields.push_back(line.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) return fields;
    begin = end + 1;
  }
}

}  // namespace

void LemmaDictionarySource::add_line(std::string_view line, const std::string& where) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  if (line.front() == '#') {
    line.remove_prefix(1);
    const std::size_t begin = line.find_first_not_of(' ');
    if (begin == std::string_view::npos) return;
    line.remove_prefix(begin);
    if (const std::string problem = model_strings::text_problem(line); !problem.empty()) {
      throw InputError(where + ": the comment " + problem);
    }
    notice += (notice.empty() ? "" : " ") + std::string(line);
    return;
  }
  const std::vector<std::string_view> fields = tab_fields(line);
  if (fields.size() != 3) {
    throw InputError(where + ": expected form, UPOS and lemma separated by tabs, got " +
                     std::to_string(fields.size()) + " field" + (fields.size() == 1 ? "" : "s"));
  }
  static const char* const kNames[] = {"form", "UPOS", "lemma"};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string_view field = fields[i];
    if (field.empty()) throw InputError(where + ": the " + kNames[i] + " is empty");
    if (field.find(' ') != std::string_view::npos) {
      throw InputError(where + ": the " + kNames[i] + " \"" + std::string(field) +
                       "\" holds a space (a dictionary lists single words)");
    }
    if (const std::string problem = model_strings::text_problem(field); !problem.empty()) {
      throw InputError(where + ": the " + kNames[i] + " " + problem);
    }
  }
  entries.push_back({std::string(fields[0]), std::string(fields[1]), std::string(fields[2])});
}

LemmaDictionary make_lemma_dictionary(const LemmaDictionarySource& source,
                                      const std::vector<Sentence>& treebank, const Model& model) {
  std::map<std::string, std::set<std::string>> known;  // by UPOS: lower-cased lemmas
  for (const LemmaDictionaryEntry& entry : source.entries) {
    if (model.upos.find(entry.upos) < 0) {
      throw InputError("the dictionary's UPOS \"" + entry.upos + "\" (of \"" + entry.form +
                       "\") is not one that the model tags");
    }
    std::set<std::string>& lemmas = known[entry.upos];
    std::string lemma = lower_case(entry.lemma);
    if (model.words.find(lemma) >= 0) lemmas.insert(std::move(lemma));
  }
  // What the treebank has, of the UPOS the dictionary covers.
  std::set<std::pair<std::string, std::string>> treebank_forms;  // (lower-cased form, UPOS)
  bool has_lemmas = false;
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) {
      const auto covered = known.find(word.upos);
      if (covered == known.end()) continue;
      treebank_forms.emplace(lower_case(word.form), word.upos);
      if (word.lemma == "_") continue;
      has_lemmas = true;
      covered->second.insert(lower_case(word.lemma));
    }
  }
  if (!has_lemmas && !known.empty()) {
    throw InputError("the treebank has no lemmas of the UPOS the dictionary covers");
  }
  LemmaDictionary dictionary;
  dictionary.notice = source.notice;
  for (const auto& [upos, lemmas] : known) {
    std::string& list = dictionary.lemmas[upos];
    for (const std::string& lemma : lemmas) list += (list.empty() ? "" : " ") + lemma;
    if (list.empty()) dictionary.lemmas.erase(upos);
  }
  std::set<std::pair<std::string, std::string>> listed;  // (form, UPOS) of dictionary.forms
  for (const LemmaDictionaryEntry& entry : source.entries) {
    std::string form = lower_case(entry.form);
    if (form == lower_case(entry.lemma) || treebank_forms.count({form, entry.upos}) > 0 ||
        !listed.emplace(form, entry.upos).second) {
      continue;
    }
    dictionary.forms.push_back({std::move(form), entry.upos, entry.lemma});
  }
  std::sort(dictionary.forms.begin(), dictionary.forms.end(),
            [](const LemmaDictionaryEntry& a, const LemmaDictionaryEntry& b) {
              return std::tie(a.form, a.upos) < std::tie(b.form, b.upos);
            });
  return dictionary;
}

std::string describe(const LemmaDictionary& dictionary) {
  std::string classes;
  std::size_t total = 0;
  for (const auto& [upos, list] : dictionary.lemmas) {
    const auto count = static_cast<std::size_t>(std::count(list.begin(), list.end(), ' ')) + 1;
    classes += (classes.empty() ? "" : ", ") + upos + " " + std::to_string(count);
    total += count;
  }
  return std::to_string(total) + " known lemmas (" + classes + ") and " +
         std::to_string(dictionary.forms.size()) + " irregular forms";
}

}  // namespace sawtag
