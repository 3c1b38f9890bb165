#include "sawtag/column_match.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace sawtag {

namespace {

// conll18_ud_eval.py's UNIVERSAL_FEATURES.
constexpr std::array<const char*, 21> kUniversalFeatures = {
    "PronType", "NumType", "Poss",  "Reflex",   "Foreign",  "Abbr",     "Gender",
    "Animacy",  "Number",  "Case",  "Definite", "Degree",   "VerbForm", "Mood",
    "Tense",    "Aspect",  "Voice", "Evident",  "Polarity", "Person",   "Polite"};

bool is_universal(const std::string& feature) {
  const std::string name = feature.substr(0, feature.find('='));
  return std::any_of(kUniversalFeatures.begin(), kUniversalFeatures.end(),
                     [&](const char* universal) { return name == universal; });
}

// "B=2|A=1" -> {"A=1", "B=2"}; "_" and "" -> {}.
std::vector<std::string> sorted_features(const std::string& feats) {
  std::vector<std::string> features;
  if (feats.empty() || feats == "_") return features;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = feats.find('|', begin);
    features.push_back(feats.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  std::sort(features.begin(), features.end());
  return features;
}

}  // namespace

std::string universal_features(const std::string& feats) {
  std::string result;
  for (const std::string& feature : sorted_features(feats)) {
    if (!is_universal(feature)) continue;
    if (!result.empty()) result += '|';
    result += feature;
  }
  return result;
}

bool universal_features_match(const std::string& gold_feats, const std::string& predicted_feats) {
  return universal_features(gold_feats) == universal_features(predicted_feats);
}

bool all_features_match(const std::string& gold_feats, const std::string& predicted_feats) {
  return sorted_features(gold_feats) == sorted_features(predicted_feats);
}

bool all_tags_match(const Word& gold, const Word& predicted) {
  return gold.upos == predicted.upos && gold.xpos == predicted.xpos &&
         universal_features_match(gold.feats, predicted.feats);
}

bool lemma_matches(const std::string& gold_lemma, const std::string& predicted_lemma) {
  return gold_lemma == "_" || gold_lemma == predicted_lemma;
}

}  // namespace sawtag
