// Hand-written gold and predicted CoNLL-U with hand-computed UFeats, AllTags and Lemmas, shared
// by test_evaluation_morphology.cpp and test_eval_report.cpp.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "sawtag/conllu.hpp"
#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag::testing {

inline std::vector<Sentence> parse_conllu(const std::string& text) {
  std::istringstream in(text);
  ConlluReader reader(in, "test");
  std::vector<Sentence> sentences;
  for (Sentence sentence; reader.next(sentence);) sentences.push_back(sentence);
  return sentences;
}

// What a tagger would return for `system`'s words: their columns, with lemmas and features
// only when it has those heads (else empty, as a model without them returns them).
inline std::vector<TagResult> tags_of(const std::vector<Sentence>& system, bool with_lemmas,
                                      bool with_feats) {
  std::vector<TagResult> results;
  for (const Sentence& sentence : system) {
    TagResult& result = results.emplace_back();
    for (const Word& word : sentence.words) {
      WordTags tags;
      tags.upos = word.upos;
      tags.xpos = word.xpos;
      tags.upos_probability = 1.0f;
      tags.xpos_probability = 1.0f;
      if (with_lemmas) {
        tags.lemma = word.lemma;
        tags.lemma_probability = 0.5f;
      }
      if (with_feats) {
        tags.feats = word.feats;
        tags.feats_probability = 1.0f;
      }
      result.words.push_back(tags);
    }
  }
  return results;
}

// Gold and predicted columns of 8 words. Per word: UFeats / AllTags / Lemmas / all FEATS.
//   The     feats in another order                          yes / yes / yes / yes
//   cats    XPOS NN, lemma "cats"                           yes / no  / no  / yes
//   were    Number=Sing                                     no  / no  / yes / no
//   sitting extra non-universal Style=Expr                  yes / yes / yes / no
//   .                                                       yes / yes / yes / yes
//   Wrds    UPOS PROPN, no Typo=Yes, gold lemma "_"         yes / no  / yes / no
//   his     XPOS PRP, no Number[psor], lemma "his"          yes / no  / no  / no
//   gone    no features, lemma "gone"                       no  / no  / no  / no
// Right: UFeats 6, AllTags 3, Lemmas 5, all FEATS 3 of 8. conll18_ud_eval.py 1.2 gives the
// same UFeats, AllTags and Lemmas counts on these two files (with HEADs added), as it does for
// the raw-text pair (kRawGold, kRawSystem).
inline const char* const kGold =
    "1\tThe\tthe\tDET\tDT\tDefinite=Def|PronType=Art\t_\t_\t_\t_\n"
    "2\tcats\tcat\tNOUN\tNNS\tNumber=Plur\t_\t_\t_\t_\n"
    "3\twere\tbe\tAUX\tVBD\tMood=Ind|Number=Plur|Person=3|Tense=Past|VerbForm=Fin\t_\t_\t_\t_\n"
    "4\tsitting\tsit\tVERB\tVBG\tTense=Pres|VerbForm=Part\t_\t_\t_\t_\n"
    "5\t.\t.\tPUNCT\t.\t_\t_\t_\t_\t_\n"
    "\n"
    "1\tWrds\t_\tNOUN\tNNS\tNumber=Plur|Typo=Yes\t_\t_\t_\t_\n"
    "2\this\the\tPRON\tPRP$\tGender=Masc|Number=Sing|Number[psor]=Sing|Person=3|Poss=Yes|"
    "PronType=Prs\t_\t_\t_\t_\n"
    "3\tgone\tgo\tVERB\tVBN\tTense=Past|VerbForm=Part\t_\t_\t_\t_\n"
    "\n";
inline const char* const kPredicted =
    "1\tThe\tthe\tDET\tDT\tPronType=Art|Definite=Def\t_\t_\t_\t_\n"
    "2\tcats\tcats\tNOUN\tNN\tNumber=Plur\t_\t_\t_\t_\n"
    "3\twere\tbe\tAUX\tVBD\tMood=Ind|Number=Sing|Person=3|Tense=Past|VerbForm=Fin\t_\t_\t_\t_\n"
    "4\tsitting\tsit\tVERB\tVBG\tStyle=Expr|Tense=Pres|VerbForm=Part\t_\t_\t_\t_\n"
    "5\t.\t.\tPUNCT\t.\t_\t_\t_\t_\t_\n"
    "\n"
    "1\tWrds\twrds\tPROPN\tNNS\tNumber=Plur\t_\t_\t_\t_\n"
    "2\this\this\tPRON\tPRP\tGender=Masc|Number=Sing|Person=3|Poss=Yes|PronType=Prs\t_\t_\t_\t_\n"
    "3\tgone\tgone\tVERB\tVBN\t_\t_\t_\t_\t_\n"
    "\n";

inline bool unseen_in_test(const std::string& form) { return form == "Wrds" || form == "his"; }

// Raw text: the system keeps "can't" as a multi-word token like gold but makes "sit." one
// word, so the aligned words are The, cats, ca, n't (4 of 6 gold words, 5 system words).
//   The   feats in another order, lemma "The"       UFeats yes, AllTags yes, Lemmas no
//   cats  Number=Sing, lemma "cats"                 no / no / no
//   ca    lemma "ca"                                yes / yes / no
//   n't   extra Foo=Bar, XPOS RP, gold lemma "_"    yes / no / yes
inline const char* const kRawGold =
    "# text = The cats can't sit.\n"
    "1\tThe\tthe\tDET\tDT\tDefinite=Def|PronType=Art\t_\t_\t_\t_\n"
    "2\tcats\tcat\tNOUN\tNNS\tNumber=Plur\t_\t_\t_\t_\n"
    "3-4\tcan't\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "3\tca\tcan\tAUX\tMD\tVerbForm=Fin\t_\t_\t_\t_\n"
    "4\tn't\t_\tPART\tRB\tPolarity=Neg\t_\t_\t_\t_\n"
    "5\tsit\tsit\tVERB\tVB\tVerbForm=Inf\t_\t_\t_\tSpaceAfter=No\n"
    "6\t.\t.\tPUNCT\t.\t_\t_\t_\t_\t_\n"
    "\n";
inline const char* const kRawSystem =
    "1\tThe\tThe\tDET\tDT\tPronType=Art|Definite=Def\t_\t_\t_\t_\n"
    "2\tcats\tcats\tNOUN\tNNS\tNumber=Sing\t_\t_\t_\t_\n"
    "3-4\tcan't\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "3\tca\tca\tAUX\tMD\tVerbForm=Fin\t_\t_\t_\t_\n"
    "4\tn't\tn't\tPART\tRP\tFoo=Bar|Polarity=Neg\t_\t_\t_\t_\n"
    "5\tsit.\tsit.\tVERB\tVB\tVerbForm=Inf\t_\t_\t_\t_\n"
    "\n";

}  // namespace sawtag::testing
