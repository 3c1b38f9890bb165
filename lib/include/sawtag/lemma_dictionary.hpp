// A dictionary of a language's words and their lemmas, from outside the training treebank, for
// the lemma choice (Model::lemma_dictionary; docs/lemmas-and-features.md, "A dictionary"). The
// lemma head guesses an unseen word's ending from its spelling and may strip too much ("fled"
// -> "fl"); a dictionary knows which lemmas are words of a class ("flee" is a verb) and the
// irregular forms no rule reaches ("sang" -> "sing"). Nothing here is specific to a language.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"

namespace sawtag {

// A dictionary as its file gives it: lines "form<TAB>UPOS<TAB>lemma", a lemma entered as itself
// ("sing<TAB>VERB<TAB>sing") or an inflected form with its lemma ("sang<TAB>VERB<TAB>sing").
struct LemmaDictionarySource {
  std::vector<LemmaDictionaryEntry> entries;
  // The comment lines ("# WordNet 3.0 ..."), without their "#", joined by spaces: the
  // dictionary's source and licence, which the model keeps with what came from it.
  std::string notice;

  // Adds one line of a dictionary file: an entry, a comment ("#" first) or a blank line. Throws
  // InputError, naming `where` ("words.tsv:12"), for a line of another number of fields, an
  // empty field, a space in a form or lemma, or a control character.
  void add_line(std::string_view line, const std::string& where);
};

// Model::lemma_dictionary from a dictionary and the model's training treebank, for the UPOS the
// dictionary has entries of:
// - per UPOS, the known lemmas (lower-cased): the dictionary's that are words of model.words,
//   and the treebank's lemmas of words of that UPOS (so the treebank's own lemmas stay known:
//   EWT's "regards");
// - the irregular forms: entries whose form and lemma differ other than in casing, that no
//   word of the treebank has with that UPOS (the lemma head learned those forms), each form
//   (lower-cased) and UPOS once, the first entry counting.
// Throws InputError for a UPOS that the model does not tag, and when the treebank has no lemmas.
LemmaDictionary make_lemma_dictionary(const LemmaDictionarySource& source,
                                      const std::vector<Sentence>& treebank, const Model& model);

// What a model's dictionary holds, for `sawtag info` and the training record: "45071 known
// lemmas (ADJ 10847, ADV 1839, NOUN 27203, VERB 5182) and 5285 irregular forms".
std::string describe(const LemmaDictionary& dictionary);

}  // namespace sawtag
