// A dictionary of the language for the lemmas (Model::lemma_dictionary,
// sawtag/lemma_dictionary.hpp): its file's lines, the table made from it and the training
// treebank, the lemma choice's use of it, the model file's section and `sawtag lemma-tables
// --dictionary`.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "sawtag/error.hpp"
#include "sawtag/lemma_dictionary.hpp"
#include "tagging/lemma_choice.hpp"
#include "tiny_training.hpp"

namespace sawtag::testing {
namespace {

// The random tiny model with a lemma head of four rules: the form itself, strip two letters,
// strip one and add "e", and the absolute "go".
Model model_with_rules(std::vector<std::string> words = {"<unk>", "flee", "sing", "here", "go",
                                                         "cat", "fled"}) {
  Model model = make_random_model();
  model.words = Vocabulary(std::move(words), "words");
  model.lemma_rules =
      Vocabulary({"keep|0||0|", "keep|0||2|", "keep|0||1|e", "absolute|0|go|0|"}, "lemma rules");
  sync_vocabulary_sizes(model);
  model.parameters = zero_parameters(model.config);
  return model;
}

LemmaDictionarySource source_of(const std::vector<std::string>& lines) {
  LemmaDictionarySource source;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    source.add_line(lines[i], "d.tsv:" + std::to_string(i + 1));
  }
  return source;
}

}  // namespace

TEST_CASE("A dictionary file: entries, its notice, and a bad line refused by its place",
          "[lemma_dictionary]") {
  const LemmaDictionarySource source =
      source_of({"# WordNet 3.0", "#", "#  Copyright 2006", "", "sing\tVERB\tsing",
                 "sang\tVERB\tsing\r", "  \t "});
  REQUIRE(source.entries.size() == 2);
  CHECK(source.entries[1].form == "sang");
  CHECK(source.entries[1].upos == "VERB");
  CHECK(source.entries[1].lemma == "sing");
  CHECK(source.notice == "WordNet 3.0 Copyright 2006");
  LemmaDictionarySource bad;
  CHECK_THROWS_WITH(bad.add_line("sang\tVERB", "d.tsv:7"),
                    "d.tsv:7: expected form, UPOS and lemma separated by tabs, got 2 fields");
  CHECK_THROWS_WITH(bad.add_line("sang\tVERB\tsing\tx", "d.tsv:8"),
                    Catch::Contains("got 4 fields"));
  CHECK_THROWS_WITH(bad.add_line("sang\t\tsing", "d.tsv:9"), "d.tsv:9: the UPOS is empty");
  CHECK_THROWS_WITH(bad.add_line("ice cream\tNOUN\tice cream", "d.tsv:10"),
                    Catch::Contains("d.tsv:10: the form \"ice cream\" holds a space"));
  CHECK_THROWS_WITH(bad.add_line("sa\x01ng\tVERB\tsing", "d.tsv:11"),
                    Catch::Contains("d.tsv:11: the form") && Catch::Contains("U+0001"));
  CHECK_THROWS_WITH(bad.add_line("sang\tVERB\t\xFF", "d.tsv:12"),
                    Catch::Contains("d.tsv:12: the lemma"));
  CHECK(bad.entries.empty());
}

TEST_CASE(
    "The model's table: known lemmas of the vocabulary and the treebank, irregular forms "
    "the treebank lacks",
    "[lemma_dictionary]") {
  const Model model = model_with_rules();
  const LemmaDictionarySource source = source_of({
      "# made up",
      "flee\tVERB\tflee",      // known: a word of the vocabulary
      "sing\tVERB\tSing",      // known, lower-cased
      "trudge\tVERB\ttrudge",  // not a word of the vocabulary: not listed
      "fled\tVERB\tflee",      // the treebank has "fled" as a VERB: the head learned it
      "Sang\tVERB\tsing",      // irregular, lower-cased
      "sang\tVERB\tsang2",     // "sang" VERB again: the first counts
      "sang\tNOUN\tsang",      // the form itself is no irregular form
      "cats\tNOUN\tcat",       // a NOUN entry: NOUN is covered too
  });
  const std::vector<Sentence> treebank = {
      gold_with_morphology("I/PRON/PRP/I/_ fled/VERB/VBD/flee/_ regards/NOUN/NNS/regards/_"),
      gold_with_morphology("Went/VERB/VBD/go/_ there/ADV/RB/there/_")};
  const LemmaDictionary dictionary = make_lemma_dictionary(source, treebank, model);
  CHECK(dictionary.notice == "made up");
  CHECK(dictionary.lemmas ==
        std::map<std::string, std::string>{{"NOUN", "cat regards"}, {"VERB", "flee go sing"}});
  REQUIRE(dictionary.forms.size() == 2);
  CHECK(dictionary.forms[0].form == "cats");
  CHECK(dictionary.forms[1].form == "sang");
  CHECK(dictionary.forms[1].upos == "VERB");
  CHECK(dictionary.forms[1].lemma == "sing");
  CHECK(describe(dictionary) == "5 known lemmas (NOUN 2, VERB 3) and 2 irregular forms");
  SECTION("a UPOS the model does not tag") {
    const LemmaDictionarySource other = source_of({"sang\tVERBAL\tsing"});
    CHECK_THROWS_AS(make_lemma_dictionary(other, treebank, model), InputError);
    CHECK_THROWS_WITH(
        make_lemma_dictionary(other, treebank, model),
        Catch::Contains("\"VERBAL\"") && Catch::Contains("not one that the model tags"));
  }
  SECTION("a treebank without lemmas") {
    const std::vector<Sentence> bare = {gold_with_morphology("fled/VERB/VBD/_/_")};
    CHECK_THROWS_WITH(make_lemma_dictionary(source, bare, model),
                      Catch::Contains("the treebank has no lemmas"));
  }
}

TEST_CASE(
    "The lemma choice prefers a lemma the dictionary knows, within odds, and takes its "
    "irregular forms",
    "[lemma_dictionary][lemma_choice]") {
  // A vocabulary of two words, so that its own preferences (words over non-words) stay out of
  // the way: only the dictionary knows "flee", "here" and "go".
  Model model = model_with_rules({"<unk>", "fled", "cat"});
  model.lemma_dictionary.lemmas = {{"VERB", "flee go sing"}, {"NOUN", "cat here"}};
  model.lemma_dictionary.forms = {{"sang", "VERB", "sing"}};
  const LemmaChooser chooser(model);
  int rule = -2;
  // Rules: 0 the form itself, 1 strip two, 2 strip one and add "e", 3 absolute "go".
  SECTION("an edit into no word gives way to a known lemma at least 1e-4 as likely") {
    const float within[] = {-20.0f, 0.0f, -9.0f, -20.0f};  // "flee" 1.2e-4 as likely as "fl"
    const float beyond[] = {-20.0f, 0.0f, -9.5f, -20.0f};  // 7.5e-5
    CHECK(chooser.choose(within, 1.0f, "fled", "VERB", "VBD", rule) == "flee");
    CHECK(rule == 2);
    CHECK(chooser.choose(beyond, 1.0f, "fled", "VERB", "VBD", rule) == "fl");
    CHECK(rule == 1);
    // The temperature scales the odds.
    CHECK(chooser.choose(beyond, 2.0f, "fled", "VERB", "VBD", rule) == "flee");
    // Only for a UPOS the dictionary covers.
    CHECK(chooser.choose(within, 1.0f, "fled", "ADV", "RB", rule) == "fl");
    // Without a dictionary, the rules alone.
    const Model plain = model_with_rules({"<unk>", "fled", "cat"});
    CHECK(LemmaChooser(plain).choose(within, 1.0f, "fled", "VERB", "VBD", rule) == "fl");
  }
  SECTION("a form that is its own lemma gives way only to a lemma at least 1 % as likely") {
    const float within[] = {0.0f, -4.5f, -20.0f, -20.0f};  // "here" 1.1 % as likely as "herein"
    const float beyond[] = {0.0f, -4.7f, -20.0f, -20.0f};  // 0.9 %
    CHECK(chooser.choose(within, 1.0f, "herein", "NOUN", "NN", rule) == "here");
    CHECK(rule == 1);
    CHECK(chooser.choose(beyond, 1.0f, "herein", "NOUN", "NN", rule) == "herein");
    CHECK(rule == 0);
  }
  SECTION("a known lemma stays, and an absolute rule is never taken for the dictionary") {
    const float likely_go[] = {0.0f, -20.0f, -20.0f, -0.1f};
    CHECK(chooser.choose(likely_go, 1.0f, "cat", "NOUN", "NN", rule) == "cat");
    CHECK(rule == 0);
    const float strip_or_go[] = {-20.0f, 0.0f, -20.0f, -6.0f};  // "go" 0.25 % as likely
    CHECK(chooser.choose(strip_or_go, 1.0f, "xyzzed", "VERB", "VBD", rule) == "xyzz");
    CHECK(rule == 1);
  }
  SECTION("an irregular form's lemma, whatever the rules, in any casing, for its UPOS") {
    const float strip[] = {-20.0f, 0.0f, -20.0f, -20.0f};
    CHECK(chooser.choose(strip, 1.0f, "sang", "VERB", "VBD", rule) == "sing");
    CHECK(chooser.choose(strip, 1.0f, "SANG", "VERB", "VBD", rule) == "sing");
    CHECK(chooser.choose(strip, 1.0f, "sang", "NOUN", "NN", rule) == "sa");
  }
  SECTION("the treebank's lemma lexicon still has the last word") {
    model.lemma_lexicon = {{"sang", "VERB", "VBD", "sang-lexicon"}};
    const LemmaChooser with_lexicon(model);
    const float strip[] = {-20.0f, 0.0f, -20.0f, -20.0f};
    CHECK(with_lexicon.choose(strip, 1.0f, "sang", "VERB", "VBD", rule) == "sang-lexicon");
  }
}

TEST_CASE("The dictionary is saved in the model file, at version 8", "[lemma_dictionary]") {
  Model model = model_with_rules();
  model.lemma_casing = "Kerala";
  const auto version_of = [](const std::string& text) {
    return nlohmann::json::parse(text).at("version").get<int>();
  };
  CHECK(version_of(serialize_model(model)) == kModelVersionWithoutLemmaDictionary);
  model.lemma_dictionary.notice = "WordNet 3.0";
  model.lemma_dictionary.lemmas = {{"VERB", "flee sing"}, {"NOUN", "cat"}};
  model.lemma_dictionary.forms = {{"sang", "VERB", "sing"}, {"mice", "NOUN", "mouse"}};
  const std::string text = serialize_model(model);
  CHECK(version_of(text) == kModelVersion);
  const Model loaded = parse_model(text, "m.json");
  CHECK(loaded.lemma_dictionary.notice == "WordNet 3.0");
  CHECK(loaded.lemma_dictionary.lemmas == model.lemma_dictionary.lemmas);
  REQUIRE(loaded.lemma_dictionary.forms.size() == 2);
  CHECK(loaded.lemma_dictionary.forms[1].lemma == "mouse");
  const auto with_dictionary = [&](const std::string& section) {
    return with_section(text, "lemma_dictionary", section);
  };
  CHECK(parse_model(with_dictionary(R"({"lemmas": {}, "forms": []})"), "m.json")
            .lemma_dictionary.empty());
  CHECK_THROWS_WITH(
      parse_model(with_dictionary(R"({"lemmas": {"VERBAL": "go"}, "forms": []})"), "m.json"),
      Catch::Contains("m.json: lemma_dictionary.lemmas.VERBAL: 'VERBAL' is not in tag_sets.upos"));
  CHECK_THROWS_WITH(
      parse_model(with_dictionary(R"({"lemmas": {"VERB": "go  sing"}, "forms": []})"), "m.json"),
      Catch::Contains("lemma_dictionary.lemmas.VERB: lemma 2 is empty"));
  CHECK_THROWS_WITH(
      parse_model(with_dictionary(R"({"lemmas": {}, "forms": [["sang", "VERB"]]})"), "m.json"),
      Catch::Contains("lemma_dictionary.forms[0]: expected [form, UPOS, lemma]"));
  CHECK_THROWS_WITH(
      parse_model(with_dictionary(R"({"lemmas": {}, "forms": [["sang", "VERBAL", "sing"]]})"),
                  "m.json"),
      Catch::Contains("lemma_dictionary.forms[0]: 'VERBAL' is not in tag_sets.upos"));
  CHECK_THROWS_WITH(parse_model(with_dictionary(R"({"forms": []})"), "m.json"),
                    Catch::Contains("lemma_dictionary") && Catch::Contains("lemmas"));
  SECTION("what the reader would refuse is not written") {
    model.lemma_dictionary.lemmas["VERB"] = "flee ";
    CHECK_THROWS_WITH(serialize_model(model),
                      Catch::Contains("cannot save the model: lemma_dictionary.lemmas.VERB"));
  }
  SECTION("only with a lemma head") {
    std::string plain = serialize_model(make_random_model());
    plain.insert(plain.rfind(" \"tensors\""),
                 " \"lemma_dictionary\": {\"lemmas\": {}, \"forms\": []},\n");
    CHECK_THROWS_WITH(parse_model(plain, "m.json"),
                      Catch::Contains("lemma_dictionary: the model has no tag_sets.lemma_rules"));
  }
}

TEST_CASE_METHOD(CliFixture, "sawtag lemma-tables --dictionary adds a dictionary to a model",
                 "[cli][lemma_dictionary]") {
  const std::string lemmas = dir.file("lemmas.json");
  save_model(model_with_rules(), lemmas);
  const std::string treebank =
      dir.write("train.conllu", "1\tWent\tgo\tVERB\tVBD\t_\t0\troot\t_\t_\n\n");
  const std::string dictionary =
      dir.write("dict.tsv", "# A made-up dictionary\nflee\tVERB\tflee\nsang\tVERB\tsing\n");
  const std::string out = dir.file("with-dictionary.json");
  SECTION("made and saved") {
    const RunResult result = run_sawtag({"lemma-tables", "-m", lemmas, "--treebank", treebank,
                                         "--dictionary", dictionary, "-o", out});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.err,
               Catch::Contains("3 known lemmas (VERB 3) and 1 irregular forms from dict.tsv"));
    const Model model = load_model(out);
    CHECK(model.lemma_dictionary.lemmas.at("VERB") == "flee go sing");
    const RunResult info = run_sawtag({"info", "-m", out});
    CHECK_THAT(info.out, Catch::Contains("lemma dictionary: 3 known lemmas (VERB 3) and 1 "
                                         "irregular forms\nlemma dictionary notice: A made-up "
                                         "dictionary\n"));
  }
  SECTION("bad input") {
    const RunResult no_treebank =
        run_sawtag({"lemma-tables", "-m", lemmas, "--dictionary", dictionary, "-o", out});
    CHECK(no_treebank.exit_code == 2);
    CHECK_THAT(no_treebank.err, Catch::Contains("needs --treebank"));
    const std::string bad = dir.write("bad.tsv", "flee\tVERB\tflee\nsang VERB sing\n");
    const RunResult bad_line = run_sawtag(
        {"lemma-tables", "-m", lemmas, "--treebank", treebank, "--dictionary", bad, "-o", out});
    CHECK(bad_line.exit_code == 1);
    CHECK_THAT(bad_line.err, Catch::Contains("bad.tsv:2: expected form, UPOS and lemma"));
    const RunResult missing = run_sawtag({"lemma-tables", "-m", lemmas, "--treebank", treebank,
                                          "--dictionary", dir.file("none.tsv"), "-o", out});
    CHECK(missing.exit_code == 1);
    CHECK_THAT(missing.err, Catch::Contains("none.tsv"));
    const RunResult empty =
        run_sawtag({"lemma-tables", "-m", lemmas, "--treebank", treebank, "--dictionary",
                    dir.write("empty.tsv", "# nothing\n"), "-o", out});
    CHECK(empty.exit_code == 1);
    CHECK_THAT(empty.err, Catch::Contains("empty.tsv: no entries"));
    const RunResult over_input = run_sawtag({"lemma-tables", "-m", lemmas, "--treebank", treebank,
                                             "--dictionary", dictionary, "-o", dictionary});
    CHECK(over_input.exit_code == 1);
    CHECK_THAT(over_input.err, Catch::Contains("would overwrite the input"));
    CHECK_FALSE(std::ifstream(out).good());
  }
}

}  // namespace sawtag::testing
