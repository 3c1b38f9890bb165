#include <algorithm>
#include <cstdio>
#include <string>

#include "sawtag/output.hpp"

namespace sawtag {
namespace {

// MISC without our probability entries: "SpaceAfter=No|UPOSProb=0.5" -> "SpaceAfter=No".
std::string misc_without_probabilities(const std::string& misc) {
  std::string kept;
  std::size_t begin = 0;
  while (begin <= misc.size()) {
    std::size_t end = misc.find('|', begin);
    if (end == std::string::npos) end = misc.size();
    const std::string entry = misc.substr(begin, end - begin);
    const bool ours = entry.rfind("UPOSProb=", 0) == 0 || entry.rfind("XPOSProb=", 0) == 0 ||
                      entry.rfind("LemmaProb=", 0) == 0 || entry.rfind("FeatsProb=", 0) == 0;
    if (!entry.empty() && entry != "_" && !ours) {
      if (!kept.empty()) kept += '|';
      kept += entry;
    }
    begin = end + 1;
  }
  return kept;
}

void add_misc(std::string& misc, const char* key, float probability) {
  char entry[48];
  std::snprintf(entry, sizeof entry, "%s=%.3f", key, static_cast<double>(probability));
  if (!misc.empty()) misc += '|';
  misc += entry;
}

}  // namespace

void apply_tags(Sentence& sentence, const TagResult& result, const OutputOptions& options) {
  const bool upos = writes_upos(options.tags);
  const bool xpos = writes_xpos(options.tags);
  const std::size_t count = std::min(sentence.words.size(), result.words.size());
  for (std::size_t i = 0; i < count; ++i) {
    Word& word = sentence.words[i];
    const WordTags& tags = result.words[i];
    if (upos) word.upos = tags.upos;
    if (xpos) word.xpos = tags.xpos;
    if (options.lemmas && !tags.lemma.empty()) word.lemma = tags.lemma;
    if (options.feats && !tags.feats.empty()) word.feats = tags.feats;
    if (!options.probabilities) continue;
    std::string misc = misc_without_probabilities(word.misc);
    if (upos) add_misc(misc, "UPOSProb", tags.upos_probability);
    if (xpos) add_misc(misc, "XPOSProb", tags.xpos_probability);
    if (options.lemmas && !tags.lemma.empty()) add_misc(misc, "LemmaProb", tags.lemma_probability);
    if (options.feats && !tags.feats.empty()) add_misc(misc, "FeatsProb", tags.feats_probability);
    word.misc = misc.empty() ? "_" : misc;
  }
}

}  // namespace sawtag
