// Choosing a word's lemma from the lemma head's logits (tagging/lemma_choice.hpp).
#include "tagging/lemma_choice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "tagging/tagger_internals.hpp"

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

// The items of a list separated by single spaces (Model::lemma_casing, LemmaDictionary::lemmas).
std::vector<std::string_view> spaced_items(std::string_view list) {
  std::vector<std::string_view> items;
  for (std::size_t begin = 0; begin < list.size();) {
    const std::size_t end = std::min(list.find(' ', begin), list.size());
    items.push_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  return items;
}

}  // namespace

LemmaChooser::RuleScores::RuleScores(const float* logits, int rules, float temperature)
    : logits(logits), rules(rules), temperature(temperature) {
  if (rules > 0) best = most_likely_class(logits, rules);
}

const LemmaChooser::TopRules& LemmaChooser::RuleScores::top() const {
  if (has_top_) return top_;
  has_top_ = true;
  constexpr int kSize = TopRules::kSize;
  TopRules& top = top_;
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
bool LemmaChooser::likeliest_known(const RuleScores& scores, const std::string& form, float odds,
                                   bool absolute_too, const Known& known, Choice& choice) const {
  const TopRules& top = scores.top();
  const float lowest = scores.logits[scores.best] + scores.temperature * std::log(odds);
  std::string buffer;
  for (int k = 0; k < top.count && scores.logits[top.index[k]] >= lowest; ++k) {
    const LemmaRule& tried = rules_[static_cast<std::size_t>(top.index[k])];
    if (!absolute_too && tried.casing == LemmaRule::Casing::absolute) continue;
    std::optional<std::string> candidate = apply_lemma_rule(tried, form);
    if (candidate && known(lowered(*candidate, buffer))) {
      choice = Choice{std::move(*candidate), top.index[k]};
      return true;
    }
  }
  return false;
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
  std::string lemma = from_head(logits, temperature, form, upos, rule);
  if (const std::string* listed = lexicon_lemma(form, upos, xpos)) lemma = *listed;
  return lemma;
}

std::string LemmaChooser::choose(const float* logits, float temperature, const std::string& form,
                                 const std::string& upos, const std::string& xpos) const {
  if (const std::string* listed = lexicon_lemma(form, upos, xpos)) return *listed;
  int rule = -1;
  return from_head(logits, temperature, form, upos, rule);
}

const std::string* LemmaChooser::lexicon_lemma(const std::string& form, const std::string& upos,
                                               const std::string& xpos) const {
  const int found = lexicon_forms_.find(form);
  if (found < 0) return nullptr;
  // The last entry of the (form, UPOS, XPOS) counts, should a file list one twice.
  const std::string* lemma = nullptr;
  for (const LemmaLexiconEntry* entry : lexicon_entries_[static_cast<std::size_t>(found)]) {
    if (entry->upos == upos && entry->xpos == xpos) lemma = &entry->lemma;
  }
  return lemma;
}

std::string LemmaChooser::from_head(const float* logits, float temperature, const std::string& form,
                                    const std::string& upos, int& rule) const {
  const DictionaryClass* dictionary = dictionary_class(upos);
  std::string buffer;
  const std::string_view lower_form = dictionary != nullptr ? lowered(form, buffer) : form;
  // Fetched while the rules are tried.
  if (dictionary != nullptr) dictionary->irregular_forms.prefetch(lower_form);
  const RuleScores scores(logits, static_cast<int>(rules_.size()), temperature);
  Choice choice = from_rules(scores, form);
  const std::optional<std::string_view> irregular =
      dictionary != nullptr ? dictionary->lemma_of(lower_form) : std::nullopt;
  if (choice.rule >= 0 && !irregular) {
    const bool known =
        dictionary != nullptr && known_lemma(scores, form, lower_form, *dictionary, choice);
    if (!known) known_word_if_known_form(scores, form, choice);
  }
  rule = choice.rule;
  std::string lemma = std::move(choice.lemma);
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
  return lemma;
}

void LemmaChooser::prefetch(const std::string& form) const {
  lexicon_forms_.prefetch(form);
  std::string buffer;
  words_.prefetch(lowered(form, buffer));
}

int LemmaChooser::word_of(Choice& choice) const {
  if (choice.word == Choice::kNotLookedUp) {
    std::string buffer;
    choice.word = words_.find(lowered(choice.lemma, buffer));
  }
  return choice.word;
}

bool LemmaChooser::DictionaryClass::knows(int word, std::string_view lemma) const {
  return word >= 0 ? words[static_cast<std::size_t>(word)]
                   : std::binary_search(other_lemmas.begin(), other_lemmas.end(), lemma);
}

std::optional<std::string_view> LemmaChooser::DictionaryClass::lemma_of(
    std::string_view form) const {
  const int found = irregular_forms.find(form);
  if (found < 0) return std::nullopt;
  return irregular_lemmas[static_cast<std::size_t>(found)];
}

const LemmaChooser::DictionaryClass* LemmaChooser::dictionary_class(const std::string& upos) const {
  if (dictionary_.empty()) return nullptr;
  // Views of the model's strings (the irregular forms aside): a few milliseconds for WordNet's.
  std::call_once(dictionary_made_, [&] {
    const auto class_of = [&](const std::string& name) -> DictionaryClass& {
      for (DictionaryClass& known : dictionary_classes_) {
        if (known.upos == name) return known;
      }
      DictionaryClass& added = dictionary_classes_.emplace_back();
      added.upos = name;
      added.words.assign(static_cast<std::size_t>(words_.size()), false);
      return added;
    };
    for (const auto& [name, list] : dictionary_.lemmas) {
      DictionaryClass& known = class_of(name);
      const std::vector<std::string_view> lemmas = spaced_items(list);
      const std::vector<int> words = words_.find_each(lemmas);
      for (std::size_t i = 0; i < lemmas.size(); ++i) {
        if (words[i] >= 0) {
          known.words[static_cast<std::size_t>(words[i])] = true;
        } else {
          known.other_lemmas.push_back(lemmas[i]);
        }
      }
      // `sawtag lemma-tables` writes them sorted; a file written otherwise still works.
      std::vector<std::string_view>& others = known.other_lemmas;
      if (!std::is_sorted(others.begin(), others.end())) std::sort(others.begin(), others.end());
    }
    std::map<std::string, std::vector<const LemmaDictionaryEntry*>> irregular;  // by UPOS
    for (const LemmaDictionaryEntry& entry : dictionary_.forms) {
      irregular[entry.upos].push_back(&entry);
    }
    for (const auto& [name, entries] : irregular) {
      DictionaryClass& known = class_of(name);
      std::vector<std::string> forms;
      std::unordered_set<std::string_view> seen;
      for (const LemmaDictionaryEntry* entry : entries) {
        // The first entry of a (form, UPOS) counts, should a file list one twice.
        if (!seen.insert(entry->form).second) continue;
        forms.push_back(entry->form);
        known.irregular_lemmas.push_back(entry->lemma);
      }
      known.irregular_forms = Vocabulary(std::move(forms), "irregular forms of " + name);
    }
  });
  for (const DictionaryClass& known : dictionary_classes_) {
    if (known.upos == upos) return &known;
  }
  return nullptr;
}

bool LemmaChooser::known_lemma(const RuleScores& scores, const std::string& form,
                               std::string_view lower_form, const DictionaryClass& known,
                               Choice& choice) const {
  std::string buffer;
  const std::string_view lower_lemma = lowered(choice.lemma, buffer);
  if (known.knows(word_of(choice), lower_lemma)) return true;
  const float odds = lower_lemma == lower_form ? kDictionaryOdds : kDictionaryEditOdds;
  return likeliest_known(
      scores, form, odds, false,
      [&](std::string_view lower) { return known.knows(words_.find(lower), lower); }, choice);
}

bool LemmaChooser::is_unusual_casing(int word, const std::string& lemma) const {
  if (spellings_.empty() || word < 0) return false;
  const std::string_view spellings = spellings_;
  // The spelling that starts at `begin`.
  const auto spelling_at = [spellings](std::size_t begin) {
    return spellings.substr(begin, std::min(spellings.find(' ', begin), spellings.size()) - begin);
  };
  std::call_once(usual_made_, [&] {
    const std::vector<std::string_view> usual = spaced_items(spellings);
    std::vector<std::string> lower(usual.size());
    std::transform(usual.begin(), usual.end(), lower.begin(), lower_case);
    const std::vector<int> words = words_.find_each({lower.begin(), lower.end()});
    usual_.assign(static_cast<std::size_t>(words_.size()), 0);
    for (std::size_t i = 0; i < usual.size(); ++i) {
      // Only a word of the vocabulary has one (sawtag casing counts no other); its first counts.
      if (words[i] >= 0 && usual_[static_cast<std::size_t>(words[i])] == 0) {
        usual_[static_cast<std::size_t>(words[i])] =
            static_cast<std::size_t>(usual[i].data() - spellings.data()) + 1;
      }
    }
  });
  const std::size_t usual = usual_[static_cast<std::size_t>(word)];
  return usual != 0 && spelling_at(usual - 1) != lemma;
}

// Rules are tried from the most likely; each that applies (a rule cannot strip more than the
// form has) gives a candidate, scored by its logit, less log(kUnusualCasingOdds) when its lemma
// is written otherwise than usual. The best candidate is the lemma, unless it is not a word of
// the model's vocabulary and a candidate at least kKnownWordOdds as likely is. When none of the
// first few rules applies, the form, lower-cased if the most likely rule lower-cases.
LemmaChooser::Choice LemmaChooser::from_rules(const RuleScores& scores,
                                              const std::string& form) const {
  // The most likely rule's lemma (rule -1 when it does not apply). Most words: it applies and
  // makes a word written as usual, which no other candidate can beat (they could only lose
  // score to it), so no other rule is looked at.
  Choice likeliest;
  if (scores.best >= 0) {
    if (std::optional<std::string> lemma =
            apply_lemma_rule(rules_[static_cast<std::size_t>(scores.best)], form)) {
      likeliest = Choice{std::move(*lemma), scores.best};
    }
  }
  if (likeliest.rule >= 0 && word_of(likeliest) >= 0 &&
      !is_unusual_casing(likeliest.word, likeliest.lemma)) {
    return likeliest;
  }
  // The odds in units of logits: probabilities are softmax(logits / temperature).
  const float known_word_step = scores.temperature * std::log(kKnownWordOdds);
  const float casing_step = scores.temperature * std::log(kUnusualCasingOdds);
  struct Candidate {
    float score = 0.0f;
    Choice choice;
  };
  Candidate candidates[TopRules::kSize];
  int count = 0;
  // The rules that apply, in the order of their logits, down to the lowest a penalty for the
  // casing and the known-word odds could still bring within reach of the best.
  const float reach = known_word_step + (spellings_.empty() ? 0.0f : casing_step);
  const TopRules& top = scores.top();
  for (int k = 0; k < top.count; ++k) {
    const int index = top.index[k];
    const float logit = scores.logits[index];
    if (count > 0 && logit < candidates[0].score + reach) break;
    if (index == scores.best) {  // tried above, its word looked up
      if (likeliest.rule >= 0) candidates[count++] = {logit, std::move(likeliest)};
      continue;
    }
    std::optional<std::string> lemma =
        apply_lemma_rule(rules_[static_cast<std::size_t>(index)], form);
    if (lemma) candidates[count++] = {logit, Choice{std::move(*lemma), index}};
  }
  if (count == 0) {
    const bool lower = top.count > 0 && rules_[static_cast<std::size_t>(top.index[0])].casing ==
                                            LemmaRule::Casing::lower;
    return Choice{lower ? lower_case(form) : form, -1};
  }
  // One lemma whatever the scores; or, as above, a word written as usual first.
  bool one_lemma = true;
  for (int i = 1; i < count && one_lemma; ++i) {
    one_lemma = candidates[i].choice.lemma == candidates[0].choice.lemma;
  }
  if (one_lemma || (word_of(candidates[0].choice) >= 0 &&
                    !is_unusual_casing(candidates[0].choice.word, candidates[0].choice.lemma))) {
    return std::move(candidates[0].choice);
  }
  if (!spellings_.empty()) {
    for (int i = 0; i < count; ++i) {
      Choice& candidate = candidates[i].choice;
      if (is_unusual_casing(word_of(candidate), candidate.lemma)) {
        candidates[i].score += casing_step;
      }
    }
    // By score, highest first (ties: the more likely rule); at most TopRules::kSize of them.
    for (int i = 1; i < count; ++i) {
      for (int at = i; at > 0 && candidates[at - 1].score < candidates[at].score; --at) {
        std::swap(candidates[at - 1], candidates[at]);
      }
    }
  }
  // The first word of the vocabulary among the candidates within reach of the best, else the best.
  for (int i = 0; i < count && candidates[i].score >= candidates[0].score + known_word_step; ++i) {
    if (word_of(candidates[i].choice) >= 0) return std::move(candidates[i].choice);
  }
  return std::move(candidates[0].choice);
}

void LemmaChooser::known_word_if_known_form(const RuleScores& scores, const std::string& form,
                                            Choice& choice) const {
  // A lemma that differs from the form in casing only is a word exactly when the form is.
  if (choice.lemma == form) return;
  std::string lemma_buffer, form_buffer;
  const std::string_view lower_lemma = lowered(choice.lemma, lemma_buffer);
  const std::string_view lower_form = lowered(form, form_buffer);
  if (lower_lemma == lower_form || word_of(choice) >= 0 || words_.find(lower_form) < 0) return;
  likeliest_known(
      scores, form, kKnownFormOdds, true,
      [this](std::string_view lower) { return words_.find(lower) >= 0; }, choice);
}

}  // namespace sawtag
