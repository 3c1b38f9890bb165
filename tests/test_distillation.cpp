// Distillation: a teacher's soft targets written and read back (sawtag/soft_targets.hpp), mapped
// to a student's classes, and a student that learns from them.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "sawtag/error.hpp"
#include "sawtag/soft_targets.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/training.hpp"
#include "tiny_training.hpp"
#include "train/soft_examples.hpp"

namespace sawtag {
namespace {

using testing::TempDir;

SoftTargetsHeader small_header() {
  SoftTargetsHeader header;
  header.classes = {std::vector<std::string>{"NOUN", "VERB", "DET"},
                    std::vector<std::string>{"NN", "VBD", "DT", "NNS"},
                    std::vector<std::string>{},
                    std::vector<std::string>{"keep|0||0|", "lower|0||1|"}};
  return header;
}

SoftWord soft_word(const std::string& form, std::vector<SoftClass> upos,
                   std::vector<SoftClass> xpos, std::vector<SoftClass> lemma = {}) {
  SoftWord word;
  word.form = form;
  word.heads[0] = std::move(upos);
  word.heads[1] = std::move(xpos);
  word.heads[3] = std::move(lemma);
  return word;
}

std::string written(const SoftTargetsHeader& header, const std::vector<SoftSentence>& sentences) {
  std::ostringstream out;
  write_soft_targets_header(out, header);
  for (const SoftSentence& sentence : sentences) write_soft_sentence(out, sentence);
  return out.str();
}

std::vector<SoftSentence> read_all(const std::string& text, SoftTargetsHeader* header = nullptr) {
  std::istringstream in(text);
  SoftTargetsReader reader(in, "soft.txt");
  if (header != nullptr) *header = reader.header();
  std::vector<SoftSentence> sentences;
  SoftSentence sentence;
  while (reader.next(sentence)) sentences.push_back(sentence);
  return sentences;
}

Sentence gold(const std::string& line) { return testing::gold_with_morphology(line); }

}  // namespace

TEST_CASE("Soft targets round-trip through their file", "[distillation]") {
  const SoftTargetsHeader header = small_header();
  const std::vector<SoftSentence> sentences = {
      {soft_word("Saws", {{0, 0.875f}, {1, 0.125f}}, {{3, 0.9f}, {0, 0.06f}, {1, 0.00001f}},
                 {{1, 0.6f}, {0, 0.4f}}),
       soft_word("cut", {{1, 1.0f}}, {{1, 0.99994f}}, {{0, 0.99f}})},
      {soft_word("the", {{2, 0.00002f}}, {{2, 1.0f}}, {{0, 1.0f}})}};
  SoftTargetsHeader read_header;
  const std::vector<SoftSentence> read = read_all(written(header, sentences), &read_header);
  CHECK(read_header.classes == header.classes);
  REQUIRE(read.size() == 2);
  REQUIRE(read[0].size() == 2);
  CHECK(read[0][0].form == "Saws");
  REQUIRE(read[0][0].heads[0].size() == 2);
  CHECK(read[0][0].heads[0][0].index == 0);
  CHECK(read[0][0].heads[0][0].probability == Approx(0.875f));
  // 0.00001 rounds to 0 at four decimals: left out; the most likely class is always kept.
  REQUIRE(read[0][0].heads[1].size() == 2);
  CHECK(read[0][0].heads[1][1].probability == Approx(0.06f));
  CHECK(read[1][0].heads[0].size() == 1);
  CHECK(read[1][0].heads[0][0].probability == Approx(0.0001f));
  CHECK(read[0][0].heads[2].empty());  // the header has no FEATS: "_"
  CHECK(read[0][0].heads[3][1].index == 0);
  CHECK(read[0][1].heads[1][0].probability == Approx(0.9999f).margin(1e-6));
  // What is read writes the same text again.
  CHECK(written(read_header, read) == written(header, read));
}

TEST_CASE("A malformed soft-targets file is refused, naming the line", "[distillation]") {
  const std::string start = written(small_header(), {});
  CHECK_THROWS_WITH(read_all("1\tI\tPRON\n"), Catch::StartsWith("soft.txt:1: not a soft-targets file"));
  CHECK_THROWS_WITH(read_all(start.substr(0, start.find('\n') + 1)),
                    Catch::StartsWith("soft.txt:2: the \"# classes {...}\" line is missing"));
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"saw\t1:1\t1:1\t_\n", "expected 4 columns after the form"},
      {"saw\t1:1\t1:1\t_\t_\t_\n", "more than 4 columns after the form"},
      {"saw\t7:1\t1:1\t_\t_\n", "a upos index is outside the 3 classes of the header"},
      {"saw\t1:1\t1:1\t0:1\t_\n", "a feats index is outside the 0 classes of the header"},
      {"saw\t1:1.5\t1:1\t_\t_\n", "a upos probability is not in (0, 1]"},
      {"saw\t1:0\t1:1\t_\t_\n", "a upos probability is not in (0, 1]"},
      {"saw\t1:x\t1:1\t_\t_\n", "a upos probability is not in (0, 1]"},
      {"saw\t1\t1:1\t_\t_\n", "a upos entry is not index:probability"},
      {"saw\t1:1\t\t_\t_\n", "an empty xpos column"},
      {"\t1:1\t1:1\t_\t_\n", "expected a form and 4 columns"}};
  for (const auto& [line, message] : bad) {
    INFO(line);
    CHECK_THROWS_WITH(read_all(start + "\n" + line), "soft.txt:4: " + message);
  }
}

TEST_CASE("Soft targets become a student's: its classes, softened, renormalised",
          "[distillation]") {
  TempDir dir;
  const std::string path = dir.file("soft.txt");
  {
    std::ofstream out(path);
    out << written(small_header(),
                   {{soft_word("saws", {{0, 0.64f}, {2, 0.16f}, {1, 0.2f}}, {{3, 0.5f}, {0, 0.5f}}),
                     soft_word("cut", {{2, 1.0f}}, {{1, 1.0f}})}});
  }
  // A student whose UPOS tags are in another order and lack DET; XPOS lacks NNS.
  Model student;
  student.upos = Vocabulary({"VERB", "NOUN", "ADJ"}, "UPOS");
  student.xpos = Vocabulary({"NN", "VBD"}, "XPOS");
  student.chars = Vocabulary({"<pad>", "<unk>", "<bow>", "<eow>"}, "characters");
  student.words = Vocabulary({"<unk>"}, "words");
  for (float temperature : {1.0f, 2.0f}) {
    const std::vector<train::Example> examples =
        train::read_soft_examples(student, path, temperature);
    REQUIRE(examples.size() == 1);
    const train::Example& example = examples[0];
    CHECK(example.upos == std::vector<int>{-1, -1});  // no hard targets
    const nn::SparseDistributions& upos = example.soft[0];
    REQUIRE(upos.rows() == 2);
    // "saws": NOUN 0.64 and VERB 0.2 (DET dropped), each ^(1/T), renormalised.
    const double noun = std::pow(0.64, 1.0 / temperature);
    const double verb = std::pow(0.2, 1.0 / temperature);
    REQUIRE(upos.offsets[1] == 2);
    CHECK(upos.classes[0] == 1);
    CHECK(upos.probabilities[0] == Approx(noun / (noun + verb)));
    CHECK(upos.classes[1] == 0);
    CHECK(upos.probabilities[1] == Approx(verb / (noun + verb)));
    CHECK(upos.offsets[2] == 2);  // "cut": only DET, which the student lacks: no target
    const nn::SparseDistributions& xpos = example.soft[1];
    REQUIRE(xpos.rows() == 2);
    CHECK(xpos.classes[0] == 0);  // NN alone (NNS dropped): probability 1
    CHECK(xpos.probabilities[0] == Approx(1.0f));
    CHECK(example.soft[2].rows() == 0);  // the student has no FEATS or lemma head
    CHECK(example.soft[3].rows() == 0);
  }
}

TEST_CASE("A student distilled from a teacher on text tags it more like the teacher",
          "[distillation][training]") {
  // The teacher knows sentences the student's treebank lacks; the student sees only their
  // words, with the teacher's distributions over all four heads.
  const std::vector<Sentence> teacher_treebank = {
      gold("Blips/NOUN/NNS/blip/Zork=Many zorked/VERB/VBD/zork/Blip=Past ./PUNCT/././_"),
      gold("The/DET/DT/the/Kind=Art blip/NOUN/NN/blip/Zork=One zorks/VERB/VBZ/zork/Blip=Now"),
      gold("A/DET/DT/a/Kind=Art zork/NOUN/NN/zork/Zork=One blipped/VERB/VBD/blip/Blip=Past"),
      gold("Zorks/NOUN/NNS/zork/Zork=Many blip/VERB/VBP/blip/Blip=Now ./PUNCT/././_"),
      gold("The/DET/DT/the/Kind=Art zorks/NOUN/NNS/zork/Zork=Many zork/VERB/VBP/zork/Blip=Now"),
      gold("A/DET/DT/a/Kind=Art blip/NOUN/NN/blip/Zork=One blips/VERB/VBZ/blip/Blip=Now "
           "./PUNCT/././_")};
  const std::vector<Sentence> student_treebank(teacher_treebank.begin(),
                                               teacher_treebank.begin() + 3);
  TrainOptions options = testing::tiny_train_options();
  options.min_lemma_rule_count = 1;
  options.threads = 1;
  options.seed = 5;
  const Tagger teacher(
      std::make_shared<const Model>(train_model(teacher_treebank, teacher_treebank, options)));
  REQUIRE(teacher.model().has_lemmas());
  REQUIRE(teacher.model().has_feats());

  // The text: the words of the sentences only the teacher knows.
  std::vector<std::vector<std::string>> text;
  for (std::size_t s = 3; s < teacher_treebank.size(); ++s) {
    text.emplace_back();
    for (const Word& word : teacher_treebank[s].words) text.back().push_back(word.form);
  }
  SoftTargetOptions soft_options;
  soft_options.top_k = 3;
  soft_options.threads = 2;
  const std::vector<SoftSentence> targets = teacher_distributions({&teacher}, text, soft_options);
  REQUIRE(targets.size() == text.size());
  for (const SoftWord& word : targets[0]) {
    for (const auto& head : word.heads) {
      REQUIRE(!head.empty());
      CHECK(head.size() <= 3);
      for (std::size_t k = 1; k < head.size(); ++k) {
        CHECK(head[k].probability <= head[k - 1].probability);
      }
    }
  }
  // One thread or two: the same distributions.
  soft_options.threads = 1;
  const std::vector<SoftSentence> one_thread = teacher_distributions({&teacher}, text, soft_options);
  CHECK(written(soft_targets_header(teacher.model()), one_thread) ==
        written(soft_targets_header(teacher.model()), targets));
  TempDir dir;
  const std::string path = dir.file("soft.txt");
  {
    std::ofstream out(path);
    out << written(soft_targets_header(teacher.model()), targets);
  }

  // How many of the text's words (x 4 columns) a student tags as the teacher does.
  const auto agreement = [&](const Model& model) {
    const Tagger student(std::make_shared<const Model>(model));
    int same = 0;
    for (const std::vector<std::string>& words : text) {
      const TagResult mine = student.tag(words);
      const TagResult theirs = teacher.tag(words);
      for (std::size_t i = 0; i < words.size(); ++i) {
        same += mine.words[i].upos == theirs.words[i].upos;
        same += mine.words[i].xpos == theirs.words[i].xpos;
        same += mine.words[i].lemma == theirs.words[i].lemma;
        same += mine.words[i].feats == theirs.words[i].feats;
      }
    }
    return same;
  };
  const Model without = train_model(student_treebank, student_treebank, options);
  options.silver_path = path;
  const Model with = train_model(student_treebank, student_treebank, options);
  const int words = 11;
  INFO("without " << agreement(without) << ", with " << agreement(with) << " of " << 4 * words);
  CHECK(agreement(with) > agreement(without));  // 37 against 22 of 44 when written
  CHECK(with.training.fields.at("distillation_temperature") == "1.000000");
  // At another temperature the student is another.
  options.distillation_temperature = 2.0f;
  CHECK(serialize_model(train_model(student_treebank, student_treebank, options)) !=
        serialize_model(with));
}

TEST_CASE("teacher_distributions refuses no teachers", "[distillation]") {
  CHECK_THROWS_AS(teacher_distributions({}, {{"a"}}, {}), InputError);
}

}  // namespace sawtag
