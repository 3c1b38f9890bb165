// `sawtag silver`: an ensemble tags text as CoNLL-U for `train --silver`.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "sawtag/conllu.hpp"
#include "sawtag/soft_targets.hpp"

using namespace sawtag::testing;

namespace {

std::vector<sawtag::Sentence> read_conllu_text(const std::string& text) {
  std::istringstream in(text);
  sawtag::ConlluReader reader(in, "output");
  std::vector<sawtag::Sentence> sentences;
  sawtag::Sentence sentence;
  while (reader.next(sentence)) sentences.push_back(sentence);
  return sentences;
}

}  // namespace

TEST_CASE_METHOD(CliFixture, "silver tags raw text with an ensemble as CoNLL-U", "[cli][silver]") {
  sawtag::save_model(make_random_model(tiny_config(), 2), dir.file("second.json"));
  const std::string text = dir.write("wiki.txt", "I saw a saw. The dog saw it.\nI don't see it.\n");
  const RunResult result =
      run_sawtag({"silver", "-m", model, "-m", dir.file("second.json"), "--text", text, "-j", "2"});
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  const auto sentences = read_conllu_text(result.out);
  REQUIRE(sentences.size() == 3);
  CHECK(sentences[0].words.size() == 5);
  REQUIRE(sentences[2].multiword_tokens.size() == 1);  // "don't" -> "do" "n't", as tag splits it
  for (const auto& sentence : sentences) {
    for (const auto& word : sentence.words) CHECK(is_upos(word.upos));
  }
  CHECK(result.err.find("16 words tagged by 2 models") != std::string::npos);

  // --min-prob 1: no mean probability of a random model reaches it.
  const RunResult unsure = run_sawtag({"silver", "-m", model, "--text", text, "--min-prob", "1"});
  REQUIRE(unsure.exit_code == 0);
  for (const auto& sentence : read_conllu_text(unsure.out)) {
    for (const auto& word : sentence.words) {
      CHECK(word.upos == "_");
      CHECK(word.xpos == "_");
    }
  }
}

TEST_CASE_METHOD(CliFixture, "silver re-tags the words of a CoNLL-U file", "[cli][silver]") {
  const std::string gold = dir.write(
      "gold.conllu",
      "1\tI\ti\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n2\tsaw\tsee\tVERB\tVBD\t_\t0\troot\t_\t_\n\n");
  const RunResult result = run_sawtag({"silver", "-m", model, "--conllu", gold});
  REQUIRE(result.exit_code == 0);
  const auto sentences = read_conllu_text(result.out);
  REQUIRE(sentences.size() == 1);
  CHECK(sentences[0].words[1].lemma == "see");  // other columns kept
  CHECK(sentences[0].words[1].deprel == "root");
}

TEST_CASE_METHOD(CliFixture, "silver: usage errors and an output over its input", "[cli][silver]") {
  const std::string text = dir.write("wiki.txt", "I saw a saw.\n");
  check_one_line_error(run_sawtag({"silver", "-m", model}), 2, "--text or --conllu");
  check_one_line_error(run_sawtag({"silver", "-m", model, "--text", text, "--conllu", text}), 2,
                       "excludes");
  check_one_line_error(run_sawtag({"silver", "-m", model, "--text", text, "-o", text}), 1,
                       "would overwrite the input");
  CHECK(read_file(text) == "I saw a saw.\n");
  check_one_line_error(run_sawtag({"silver", "-m", model, "--text", dir.file("missing.txt")}), 1,
                       "missing.txt: cannot open the text");
}

TEST_CASE_METHOD(CliFixture, "silver --soft writes the ensemble's soft targets", "[cli][silver]") {
  sawtag::save_model(make_random_model(tiny_config(), 2), dir.file("second.json"));
  const std::string text = dir.write("wiki.txt", "I saw a saw. The dog saw it.\n");
  const RunResult result = run_sawtag({"silver", "-m", model, "-m", dir.file("second.json"),
                                       "--text", text, "--soft", "2", "-o", dir.file("soft.txt")});
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.find("10 words tagged by 2 models: their top 2 classes per head") !=
        std::string::npos);
  std::ifstream in(dir.file("soft.txt"));
  sawtag::SoftTargetsReader reader(in, "soft.txt");
  CHECK(reader.header().classes[0] == upos_tags());
  std::vector<sawtag::SoftSentence> sentences;
  sawtag::SoftSentence sentence;
  while (reader.next(sentence)) sentences.push_back(sentence);
  REQUIRE(sentences.size() == 2);
  REQUIRE(sentences[0].size() == 5);
  CHECK(sentences[0][1].form == "saw");
  for (const sawtag::SoftWord& word : sentences[0]) {
    REQUIRE(word.heads[0].size() >= 1);
    CHECK(word.heads[0].size() <= 2);
    CHECK(word.heads[0][0].probability > 1.0f / 17.0f);  // the most likely of 17 tags
  }
  // The mean probabilities are those `silver` tags with: the first UPOS class is its tag.
  const RunResult hard = run_sawtag({"silver", "-m", model, "-m", dir.file("second.json"),
                                     "--text", text});
  REQUIRE(hard.exit_code == 0);
  const auto tagged = read_conllu_text(hard.out);
  REQUIRE(tagged.size() == 2);
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(upos_tags()[static_cast<std::size_t>(sentences[0][i].heads[0][0].index)] ==
          tagged[0].words[i].upos);
  }
  // --soft with --min-prob, or --soft 0: usage errors.
  CHECK(run_sawtag({"silver", "-m", model, "--text", text, "--soft", "2", "--min-prob", "0.5"})
            .exit_code == 2);
  CHECK(run_sawtag({"silver", "-m", model, "--text", text, "--soft", "0"}).exit_code == 2);
}
