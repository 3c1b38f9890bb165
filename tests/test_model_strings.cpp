// What a model file's strings may hold (lib/src/io/model_strings.cpp), and that any model the
// loader lets through gives well-formed output in every format.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "io/model_strings.hpp"
#include "output_checks.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tokenizer.hpp"

namespace sawtag {

using model_strings::is_one_code_point;
using model_strings::tag_problem;
using model_strings::text_problem;
using model_strings::word_problem;

TEST_CASE("model strings: valid UTF-8 without control characters", "[model_strings]") {
  CHECK(text_problem("").empty());
  CHECK(text_problem("caf\xC3\xA9 \xF0\x9F\x91\x8D").empty());
  CHECK(text_problem("a\tb") == "holds the control character U+0009 at byte 1");
  CHECK(text_problem(std::string("a\0b", 3)) == "holds the control character U+0000 at byte 1");
  CHECK(text_problem("a\x7F") == "holds the control character U+007F at byte 1");
  CHECK(text_problem("\xC2\x85") == "holds the control character U+0085 at byte 0");
  CHECK(text_problem("x\xE2\x80\xA9") == "holds the control character U+2029 at byte 1");
  CHECK(text_problem("ab\xFF") == "is not valid UTF-8 at byte 2");
  CHECK(text_problem("\xC0\xAF") == "is not valid UTF-8 at byte 0");      // overlong '/'
  CHECK(text_problem("\xED\xA0\x80") == "is not valid UTF-8 at byte 0");  // a surrogate
}

TEST_CASE("model strings: tags and words the outputs can carry", "[model_strings]") {
  CHECK(tag_problem("NOUN").empty());
  CHECK(tag_problem("_").empty());
  CHECK(tag_problem("N/N").empty());
  CHECK(tag_problem("") == "is empty");
  CHECK(tag_problem("A B") == "holds a space (U+0020) at byte 1");
  CHECK(tag_problem("A\xE3\x80\x80") == "holds a space (U+3000) at byte 1");
  CHECK(tag_problem("A\nB") == "holds the control character U+000A at byte 1");
  CHECK(word_problem("de la").empty());
  CHECK(word_problem("") == "is empty");
  CHECK(word_problem("do\n") == "holds the control character U+000A at byte 2");
  CHECK(is_one_code_point("a"));
  CHECK(is_one_code_point("\xE6\x97\xA5"));
  CHECK_FALSE(is_one_code_point(""));
  CHECK_FALSE(is_one_code_point("ab"));
  CHECK_FALSE(is_one_code_point("\xFF"));
}

TEST_CASE("model strings: a model that loads gives well-formed output in every format",
          "[model_strings]") {
  // The strangest strings the loader accepts: "_", a slash, non-ASCII tags, an expansion
  // with a space, and an expansion that is a word of the text.
  Model model = testing::make_random_model();
  model.xpos = Vocabulary({"_", "N/N", "\xC3\x84X", "$", "``", "''", "-LRB-", "NN", "VB"}, "xpos");
  model.tokenizer.multiword_tokens["dela"] = {"de la", "x"};
  model.tokenizer.multiword_tokens["don't"] = {"do", "n't"};
  const auto loaded = std::make_shared<const Model>(parse_model(serialize_model(model), "m.json"));
  const Tagger tagger(loaded);
  const std::vector<Sentence> sentences =
      Tokenizer(loaded->tokenizer).tokenize("I don't see dela saw, \"caf\xC3\xA9\" (x) .");
  REQUIRE(sentences.size() == 1);
  REQUIRE(sentences[0].multiword_tokens.size() == 2);
  for (OutputFormat format : {OutputFormat::text, OutputFormat::tsv, OutputFormat::conllu,
                              OutputFormat::json, OutputFormat::jsonl}) {
    INFO("format " << static_cast<int>(format));
    CHECK(testing::output_problem(tagger, sentences[0], format).empty());
  }
  // The check can fail: tags with a tab, which the loader refuses, break CoNLL-U's columns.
  Model broken = model;
  std::vector<std::string> tabbed;
  for (int i = 0; i < broken.xpos.size(); ++i) tabbed.push_back("X\t" + std::to_string(i));
  broken.xpos = Vocabulary(tabbed, "xpos");
  CHECK_THROWS_AS(parse_model(serialize_model(broken), "broken.json"), ModelError);
  const Tagger broken_tagger(std::make_shared<const Model>(broken));
  CHECK(testing::output_problem(broken_tagger, sentences[0], OutputFormat::conllu) ==
        "conllu: a row without 10 columns");
}

}  // namespace sawtag
