// `sawtag tag --input raw` paragraphs (docs/cli.md, `sawtag tag`) and `sawtag eval --raw`, end to
// end: a sentence may continue on the next line, text and tsv keep one output line per input line.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using sawtag::testing::CliFixture;
using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::split_lines;
using sawtag::testing::split_on;

// A sentence over lines 1-2, a blank line, a sentence on line 4.
const char* const kTwoLineSentence = "The dog saw\na cat.\n\nIt ran.\n";

std::vector<std::string> lines_starting_with(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : split_lines(text)) {
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  }
  return found;
}

// "I/PRON saw/VERB" -> "I saw".
std::string words_of(const std::string& text_line) {
  std::string words;
  for (const std::string& token : split_on(text_line, ' ')) {
    if (token.empty()) continue;
    if (!words.empty()) words += ' ';
    words += token.substr(0, token.rfind('/'));
  }
  return words;
}

}  // namespace

TEST_CASE_METHOD(CliFixture, "raw: a sentence over two lines is one sentence in CoNLL-U", "[cli]") {
  const RunResult result = tag({"-f", "conllu"}, kTwoLineSentence);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(lines_starting_with(result.out, "# sent_id") ==
        std::vector<std::string>{"# sent_id = 1", "# sent_id = 2"});
  CHECK(lines_starting_with(result.out, "# text") ==
        std::vector<std::string>{"# text = The dog saw a cat.", "# text = It ran."});
  CHECK(lines_starting_with(result.out, "# newpar").size() == 1);

  const RunResult jsonl = tag({"-f", "jsonl"}, kTwoLineSentence);
  REQUIRE(jsonl.exit_code == 0);
  const auto objects = split_lines(jsonl.out);
  REQUIRE(objects.size() == 2);
  CHECK(nlohmann::json::parse(objects[0])["words"].size() == 6);
}

TEST_CASE_METHOD(CliFixture, "raw: text and tsv keep one output line per input line", "[cli]") {
  const RunResult text = tag({}, kTwoLineSentence);
  INFO(text.err);
  REQUIRE(text.exit_code == 0);
  const auto lines = split_lines(text.out);
  REQUIRE(lines.size() == 4);
  CHECK(words_of(lines[0]) == "The dog saw");
  CHECK(words_of(lines[1]) == "a cat .");
  CHECK(lines[2].empty());
  CHECK(words_of(lines[3]) == "It ran .");

  const RunResult tsv = tag({"-f", "tsv", "--tags", "both"}, kTwoLineSentence);
  REQUIRE(tsv.exit_code == 0);
  const auto rows = split_lines(tsv.out);
  REQUIRE(rows.size() == 4);
  CHECK(split_on(rows[0], '\t').at(0) == "The dog saw");
  CHECK(split_on(rows[1], '\t').at(0) == "a cat .");
  CHECK(split_on(split_on(rows[1], '\t').at(2), ' ').size() == 3);
  CHECK(rows[2].empty());

  // Lines without words (spaces; a no-break space, which the tokenizer takes as space) and a
  // sentence over two lines, the last not ended by "\n".
  const RunResult spread = tag({}, "I\n  \nsaw\n\xC2\xA0\nit\nthen");
  REQUIRE(spread.exit_code == 0);
  const auto spread_lines = split_lines(spread.out);
  REQUIRE(spread_lines.size() == 6);
  CHECK(words_of(spread_lines[0]) == "I");
  CHECK(spread_lines[1].empty());
  CHECK(words_of(spread_lines[2]) == "saw");
  CHECK(spread_lines[3].empty());
  CHECK(words_of(spread_lines[4]) == "it");
  CHECK(words_of(spread_lines[5]) == "then");
}

TEST_CASE_METHOD(CliFixture, "raw: one sentence over two lines gets one attention entry", "[cli]") {
  const std::string attention = dir.file("attention.json");
  const RunResult result = tag({"--attention", attention}, "I saw\na saw\n");
  REQUIRE(result.exit_code == 0);
  CHECK(split_lines(result.out).size() == 2);
  const auto document = nlohmann::json::parse(sawtag::testing::read_file(attention));
  REQUIRE(document["sentences"].size() == 1);
  CHECK(document["sentences"][0]["words"] == nlohmann::json({"I", "saw", "a", "saw"}));
}

TEST_CASE_METHOD(CliFixture, "raw --sentence-per-line: every line break ends a sentence", "[cli]") {
  const RunResult result = tag({"--sentence-per-line", "-f", "conllu"}, kTwoLineSentence);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(lines_starting_with(result.out, "# text") ==
        std::vector<std::string>{"# text = The dog saw", "# text = a cat.", "# text = It ran."});
  CHECK(lines_starting_with(result.out, "# sent_id").size() == 3);

  const RunResult text = tag({"--sentence-per-line"}, kTwoLineSentence);
  REQUIRE(text.exit_code == 0);
  CHECK(split_lines(text.out).size() == 4);

  const RunResult tokenized = tag({"--sentence-per-line", "--input", "tokenized"}, "I saw\n");
  CHECK(tokenized.exit_code == 0);
  CHECK(tokenized.err.find("--sentence-per-line applies only to --input raw") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "raw: a paragraph longer than the cap is fully tagged", "[cli]") {
  // 10,010 lines in one paragraph (the cap is 10,000 lines); a sentence runs across line
  // 10,000, where the paragraph is cut.
  const std::size_t num_lines = 10010;
  std::string input;
  for (std::size_t i = 0; i < num_lines; ++i) {
    input += (i == 9998 || i == 9999) ? "and then\n" : "I saw it.\n";
  }
  const std::string path = dir.write("long.txt", input);
  const RunResult text = tag({path});
  INFO(text.err);
  REQUIRE(text.exit_code == 0);
  CHECK(text.err.empty());
  const auto lines = split_lines(text.out);
  REQUIRE(lines.size() == num_lines);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < num_lines; ++i) {
    const std::string expected = (i == 9998 || i == 9999) ? "and then" : "I saw it .";
    if (words_of(lines[i]) != expected) ++mismatches;
  }
  CHECK(mismatches == 0);

  const RunResult conllu = tag({"-f", "conllu", path});
  REQUIRE(conllu.exit_code == 0);
  std::size_t words = 0;
  for (const std::string& line : split_lines(conllu.out)) {
    if (!line.empty() && line[0] != '#') ++words;
  }
  CHECK(words == (num_lines - 2) * 4 + 2 * 2);
  // The cap ends the paragraph after line 10,000, cutting "and then and then I saw it." there.
  const auto texts = lines_starting_with(conllu.out, "# text");
  CHECK(std::count(texts.begin(), texts.end(), "# text = and then and then") == 1);
}

TEST_CASE_METHOD(CliFixture, "eval --raw: tokenizes the gold text and scores tokens", "[cli]") {
  const RunResult result =
      run_sawtag({"eval", "--raw", "-m", model, SAWTAG_TEST_DATA "/sample.conllu"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(!lines_starting_with(result.out, "Tokens").empty());
}
