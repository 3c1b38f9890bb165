// The lemma tables that need no training: the usual spelling of words (Model::lemma_casing),
// counted over running text, and the characters a UPOS drops (Model::lemma_deletions), learned
// from a treebank; saved in the model file, used by the lemma choice, made by
// `sawtag lemma-tables`.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_fixture.hpp"
#include "io/model_file_limits.hpp"
#include "sawtag/error.hpp"
#include "sawtag/lemma_casing.hpp"
#include "sawtag/training.hpp"
#include "tagging/lemma_choice.hpp"
#include "tiny_training.hpp"
#include "train/morphology_targets.hpp"

namespace sawtag::testing {
namespace {

Sentence words_of(const std::string& text) {
  Sentence sentence;
  std::istringstream in(text);
  for (std::string form; in >> form;) sentence.words.push_back(Word{form});
  return sentence;
}

const Vocabulary kWords({"<unk>", "kerala", "power", "nasa", "the", "is"}, "words");

// The random tiny model with a lemma head of two rules, keep and title-case.
Model model_with_lemmas() {
  Model model = make_random_model();
  model.words = Vocabulary({"<unk>", "i", "saw", "kerala", "."}, "words");
  model.lemma_rules = Vocabulary({"keep|0||0|", "title|0||0|"}, "lemma rules");
  sync_vocabulary_sizes(model);
  model.parameters = zero_parameters(model.config);
  return model;
}

}  // namespace

TEST_CASE("The spellings of words are counted outside sentence starts", "[lemma_casing]") {
  SpellingCounter counter(kWords);
  counter.add(words_of("Kerala is in India , Kerala is hot"));  // the first Kerala not counted
  counter.add(words_of("\" Power to Kerala and Kerala , said NASA"));  // nor "Power" after "
  counter.add(words_of("The power of Kerala and NASA and nasa"));      // "India", "said": no words
  CHECK(counter.words_counted() == 10);  // Kerala x4, is x2, power, NASA x2, nasa
  SECTION("a word is listed when it is seen often enough, mostly not in lower case") {
    LemmaCasingOptions options;
    options.min_count = 2;
    options.max_lower_share = 0.5;
    CHECK(counter.usual_spellings(options) == std::vector<std::string>{"Kerala", "NASA"});
  }
  SECTION("too rare") {
    LemmaCasingOptions options;
    options.min_count = 4;
    options.max_lower_share = 0.5;
    CHECK(counter.usual_spellings(options) == std::vector<std::string>{"Kerala"});
  }
  SECTION("too often in lower case") {
    LemmaCasingOptions options;
    options.min_count = 1;
    options.max_lower_share = 0.3;  // "nasa" is a third of its uses
    CHECK(counter.usual_spellings(options) == std::vector<std::string>{"Kerala"});
  }
}

TEST_CASE("Only the vocabulary's words are counted, whatever the text", "[lemma_casing]") {
  SpellingCounter counter(kWords);
  std::string many;
  for (int i = 0; i < 20; ++i) {
    many += " kERALA" + std::to_string(i) + " KeRaLa" + std::string(i % 3, 'x');
  }
  counter.add(words_of("Start" + many + " <UNK> <UNK>"));
  CHECK(counter.words_counted() == 7);  // KeRaLa 7 times; "<UNK>" is no word
  LemmaCasingOptions options;
  options.min_count = 1;
  CHECK(counter.usual_spellings(options) == std::vector<std::string>{"KeRaLa"});
}

TEST_CASE("A lemma keeps its word's usual casing when the lemma head gives it a chance",
          "[lemma_casing]") {
  Model model = model_with_lemmas();
  const float keep_a_little_more[] = {1.0f, 0.5f};  // keep "kerala" 1.6 times as likely
  const float keep_for_sure[] = {1.0f, -6.0f};      // title case 0.1 % as likely
  int rule = -2;
  SECTION("without usual spellings, the most likely rule") {
    const LemmaChooser chooser(model);
    CHECK(chooser.choose(keep_a_little_more, 1.0f, "kerala", "PROPN", "NNP", rule) == "kerala");
    CHECK(rule == 0);
  }
  model.lemma_casing = "Kerala";
  const LemmaChooser chooser(model);
  CHECK(chooser.choose(keep_a_little_more, 1.0f, "kerala", "PROPN", "NNP", rule) == "Kerala");
  CHECK(rule == 1);
  CHECK(chooser.choose(keep_for_sure, 1.0f, "kerala", "PROPN", "NNP", rule) == "kerala");
  CHECK(rule == 0);
  // Already written as usual: the same lemma either way.
  CHECK(chooser.choose(keep_a_little_more, 1.0f, "Kerala", "PROPN", "NNP", rule) == "Kerala");
  CHECK(rule == 0);
  // Words without a usual spelling are left alone.
  CHECK(chooser.choose(keep_a_little_more, 1.0f, "saw", "VERB", "VBD", rule) == "saw");
  SECTION("the lemma lexicon still has the last word") {
    model.lemma_lexicon = {{"kerala", "PROPN", "NNP", "kerala-lexicon"}};
    const LemmaChooser with_lexicon(model);
    CHECK(with_lexicon.choose(keep_a_little_more, 1.0f, "kerala", "PROPN", "NNP", rule) ==
          "kerala-lexicon");
    CHECK(rule == 1);  // the rule the head chose, for the lemma's probability
    // Without the rule, the same lemmas (the lexicon's without trying the rules).
    CHECK(with_lexicon.choose(keep_a_little_more, 1.0f, "kerala", "PROPN", "NNP") ==
          "kerala-lexicon");
    CHECK(with_lexicon.choose(keep_a_little_more, 1.0f, "kerala", "PROPN", "NNPS") == "Kerala");
    CHECK(with_lexicon.choose(keep_for_sure, 1.0f, "kerala", "PROPN", "NNP") == "kerala-lexicon");
  }
}

TEST_CASE("A word of the vocabulary gets a lemma that is one, if a likely enough rule gives it",
          "[lemma_choice]") {
  Model model = model_with_lemmas();
  model.words = Vocabulary({"<unk>", "expresses", "express", "impress"}, "words");
  model.lemma_rules = Vocabulary({"keep|0||1|", "keep|0||2|"}, "lemma rules");
  sync_vocabulary_sizes(model);
  model.parameters = zero_parameters(model.config);
  const LemmaChooser chooser(model);
  const float unlikely[] = {0.0f, -5.0f};       // strip two letters: 0.7 % as likely
  const float too_unlikely[] = {0.0f, -10.0f};  // 0.005 %
  int rule = -2;
  CHECK(chooser.choose(unlikely, 1.0f, "expresses", "VERB", "VBZ", rule) == "express");
  CHECK(rule == 1);
  CHECK(chooser.choose(too_unlikely, 1.0f, "expresses", "VERB", "VBZ", rule) == "expresse");
  CHECK(rule == 0);
  // The temperature scales the odds: the same logits at T = 2 are within reach.
  CHECK(chooser.choose(too_unlikely, 2.0f, "expresses", "VERB", "VBZ", rule) == "express");
  // Only a word of the vocabulary: "impresses" is not, so its most likely rule stands.
  CHECK(chooser.choose(unlikely, 1.0f, "impresses", "VERB", "VBZ", rule) == "impresse");
  CHECK(rule == 0);
}

TEST_CASE("The usual spellings are saved in the model file, at version 7", "[lemma_casing]") {
  Model model = model_with_lemmas();
  const auto version_of = [](const std::string& text) {
    return nlohmann::json::parse(text).at("version").get<int>();
  };
  CHECK(version_of(serialize_model(model)) == kModelVersionWithoutLemmaCasing);
  model.lemma_casing = "Kerala NASA Ünal";
  const std::string text = serialize_model(model);
  CHECK(version_of(text) == kModelVersionWithoutLemmaDictionary);
  CHECK(text.find("\"lemma_casing\": \"Kerala NASA Ünal\"") != std::string::npos);
  CHECK(parse_model(text, "m.json").lemma_casing == "Kerala NASA Ünal");
  const auto with_casing = [&](const std::string& entries) {
    return with_section(text, "lemma_casing", entries);
  };
  SECTION("a word's first spelling counts, in any order") {
    const Model loaded = parse_model(with_casing("\"NASA KERALA Kerala\""), "m.json");
    const LemmaChooser chooser(loaded);
    const float title_likelier[] = {0.0f, 1.0f};
    int rule = -2;
    // "KERALA" is usual, so its title case "Kerala" is the unusual one.
    CHECK(chooser.choose(title_likelier, 1.0f, "KERALA", "PROPN", "NNP", rule) == "KERALA");
  }
  CHECK_THROWS_WITH(parse_model(with_casing("\"Kerala  NASA\""), "m.json"),
                    Catch::Contains("m.json: lemma_casing: spelling 2 is empty"));
  CHECK_THROWS_WITH(parse_model(with_casing("\" Kerala\""), "m.json"),
                    Catch::Contains("lemma_casing: spelling 1 is empty"));
  CHECK_THROWS_WITH(parse_model(with_casing("\"Kerala \""), "m.json"),
                    Catch::Contains("lemma_casing: spelling 2 is empty"));
  CHECK_THROWS_WITH(parse_model(with_casing("\"\""), "m.json"),
                    Catch::Contains("lemma_casing: spelling 1 is empty"));
  CHECK_THROWS_WITH(parse_model(with_casing("[\"Kerala\"]"), "m.json"),
                    Catch::Contains("lemma_casing: expected a string, got array"));
  CHECK_THROWS_WITH(parse_model(with_casing("\"Ker\\tala\""), "m.json"),
                    Catch::Contains("lemma_casing") && Catch::Contains("U+0009"));
  SECTION("more than the parser reads itself (64 KiB)") {
    model.lemma_casing = "Word10000";
    for (int i = 10001; i < 22000; ++i) model.lemma_casing += " Word" + std::to_string(i);
    CHECK(parse_model(serialize_model(model), "m.json").lemma_casing == model.lemma_casing);
  }
  SECTION("what the reader would refuse is not written") {
    model.lemma_casing = "Kerala  NASA";
    CHECK_THROWS_WITH(serialize_model(model),
                      Catch::Contains("cannot save the model: lemma_casing: spelling 2 is empty"));
  }
  SECTION("only with a lemma head") {
    Model no_lemmas = make_random_model();
    std::string plain = serialize_model(no_lemmas);
    const std::size_t end = plain.rfind(" \"tensors\"");
    REQUIRE(end != std::string::npos);
    plain.insert(end, " \"lemma_casing\": \"Kerala\",\n");
    CHECK_THROWS_WITH(parse_model(plain, "m.json"),
                      Catch::Contains("lemma_casing: the model has no tag_sets.lemma_rules"));
  }
}

TEST_CASE_METHOD(CliFixture, "sawtag lemma-tables adds the usual spellings to a model",
                 "[cli][lemma_casing]") {
  const std::string lemmas = dir.file("lemmas.json");
  save_model(model_with_lemmas(), lemmas);
  const std::string text =
      dir.write("text.txt", "I saw Kerala. I saw Kerala, and Kerala saw i.\nKerala kerala\n");
  const std::string out = dir.file("cased.json");
  SECTION("counted and saved") {
    const RunResult result =
        run_sawtag({"lemma-tables", "-m", lemmas, "--text", text, "-o", out, "--min-count", "2"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.err, Catch::Contains("1 usually written otherwise than in lower case"));
    CHECK(load_model(out).lemma_casing == "Kerala");
    const RunResult info = run_sawtag({"info", "-m", out});
    CHECK_THAT(info.out, Catch::Contains("1 usual spellings from text.txt ("));
  }
  SECTION("from stdin") {
    const RunResult result =
        run_sawtag({"lemma-tables", "-m", lemmas, "--text", "-", "-o", out, "--min-count", "1"},
                   "He met NASA. NASA met him.\n");
    REQUIRE(result.exit_code == 0);
    CHECK(load_model(out).lemma_casing.empty());  // "nasa" is not a word of the model
  }
  SECTION("bad input") {
    const RunResult no_lemma_head =
        run_sawtag({"lemma-tables", "-m", model, "--text", text, "-o", out});
    CHECK(no_lemma_head.exit_code == 1);
    CHECK_THAT(no_lemma_head.err, Catch::Contains("has no lemma head"));
    const RunResult missing =
        run_sawtag({"lemma-tables", "-m", lemmas, "--text", dir.file("none.txt"), "-o", out});
    CHECK(missing.exit_code == 1);
    CHECK_THAT(missing.err, Catch::Contains("none.txt"));
    const RunResult over_input =
        run_sawtag({"lemma-tables", "-m", lemmas, "--text", text, "-o", text});
    CHECK(over_input.exit_code == 1);
    CHECK_THAT(over_input.err, Catch::Contains("would overwrite the input"));
    const RunResult nothing_to_do = run_sawtag({"lemma-tables", "-m", lemmas, "-o", out});
    CHECK(nothing_to_do.exit_code == 2);
    CHECK_THAT(nothing_to_do.err, Catch::Contains("give --treebank, --text or both"));
  }
}

TEST_CASE("without() deletes a character everywhere, whole code points only", "[lemma_tables]") {
  CHECK(without("12,000,000", ",") == "12000000");
  CHECK(without("ünal", "ü") == "nal");
  CHECK(without("a\xC3\xBC", "\xC3") == "a\xBC");  // bytes, as given: callers pass a code point
  CHECK(without("abc", "") == "abc");
}

TEST_CASE("A character a UPOS's lemmas drop is learned from the treebank", "[lemma_tables]") {
  std::vector<Sentence> treebank;
  const auto add = [&](int times, const std::string& line) {
    for (int i = 0; i < times; ++i) treebank.push_back(gold_with_morphology(line));
  };
  add(10, "12;000/NUM/CD/12000/_ zork/NOUN/NN/zork/_");
  add(1, "3;5/NUM/CD/3;5/_");  // 10 of 11: 91 %, below 95 %
  SECTION("not when too many keep it") { CHECK(train::lemma_deletions(treebank).empty()); }
  SECTION("when at least 95 % of at least 10 words drop it") {
    add(10, "7;1/NUM/CD/71/_");
    const std::vector<LemmaDeletion> learned = train::lemma_deletions(treebank);
    REQUIRE(learned.size() == 1);
    CHECK(learned[0].upos == "NUM");
    CHECK(learned[0].character == ";");
  }
  SECTION("not from a word that is the character alone") {
    add(30, ";/PUNCT/:/;/_");
    CHECK(train::lemma_deletions(treebank).empty());
  }
}

TEST_CASE("A word of a UPOS that drops a character has it deleted from its lemma",
          "[lemma_tables]") {
  Model model = model_with_lemmas();
  model.lemma_deletions = {{"NUM", ","}};
  const LemmaChooser chooser(model);
  const float keep[] = {1.0f, -9.0f};
  int rule = -2;
  CHECK(chooser.choose(keep, 1.0f, "12,000", "NUM", "CD", rule) == "12000");
  CHECK(rule == 0);
  CHECK(chooser.choose(keep, 1.0f, "12,000", "PROPN", "NNP", rule) == "12,000");
  CHECK(chooser.choose(keep, 1.0f, ",", "NUM", "CD", rule) == ",");  // never an empty lemma
}

TEST_CASE("The characters a UPOS drops are saved in the model file", "[lemma_tables]") {
  Model model = model_with_lemmas();
  model.lemma_deletions = {{"NUM", ","}, {"NUM", "ü"}};
  const std::string text = serialize_model(model);
  CHECK(nlohmann::json::parse(text).at("version").get<int>() == kModelVersionWithoutLemmaDictionary);
  const Model loaded = parse_model(text, "m.json");
  REQUIRE(loaded.lemma_deletions.size() == 2);
  CHECK(loaded.lemma_deletions[1].character == "ü");
  REQUIRE(text.find("\"lemma_deletions\": [[\"NUM\",\",\"],[\"NUM\",\"ü\"]]") != std::string::npos);
  const auto with_deletions = [&](const std::string& entries) {
    return with_section(text, "lemma_deletions", entries);
  };
  CHECK_THROWS_WITH(
      parse_model(with_deletions("[[\"NUMBER\",\",\"]]"), "m.json"),
      Catch::Contains("m.json: lemma_deletions[0]: 'NUMBER' is not in tag_sets.upos"));
  CHECK_THROWS_WITH(parse_model(with_deletions("[[\"NUM\",\",,\"]]"), "m.json"),
                    Catch::Contains("lemma_deletions[0]: ',,' is not one character"));
  CHECK_THROWS_WITH(parse_model(with_deletions("[[\"NUM\",\",\"],[\"NUM\",\",\"]]"), "m.json"),
                    Catch::Contains("lemma_deletions[1]: listed twice"));
  CHECK_THROWS_WITH(parse_model(with_deletions("[[\"NUM\"]]"), "m.json"),
                    Catch::Contains("lemma_deletions[0]: expected [UPOS, character]"));
}

TEST_CASE("The lemma lexicon reads alike whether the fast reader or the parser reads it",
          "[lemma_tables]") {
  Model model = model_with_lemmas();
  model.lemma_lexicon = {{"was", "AUX", "VBD", "be"}, {"mice", "NOUN", "NNS", "mouse"}};
  const std::string text = serialize_model(model);
  const auto with_lexicon = [&](const std::string& rows) {
    return with_section(text, "lemma_lexicon", rows);
  };
  const auto lexicon_of = [](const Model& loaded) {
    std::vector<std::vector<std::string>> rows;
    for (const LemmaLexiconEntry& entry : loaded.lemma_lexicon) {
      rows.push_back({entry.form, entry.upos, entry.xpos, entry.lemma});
    }
    return rows;
  };
  const std::vector<std::vector<std::string>> expected = {{"was", "AUX", "VBD", "be"},
                                                          {"mice", "NOUN", "NNS", "mouse"}};
  // Cut out and read by string_array.hpp's reader; with a "\u" escape, read by the parser.
  CHECK(lexicon_of(parse_model(text, "m.json")) == expected);
  CHECK(lexicon_of(parse_model(
            with_lexicon(R"([["was","AUX","VBD","be"], ["mic\u0065","NOUN","NNS","mouse"]])"),
            "m.json")) == expected);
  // The same messages either way.
  std::vector<std::string> too_long;
  for (const char* escape : {"", "\\u0061"}) {
    INFO("escape: " << escape);
    const std::string form = std::string("w") + escape;
    const auto row = [&](const char* rest) { return "[\"" + form + "\"," + rest + "]"; };
    CHECK_THROWS_WITH(parse_model(with_lexicon("[" + row(R"("AUX","VBD","be")") + "," +
                                               row(R"("X","X","")") + "]"),
                                  "m.json"),
                      Catch::Contains("m.json: lemma_lexicon[1]: an empty string"));
    CHECK_THROWS_WITH(
        parse_model(with_lexicon("[" + row(R"("AUX","VBD")") + "]"), "m.json"),
        Catch::Contains("lemma_lexicon[0]: expected [form, UPOS, XPOS, lemma], got 3 strings"));
    std::string long_table = "[" + row(R"("X","X","x")");
    for (std::size_t i = 0; i < model_file::kMaxTableEntries; ++i) {
      long_table += "," + row(R"("X","X","x")");
    }
    try {
      parse_model(with_lexicon(long_table + "]"), "m.json");
    } catch (const ModelError& error) {
      too_long.push_back(error.what());
    }
  }
  REQUIRE(too_long.size() == 2);
  CHECK(too_long[0] == too_long[1]);
  CHECK_THAT(too_long[0], Catch::Contains("m.json: not a sawtag model"));
  CHECK_THROWS_WITH(parse_model(with_lexicon(R"([["was","AUX","VBD","be"],])"), "m.json"),
                    Catch::Contains("m.json: not valid JSON"));
}

TEST_CASE_METHOD(CliFixture,
                 "sawtag lemma-tables derives the lexicon and deletions from a treebank",
                 "[cli][lemma_tables]") {
  const std::string lemmas = dir.file("lemmas.json");
  save_model(model_with_lemmas(), lemmas);
  std::string conllu;
  for (int i = 0; i < 12; ++i) {
    conllu += "1\t" + std::to_string(i + 1) + ",000\t" + std::to_string(i + 1) +
              "000\tNUM\tCD\t_\t0\troot\t_\t_\n2\twas\tbe\tAUX\tVBD\t_\t1\tcop\t_\t_\n\n";
  }
  const std::string treebank = dir.write("train.conllu", conllu);
  const std::string out = dir.file("tables.json");
  const RunResult result =
      run_sawtag({"lemma-tables", "-m", lemmas, "--treebank", treebank, "-o", out});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const Model model = load_model(out);
  REQUIRE(model.lemma_deletions.size() == 1);
  CHECK(model.lemma_deletions[0].character == ",");
  CHECK(model.lemma_lexicon.size() == 13);  // "was" AUX VBD -> "be", and the twelve numbers
  CHECK_THAT(run_sawtag({"info", "-m", out}).out, Catch::Contains("; NUM drops ','"));
  const RunResult no_lemmas =
      run_sawtag({"lemma-tables", "-m", lemmas, "--treebank",
                  dir.write("bare.conllu", "1\tx\t_\tX\tX\t_\t0\troot\t_\t_\n\n"), "-o", out});
  CHECK(no_lemmas.exit_code == 1);
  CHECK_THAT(no_lemmas.err, Catch::Contains("the treebank has no lemmas"));
}

}  // namespace sawtag::testing
