// The soft-targets file (docs/distillation.md): its header, writing and reading.
//
//   # sawtag soft targets 1
//   # classes {"upos": [...], "xpos": [...], "feats": [...], "lemma_rules": [...]}
//   FORM <tab> UPOS <tab> XPOS <tab> FEATS <tab> LEMMA     one line a word; a blank line ends a
//                                                          sentence
// where each head's column is "_" (no such head) or its classes, most likely first, as
// "index:probability" separated by spaces, the index into that head's list of the header.
#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "sawtag/error.hpp"
#include "sawtag/soft_targets.hpp"

namespace sawtag {
namespace {

constexpr const char* kMagic = "# sawtag soft targets 1";
constexpr const char* kClassesPrefix = "# classes ";
constexpr std::array<const char*, kSoftHeads> kHeadNames = {"upos", "xpos", "feats",
                                                             "lemma_rules"};

// "0.9412", "1", "0.05": four decimals at most, trailing zeros left out.
void write_probability(std::ostream& out, float probability) {
  char text[16];
  std::snprintf(text, sizeof text, "%.4f", static_cast<double>(probability));
  std::string value(text);
  while (value.back() == '0') value.pop_back();
  if (value.back() == '.') value.pop_back();
  out << value;
}

void write_head(std::ostream& out, const std::vector<SoftClass>& classes) {
  if (classes.empty()) {
    out << '_';
    return;
  }
  bool first = true;
  for (const SoftClass& each : classes) {
    // The most likely class is always written, at least 0.0001.
    const float probability = first ? std::max(each.probability, 1e-4f) : each.probability;
    if (probability < 5e-5f) break;
    if (!first) out << ' ';
    out << each.index << ':';
    write_probability(out, probability);
    first = false;
  }
}

}  // namespace

SoftTargetsHeader soft_targets_header(const Model& teacher) {
  SoftTargetsHeader header;
  header.classes[static_cast<std::size_t>(SoftHead::upos)] = teacher.upos.items();
  header.classes[static_cast<std::size_t>(SoftHead::xpos)] = teacher.xpos.items();
  header.classes[static_cast<std::size_t>(SoftHead::feats)] = teacher.feats.items();
  header.classes[static_cast<std::size_t>(SoftHead::lemma)] = teacher.lemma_rules.items();
  return header;
}

void write_soft_targets_header(std::ostream& out, const SoftTargetsHeader& header) {
  nlohmann::json classes = nlohmann::json::object();
  for (std::size_t h = 0; h < kSoftHeads; ++h) classes[kHeadNames[h]] = header.classes[h];
  out << kMagic << '\n' << kClassesPrefix << classes.dump() << '\n';
}

void write_soft_sentence(std::ostream& out, const SoftSentence& sentence) {
  for (const SoftWord& word : sentence) {
    if (word.form.find_first_of("\t\n\r") != std::string::npos || word.form.empty()) {
      throw InputError("soft targets: a word form that is empty or has a tab or line break");
    }
    out << word.form;
    for (const std::vector<SoftClass>& head : word.heads) {
      out << '\t';
      write_head(out, head);
    }
    out << '\n';
  }
  out << '\n';
}

bool is_soft_targets_file(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  return in && std::getline(in, line) && line == kMagic;
}

SoftTargetsReader::SoftTargetsReader(std::istream& in, std::string name)
    : in_(in), name_(std::move(name)) {
  std::string line;
  if (!std::getline(in_, line) || line != kMagic) {
    throw InputError(name_ + ":1: not a soft-targets file (its first line is not \"" + kMagic +
                     "\")");
  }
  if (!std::getline(in_, line) || line.rfind(kClassesPrefix, 0) != 0) {
    throw InputError(name_ + ":2: the \"" + std::string(kClassesPrefix) + "{...}\" line is missing");
  }
  line_number_ = 2;
  const nlohmann::json classes =
      nlohmann::json::parse(line.substr(std::string(kClassesPrefix).size()), nullptr, false);
  if (!classes.is_object()) throw InputError(name_ + ":2: the classes are not a JSON object");
  for (std::size_t h = 0; h < kSoftHeads; ++h) {
    const auto found = classes.find(kHeadNames[h]);
    if (found == classes.end() || !found->is_array()) {
      throw InputError(name_ + ":2: no list \"" + kHeadNames[h] + "\" in the classes");
    }
    for (const nlohmann::json& item : *found) {
      if (!item.is_string()) {
        throw InputError(name_ + ":2: \"" + kHeadNames[h] + "\" has an item that is not a string");
      }
      header_.classes[h].push_back(item.get<std::string>());
    }
  }
  if (header_.classes[0].empty() || header_.classes[1].empty()) {
    throw InputError(name_ + ":2: the classes have no UPOS or no XPOS tags");
  }
}

bool SoftTargetsReader::next(SoftSentence& sentence) {
  sentence.clear();
  std::string line;
  while (std::getline(in_, line)) {
    ++line_number_;
    if (line.empty()) {
      if (sentence.empty()) continue;  // blank lines between sentences
      return true;
    }
    const auto fail = [&](const std::string& what) {
      throw InputError(name_ + ":" + std::to_string(line_number_) + ": " + what);
    };
    SoftWord word;
    std::size_t start = line.find('\t');
    if (start == 0 || start == std::string::npos) fail("expected a form and 4 columns");
    word.form = line.substr(0, start);
    for (std::size_t h = 0; h < kSoftHeads; ++h) {
      if (start == std::string::npos) fail("expected 4 columns after the form");
      const std::size_t end = line.find('\t', start + 1);
      if (h + 1 == kSoftHeads && end != std::string::npos) fail("more than 4 columns after the form");
      const std::string column =
          line.substr(start + 1, (end == std::string::npos ? line.size() : end) - start - 1);
      start = end;
      if (column == "_") continue;
      const int num_classes = static_cast<int>(header_.classes[h].size());
      const char* position = column.data();
      const char* const last = column.data() + column.size();
      while (position < last) {
        SoftClass item;
        auto [after_index, index_error] = std::from_chars(position, last, item.index);
        if (index_error != std::errc() || after_index == last || *after_index != ':') {
          fail(std::string("a ") + kHeadNames[h] + " entry is not index:probability");
        }
        // std::from_chars for float is missing from older libstdc++: strtof on a copy.
        const char* number = after_index + 1;
        const char* number_end = number;
        while (number_end < last && *number_end != ' ') ++number_end;
        const std::string text(number, number_end);
        char* parsed_end = nullptr;
        item.probability = std::strtof(text.c_str(), &parsed_end);
        if (text.empty() || parsed_end != text.c_str() + text.size() ||
            !(item.probability > 0.0f && item.probability <= 1.0f)) {
          fail(std::string("a ") + kHeadNames[h] + " probability is not in (0, 1]");
        }
        if (item.index < 0 || item.index >= num_classes) {
          fail(std::string("a ") + kHeadNames[h] + " index is outside the " +
               std::to_string(num_classes) + " classes of the header");
        }
        word.heads[h].push_back(item);
        position = number_end < last ? number_end + 1 : last;
      }
      if (word.heads[h].empty()) fail(std::string("an empty ") + kHeadNames[h] + " column");
    }
    sentence.push_back(std::move(word));
  }
  if (in_.bad()) throw InputError(name_ + ": read error");
  return !sentence.empty();
}

}  // namespace sawtag
