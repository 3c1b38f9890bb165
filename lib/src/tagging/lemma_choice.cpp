// Choosing a word's lemma from the lemma head's logits (tagging/lemma_choice.hpp).
#include "tagging/lemma_choice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>

namespace sawtag {

namespace {

// `text` lower-cased (lower_case), in `buffer` where that changes it, else `text` itself: most
// words need no copy.
std::string_view lowered(std::string_view text, std::string& buffer) {
  const bool unchanged = std::none_of(text.begin(), text.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || static_cast<unsigned char>(c) >= 0x80;
  });
  if (unchanged) return text;
  buffer = lower_case(text);
  return buffer;
}

// A lemma that is not a word of the model's vocabulary loses to one that is and is at least
// this likely. Chosen on EWT dev (f1 model: 0.5 -> 96.68 % lemmas, 0.1 -> 96.77, 0.01 -> 96.86,
// 0.003 -> 96.82; without the vocabulary, 96.59).
constexpr float kKnownWordOdds = 0.01f;

// A lemma written otherwise than its word's usual spelling (Model::lemma_casing) counts as this
// many times less likely. Chosen on EWT dev with Wikipedia's spellings (shipped model before
// the casing: 97.38 % lemmas; 0.01 -> 97.44, 0.03 -> 97.45, 0.1 -> 97.42, 0.3 -> 97.42).
constexpr float kUnusualCasingOdds = 0.03f;

// A word of the vocabulary whose chosen lemma is not one ("expresses" -> "expresse") gets the
// most likely lemma of the 8 first rules (TopRules) that is, if its rule is at least this many
// times as likely as the most likely rule ("express"). Chosen on EWT dev (shipped model with
// the lemma tables: 97.48 % lemmas without; 0.003 -> 97.49, 0.001 -> 97.51, 1e-4 .. 1e-30 ->
// 97.52: 11 lemmas right, 1 wrong).
constexpr float kKnownFormOdds = 1e-4f;

// A lemma that Model::lemma_dictionary does not know for its UPOS loses to the most likely lemma
// of the 8 first rules (TopRules) that it knows (an absolute rule aside), if that rule is at least
// this many times as likely as the most likely rule: kDictionaryOdds where the lemma is the form
// itself (a word unknown to the dictionary is often its own lemma: "transmittal"), else
// kDictionaryEditOdds (the head edited the form into no word: "fled" -> "fl"). Chosen on EWT dev
// with WordNet 3.0 (shipped model, 24,539 lemmas right without the dictionary; one odds for
// both: 0.1 -> 24,550, 0.03 -> 24,552, 0.01 -> 24,551, 0.001 -> 24,547, 1e-4 -> 24,503; with
// 0.01 for the form itself, 1e-4 or 1e-6 for an edit -> 24,554; absolute rules allowed, 1e-4 for
// both -> 24,484: "tutoring" -> "go").
constexpr float kDictionaryOdds = 1e-2f;
constexpr float kDictionaryEditOdds = 1e-4f;

}  // namespace

LemmaChooser::TopRules LemmaChooser::top_rules(const float* logits, int rules) {
  constexpr int kSize = TopRules::kSize;
  TopRules top;
  float value[kSize];  // logits[top.index[i]], kept beside the indices: no load waits on another
  // value[kSize - 1] once full; before, below every logit (they are finite, ModelError else).
  float floor = -std::numeric_limits<float>::infinity();
  for (int c = 0; c < rules; ++c) {
    const float logit = logits[c];
    if (logit <= floor) continue;
    int at = top.count < kSize ? top.count++ : kSize - 1;
    for (; at > 0 && value[at - 1] < logit; --at) {
      top.index[at] = top.index[at - 1];
      value[at] = value[at - 1];
    }
    top.index[at] = c;
    value[at] = logit;
    if (top.count == kSize) floor = value[kSize - 1];
  }
  return top;
}

template <class Known>
std::optional<std::string> LemmaChooser::likeliest_known(const float* logits, const TopRules& top,
                                                         float temperature, const std::string& form,
                                                         float odds, bool absolute_too,
                                                         const Known& known, int& rule) const {
  const float lowest = logits[top.index[0]] + temperature * std::log(odds);
  std::string buffer;
  for (int k = 0; k < top.count && logits[top.index[k]] >= lowest; ++k) {
    const LemmaRule& tried = rules_[static_cast<std::size_t>(top.index[k])];
    if (!absolute_too && tried.casing == LemmaRule::Casing::absolute) continue;
    std::optional<std::string> candidate = apply_lemma_rule(tried, form);
    if (candidate && known(lowered(*candidate, buffer))) {
      rule = top.index[k];
      return candidate;
    }
  }
  return std::nullopt;
}

LemmaChooser::LemmaChooser(const Model& model)
    : words_(model.words),
      deletions_(model.lemma_deletions),
      spellings_(model.lemma_casing),
      dictionary_(model.lemma_dictionary) {
  for (const std::string& text : model.lemma_rules.items()) {
    const LemmaRule rule = parse_lemma_rule(text);
    adds_lower_case_.push_back(
        rule.casing == LemmaRule::Casing::keep &&
        (has_lower_case_letter(rule.prefix_add) || has_lower_case_letter(rule.suffix_add)));
    rules_.push_back(rule);
  }
  std::unordered_map<std::string, std::size_t> form_index;
  std::vector<std::string> forms;
  for (const LemmaLexiconEntry& entry : model.lemma_lexicon) {
    const auto [found, added] = form_index.emplace(entry.form, forms.size());
    if (added) {
      forms.push_back(entry.form);
      lexicon_entries_.emplace_back();
    }
    lexicon_entries_[found->second].push_back(&entry);
  }
  lexicon_forms_ = Vocabulary(std::move(forms), "lemma lexicon forms");
}

std::string LemmaChooser::choose(const float* logits, float temperature, const std::string& form,
                                 const std::string& upos, const std::string& xpos,
                                 int& rule) const {
  const TopRules top = top_rules(logits, static_cast<int>(rules_.size()));
  std::string lemma = from_rules(logits, top, temperature, form, rule);
  const DictionaryClass* dictionary = dictionary_class(upos);
  std::string buffer;
  const std::string_view lower_form = dictionary != nullptr ? lowered(form, buffer) : form;
  const std::optional<std::string_view> irregular =
      dictionary != nullptr ? dictionary->lemma_of(lower_form) : std::nullopt;
  if (rule >= 0 && !irregular) {
    std::optional<std::string> known;
    if (dictionary != nullptr) {
      known = known_lemma(logits, top, temperature, form, lower_form, lemma, *dictionary, rule);
    }
    lemma = known
                ? std::move(*known)
                : known_word_if_known_form(logits, top, temperature, form, std::move(lemma), rule);
  }
  // Lower-case text added to a form written in capitals: "HAS" -> "have", not "HAve".
  if (rule >= 0 && adds_lower_case_[static_cast<std::size_t>(rule)] &&
      !has_lower_case_letter(form)) {
    lemma = lower_case(lemma);
  }
  if (irregular) lemma = *irregular;
  for (const LemmaDeletion& deletion : deletions_) {
    if (deletion.upos != upos || lemma.find(deletion.character) == std::string::npos) continue;
    std::string shorter = without(lemma, deletion.character);
    if (!shorter.empty()) lemma = std::move(shorter);
  }
  if (const int found = lexicon_forms_.find(form); found >= 0) {
    // The last entry of the (form, UPOS, XPOS) counts, should a file list one twice.
    for (const LemmaLexiconEntry* entry : lexicon_entries_[static_cast<std::size_t>(found)]) {
      if (entry->upos == upos && entry->xpos == xpos) lemma = entry->lemma;
    }
  }
  return lemma;
}

bool LemmaChooser::DictionaryClass::knows(std::string_view lemma) const {
  return std::binary_search(lemmas.begin(), lemmas.end(), lemma);
}

std::optional<std::string_view> LemmaChooser::DictionaryClass::lemma_of(
    std::string_view form) const {
  const auto found =
      std::lower_bound(forms.begin(), forms.end(), form,
                       [](const auto& entry, std::string_view key) { return entry.first < key; });
  if (found == forms.end() || found->first != form) return std::nullopt;
  return found->second;
}

const LemmaChooser::DictionaryClass* LemmaChooser::dictionary_class(const std::string& upos) const {
  if (dictionary_.empty()) return nullptr;
  // Sorted views of the model's strings: no copy, and about a millisecond for WordNet's.
  std::call_once(dictionary_made_, [&] {
    const auto class_of = [&](const std::string& name) -> DictionaryClass& {
      for (DictionaryClass& known : dictionary_classes_) {
        if (known.upos == name) return known;
      }
      return dictionary_classes_.emplace_back(DictionaryClass{name, {}, {}});
    };
    for (const auto& [name, list] : dictionary_.lemmas) {
      std::vector<std::string_view>& lemmas = class_of(name).lemmas;
      const std::string_view text = list;
      for (std::size_t begin = 0; begin < text.size();) {
        const std::size_t end = std::min(text.find(' ', begin), text.size());
        lemmas.push_back(text.substr(begin, end - begin));
        begin = end + 1;
      }
      // `sawtag lemma-tables` writes them sorted; a file written otherwise still works.
      if (!std::is_sorted(lemmas.begin(), lemmas.end())) std::sort(lemmas.begin(), lemmas.end());
    }
    for (const LemmaDictionaryEntry& entry : dictionary_.forms) {
      class_of(entry.upos).forms.emplace_back(entry.form, entry.lemma);
    }
    // The first entry of a (form, UPOS) counts, should a file list one twice.
    for (DictionaryClass& known : dictionary_classes_) {
      std::stable_sort(known.forms.begin(), known.forms.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
    }
  });
  for (const DictionaryClass& known : dictionary_classes_) {
    if (known.upos == upos) return &known;
  }
  return nullptr;
}

std::optional<std::string> LemmaChooser::known_lemma(const float* logits, const TopRules& top,
                                                     float temperature, const std::string& form,
                                                     std::string_view lower_form,
                                                     const std::string& lemma,
                                                     const DictionaryClass& known,
                                                     int& rule) const {
  std::string buffer;
  const std::string_view lower_lemma = lowered(lemma, buffer);
  if (known.knows(lower_lemma)) return lemma;
  const float odds = lower_lemma == lower_form ? kDictionaryOdds : kDictionaryEditOdds;
  return likeliest_known(
      logits, top, temperature, form, odds, false,
      [&known](std::string_view lower) { return known.knows(lower); }, rule);
}

bool LemmaChooser::is_unusual_casing(const std::string& lemma) const {
  if (spellings_.empty()) return false;
  const std::string_view spellings = spellings_;
  // The spelling that starts at `begin`.
  const auto spelling_at = [spellings](std::size_t begin) {
    return spellings.substr(begin, std::min(spellings.find(' ', begin), spellings.size()) - begin);
  };
  std::call_once(usual_made_, [&] {
    usual_.assign(static_cast<std::size_t>(words_.size()), 0);
    for (std::size_t begin = 0; begin < spellings.size();) {
      const std::string_view spelling = spelling_at(begin);
      // Only a word of the vocabulary has one (sawtag casing counts no other); its first counts.
      const int word = words_.find(lower_case(spelling));
      if (word >= 0 && usual_[static_cast<std::size_t>(word)] == 0) {
        usual_[static_cast<std::size_t>(word)] = begin + 1;
      }
      begin += spelling.size() + 1;
    }
  });
  std::string buffer;
  const int word = words_.find(lowered(lemma, buffer));
  if (word < 0) return false;
  const std::size_t usual = usual_[static_cast<std::size_t>(word)];
  return usual != 0 && spelling_at(usual - 1) != lemma;
}

// Rules are tried from the most likely; each that applies (a rule cannot strip more than the
// form has) gives a candidate, scored by its logit, less log(kUnusualCasingOdds) when its lemma
// is written otherwise than usual. The best candidate is the lemma, unless it is not a word of
// the model's vocabulary and a candidate at least kKnownWordOdds as likely is. When none of the
// first few rules applies, the form, lower-cased if the most likely rule lower-cases.
std::string LemmaChooser::from_rules(const float* logits, const TopRules& top, float temperature,
                                     const std::string& form, int& rule) const {
  // The odds in units of logits: probabilities are softmax(logits / temperature).
  const float known_word_step = temperature * std::log(kKnownWordOdds);
  const float casing_step = temperature * std::log(kUnusualCasingOdds);
  struct Candidate {
    float score = 0.0f;
    int rule = -1;
    std::string lemma;
  };
  Candidate candidates[TopRules::kSize];
  int count = 0;
  // The rules that apply, in the order of their logits, down to the lowest a penalty for the
  // casing and the known-word odds could still bring within reach of the best.
  const float reach = known_word_step + (spellings_.empty() ? 0.0f : casing_step);
  for (int k = 0; k < top.count; ++k) {
    const int index = top.index[k];
    if (count > 0 && logits[index] < candidates[0].score + reach) break;
    std::optional<std::string> lemma =
        apply_lemma_rule(rules_[static_cast<std::size_t>(index)], form);
    if (lemma) candidates[count++] = {logits[index], index, std::move(*lemma)};
  }
  // Most words: one lemma whatever the scores, and nothing to look up.
  bool one_lemma = true;
  for (int i = 1; i < count && one_lemma; ++i) {
    one_lemma = candidates[i].lemma == candidates[0].lemma;
  }
  if (count > 0 && one_lemma) {
    rule = candidates[0].rule;
    return std::move(candidates[0].lemma);
  }
  if (!spellings_.empty()) {
    for (int i = 0; i < count; ++i) {
      if (is_unusual_casing(candidates[i].lemma)) candidates[i].score += casing_step;
    }
    // By score, highest first (ties: the more likely rule); at most TopRules::kSize of them.
    for (int i = 1; i < count; ++i) {
      for (int at = i; at > 0 && candidates[at - 1].score < candidates[at].score; --at) {
        std::swap(candidates[at - 1], candidates[at]);
      }
    }
  }
  if (count == 0) {
    rule = -1;
    const bool lower = top.count > 0 && rules_[static_cast<std::size_t>(top.index[0])].casing ==
                                            LemmaRule::Casing::lower;
    return lower ? lower_case(form) : form;
  }
  int chosen = 0;
  const auto within_reach = [&](int i) {
    return i < count && candidates[i].score >= candidates[0].score + known_word_step;
  };
  // Only when another candidate is within reach is the vocabulary asked.
  if (within_reach(1)) {
    for (int i = 0; within_reach(i); ++i) {
      std::string buffer;
      if (words_.find(lowered(candidates[i].lemma, buffer)) >= 0) {
        chosen = i;
        break;
      }
    }
  }
  rule = candidates[chosen].rule;
  return std::move(candidates[chosen].lemma);
}

std::string LemmaChooser::known_word_if_known_form(const float* logits, const TopRules& top,
                                                   float temperature, const std::string& form,
                                                   std::string lemma, int& rule) const {
  // A lemma that differs from the form in casing only is a word exactly when the form is.
  if (lemma == form) return lemma;
  std::string lemma_buffer, form_buffer;
  const std::string_view lower_lemma = lowered(lemma, lemma_buffer);
  const std::string_view lower_form = lowered(form, form_buffer);
  if (lower_lemma == lower_form || words_.find(lower_lemma) >= 0 || words_.find(lower_form) < 0) {
    return lemma;
  }
  std::optional<std::string> known = likeliest_known(
      logits, top, temperature, form, kKnownFormOdds, true,
      [this](std::string_view lower) { return words_.find(lower) >= 0; }, rule);
  return known ? std::move(*known) : lemma;
}

}  // namespace sawtag
