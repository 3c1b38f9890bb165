#include "train/morphology_targets.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "sawtag/lemma_rule.hpp"
#include "text/utf8.hpp"
#include "train/vocabulary_builder.hpp"

namespace sawtag::train {

namespace {

std::string lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string canonical_feats(const std::string& feats) {
  if (feats == "_" || feats.empty()) return "_";
  std::vector<std::string> features;
  std::size_t start = 0;
  while (start <= feats.size()) {
    const std::size_t bar = feats.find('|', start);
    const std::size_t end = bar == std::string::npos ? feats.size() : bar;
    if (end > start) features.push_back(feats.substr(start, end - start));
    start = end + 1;
  }
  std::stable_sort(features.begin(), features.end(),
                   [](const std::string& a, const std::string& b) {
                     const std::string_view name_a(a.data(), std::min(a.find('='), a.size()));
                     const std::string_view name_b(b.data(), std::min(b.find('='), b.size()));
                     return lower_ascii(name_a) < lower_ascii(name_b);
                   });
  std::string out;
  for (const std::string& feature : features) {
    if (!out.empty()) out += '|';
    out += feature;
  }
  return out.empty() ? "_" : out;
}

bool has_feats_column(const std::vector<Sentence>& treebank) {
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) {
      if (word.feats != "_") return true;
    }
  }
  return false;
}

bool has_lemma_column(const std::vector<Sentence>& treebank) {
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) {
      if (word.lemma != "_") return true;
    }
  }
  return false;
}

Vocabulary feats_classes(const std::vector<Sentence>& treebank, int min_count) {
  std::unordered_map<std::string, int> counts;
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) ++counts[canonical_feats(word.feats)];
  }
  return build_vocabulary(counts, std::max(1, min_count), {}, "feats");
}

Vocabulary lemma_rule_classes(const std::vector<Sentence>& treebank, int min_count) {
  std::unordered_map<std::string, int> counts;
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) {
      if (word.lemma == "_" || word.form.empty()) continue;
      ++counts[to_string(lemma_rule(word.form, word.lemma))];
    }
  }
  return build_vocabulary(counts, std::max(1, min_count), {}, "lemma rules");
}

std::vector<LemmaLexiconEntry> lemma_lexicon(const std::vector<Sentence>& treebank) {
  // form, UPOS, XPOS -> lemma -> count; std::map so that the order (and the file) is fixed.
  std::map<std::tuple<std::string, std::string, std::string>, std::map<std::string, int>> counts;
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) {
      if (word.lemma == "_" || word.form.empty()) continue;
      ++counts[{word.form, word.upos, word.xpos}][word.lemma];
    }
  }
  std::vector<LemmaLexiconEntry> entries;
  for (const auto& [key, lemmas] : counts) {
    const auto& [form, upos, xpos] = key;
    const auto best =
        std::max_element(lemmas.begin(), lemmas.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    if (best->first == form || best->first == lower_case(form)) continue;
    entries.push_back({form, upos, xpos, best->first});
  }
  return entries;
}

std::vector<LemmaDeletion> lemma_deletions(const std::vector<Sentence>& treebank) {
  struct Counts {
    int holding = 0;  // words of the UPOS holding the character and something else
    int deleted = 0;  // of which the lemma is the form without the character
  };
  std::map<std::pair<std::string, std::string>, Counts> counts;  // (UPOS, character)
  for (const Sentence& sentence : treebank) {
    for (const Word& word : sentence.words) {
      if (word.lemma == "_" || word.form.empty()) continue;
      std::set<std::string> characters;
      for (const text::CodePoint& code_point : text::decode_utf8(word.form)) {
        characters.insert(word.form.substr(code_point.begin, code_point.end - code_point.begin));
      }
      for (const std::string& character : characters) {
        if (character == word.form) continue;
        Counts& entry = counts[{word.upos, character}];
        ++entry.holding;
        entry.deleted += word.lemma == without(word.form, character);
      }
    }
  }
  std::vector<LemmaDeletion> deletions;
  for (const auto& [key, entry] : counts) {
    if (entry.deleted >= kMinLemmaDeletions &&
        entry.deleted >= kLemmaDeletionShare * static_cast<double>(entry.holding)) {
      deletions.push_back({key.first, key.second});
    }
  }
  return deletions;
}

std::vector<int> feats_targets(const Model& model, const Sentence& sentence) {
  std::vector<int> targets;
  if (!model.has_feats()) return targets;
  for (const Word& word : sentence.words) {
    targets.push_back(model.feats.find(canonical_feats(word.feats)));
  }
  return targets;
}

std::vector<int> lemma_targets(const Model& model, const Sentence& sentence) {
  std::vector<int> targets;
  if (!model.has_lemmas()) return targets;
  for (const Word& word : sentence.words) {
    targets.push_back(word.lemma == "_" || word.form.empty()
                          ? -1
                          : model.lemma_rules.find(to_string(lemma_rule(word.form, word.lemma))));
  }
  return targets;
}

}  // namespace sawtag::train
