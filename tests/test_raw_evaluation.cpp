#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"
#include "sawtag/raw_evaluation.hpp"
#include "sawtag/tokenizer.hpp"

namespace sawtag {
namespace {

// One sentence from tokens written as in conll18_ud_eval.py's own tests: "a" is a word,
// "abc a b c" a multi-word token "abc" over the words "a" "b" "c"; "see/VERB" gives a UPOS.
Sentence sentence_of(const std::vector<std::string>& tokens, const std::string& text = "") {
  Sentence sentence;
  if (!text.empty()) sentence.comments.push_back("# text = " + text);
  for (const std::string& token : tokens) {
    std::istringstream parts(token);
    std::vector<std::string> forms;
    for (std::string part; parts >> part;) forms.push_back(part);
    auto add_word = [&](const std::string& written) {
      Word word;
      const auto slash = written.find('/');
      word.form = written.substr(0, slash);
      if (slash != std::string::npos) word.upos = written.substr(slash + 1);
      sentence.words.push_back(word);
    };
    if (forms.size() == 1) {
      add_word(forms[0]);
      continue;
    }
    MultiwordToken multiword;
    multiword.token.form = forms[0];
    multiword.first = static_cast<int>(sentence.words.size()) + 1;
    for (std::size_t i = 1; i < forms.size(); ++i) add_word(forms[i]);
    multiword.last = static_cast<int>(sentence.words.size());
    sentence.multiword_tokens.push_back(multiword);
  }
  return sentence;
}

struct AlignmentCase {
  std::vector<std::string> gold;
  std::vector<std::string> system;
  std::size_t expected_words_correct;
};

TEST_CASE("evaluate_raw aligns words like conll18_ud_eval.py", "[raw_evaluation]") {
  // The cases of conll18_ud_eval.py's TestAlignment.
  const AlignmentCase cases[] = {
      {{"a"}, {"a"}, 1},
      {{"a", "b", "c"}, {"a", "b", "c"}, 3},
      {{"abc a b c"}, {"a", "b", "c"}, 3},
      {{"a", "bc b c", "d"}, {"a", "b", "c", "d"}, 4},
      {{"abcd a b c d"}, {"ab a b", "cd c d"}, 4},
      {{"abc a b c", "de d e"}, {"a", "bcd b c d", "e"}, 5},
      {{"abcd"}, {"a", "b", "c", "d"}, 0},
      {{"abc", "d"}, {"a", "b", "c", "d"}, 1},
      {{"a", "bc", "d"}, {"a", "b", "c", "d"}, 2},
      {{"a", "bc b c", "d"}, {"a", "b", "cd"}, 2},
      {{"abc a BX c", "def d EX f"}, {"ab a b", "cd c d", "ef e f"}, 4},
      {{"ab a b", "cd bc d"}, {"a", "bc", "d"}, 2},
      {{"a", "bc b c", "d"}, {"ab AX BX", "cd CX a"}, 1},
  };
  for (const AlignmentCase& test : cases) {
    const RawEvaluation result = evaluate_raw({sentence_of(test.gold)}, {sentence_of(test.system)});
    INFO("gold " << test.gold.size() << " tokens, system " << test.system.size() << " tokens");
    CHECK(result.words.correct == test.expected_words_correct);
  }
  CHECK_THROWS_AS(evaluate_raw({sentence_of({"a"})}, {sentence_of({"b"})}), InputError);
}

std::vector<Sentence> gold_sentences() {
  std::vector<Sentence> gold = {
      sentence_of({"I/PRON", "can't ca/AUX n't/PART", "see/VERB", "./PUNCT"}, "I can't see."),
      sentence_of({"New/PROPN", "York/PROPN", "rocks/VERB", "./PUNCT"}, "New York rocks."),
      sentence_of({"Yes/INTJ", "!/PUNCT"}, "Yes!"),
  };
  gold[0].comments.insert(gold[0].comments.begin(), "# newdoc id = test");
  gold[2].comments.insert(gold[2].comments.begin(), "# newpar");
  return gold;
}

TEST_CASE("evaluate_raw: gold against itself is perfect", "[raw_evaluation]") {
  const std::vector<Sentence> gold = gold_sentences();
  const RawEvaluation result = evaluate_raw(gold, gold);
  for (const RawScore& score :
       {result.tokens, result.sentences, result.words, result.upos, result.xpos}) {
    CHECK(score.precision() == 1.0);
    CHECK(score.recall() == 1.0);
    CHECK(score.f1() == 1.0);
  }
  CHECK(result.tokens.correct == 10);
  CHECK(result.words.correct == 11);
  CHECK(result.sentences.correct == 3);
}

TEST_CASE("evaluate_raw: one split, one merged token and one missed boundary", "[raw_evaluation]") {
  // "York" and "New" merged, "rocks" split, no boundary before "Yes", "see" tagged NOUN.
  const std::vector<Sentence> system = {
      sentence_of({"I/PRON", "can't ca/AUX n't/PART", "see/NOUN", "./PUNCT"}),
      sentence_of({"NewYork/PROPN", "rock/NOUN", "s/PART", "./PUNCT", "Yes/INTJ", "!/PUNCT"}),
  };
  const RawEvaluation result = evaluate_raw(gold_sentences(), system);
  // Tokens: gold I can't see . New York rocks . Yes ! ; system I can't see . NewYork rock s .
  // Yes ! -> I, can't, see, the two periods, Yes, ! match.
  CHECK(result.tokens.gold_total == 10);
  CHECK(result.tokens.system_total == 10);
  CHECK(result.tokens.correct == 7);
  // Words: gold 11 (can't is two), system 11; aligned I ca n't see . . Yes ! = 8.
  CHECK(result.words.gold_total == 11);
  CHECK(result.words.system_total == 11);
  CHECK(result.words.correct == 8);
  CHECK(result.words.f1() == Approx(8.0 / 11.0));
  // Sentences: only "I can't see." has the same span.
  CHECK(result.sentences.gold_total == 3);
  CHECK(result.sentences.system_total == 2);
  CHECK(result.sentences.correct == 1);
  CHECK(result.sentences.f1() == Approx(2.0 / 5.0));
  // UPOS over the 8 aligned words: "see" is wrong.
  CHECK(result.upos.aligned_total == 8);
  CHECK(result.upos.correct == 7);
  CHECK(result.upos.aligned_accuracy() == Approx(7.0 / 8.0));
  CHECK(result.xpos.correct == 8);  // all "_"
}

TEST_CASE("raw_text_from_gold joins sentences and separates paragraphs", "[raw_evaluation]") {
  CHECK(raw_text_from_gold(gold_sentences()) == "I can't see. New York rocks.\n\nYes!\n");

  // Without "# text" the text comes from the tokens and SpaceAfter=No.
  Sentence untexted = sentence_of({"Hi/INTJ", "you're you/PRON 're/AUX", "!/PUNCT"});
  untexted.multiword_tokens[0].token.misc = "SpaceAfter=No";
  CHECK(raw_text_from_gold({untexted}) == "Hi you're!\n");
  CHECK(raw_text_from_gold({}).empty());
}

// $SAWTAG_UD_DIR, else ../shared/data/ud-english-ewt beside the source tree.
std::string ud_directory() {
  if (const char* directory = std::getenv("SAWTAG_UD_DIR")) return directory;
  return std::string(SAWTAG_SOURCE_DIR) + "/../shared/data/ud-english-ewt";
}

std::vector<Sentence> read_treebank(const std::string& path) {
  std::ifstream in(path);
  ConlluReader reader(in, path);
  std::vector<Sentence> sentences;
  for (Sentence sentence; reader.next(sentence);) sentences.push_back(sentence);
  return sentences;
}

// Hidden (run with "[.ewt]"): learns from EWT train and scores raw-text tokenization of EWT dev.
// Tuning is done on dev only; the targets on test are Tokens 99.0, Words 98.8, Sentences 78.
TEST_CASE("EWT dev: tokenizer learned from train, scored on raw text", "[.ewt]") {
  const std::string directory = ud_directory();
  const std::string train_path = directory + "/en_ewt-ud-train.conllu";
  const std::string dev_path = directory + "/en_ewt-ud-dev.conllu";
  if (!std::ifstream(train_path) || !std::ifstream(dev_path)) {
    WARN("UD English EWT not found in " << directory << " (set SAWTAG_UD_DIR); skipped");
    return;
  }
  const Tokenizer tokenizer(learn_tokenizer_data(read_treebank(train_path)));
  const std::vector<Sentence> dev = read_treebank(dev_path);
  const RawEvaluation result = evaluate_raw(dev, tokenizer.tokenize(raw_text_from_gold(dev)));
  char line[200];
  std::snprintf(line, sizeof line, "EWT dev F1: Tokens %.2f, Words %.2f, Sentences %.2f",
                100 * result.tokens.f1(), 100 * result.words.f1(), 100 * result.sentences.f1());
  WARN(line);
  CHECK(result.tokens.f1() >= 0.990);
  CHECK(result.words.f1() >= 0.988);
  CHECK(result.sentences.f1() >= 0.78);
}

}  // namespace
}  // namespace sawtag
