#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"

namespace sawtag {
namespace {

using Catch::Matchers::Equals;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<Sentence> read_all(const std::string& text, const std::string& source = "test.conllu") {
  std::istringstream in(text);
  ConlluReader reader(in, source);
  std::vector<Sentence> sentences;
  Sentence sentence;
  while (reader.next(sentence)) sentences.push_back(sentence);
  return sentences;
}

std::string write_all(const std::vector<Sentence>& sentences) {
  std::ostringstream out;
  for (const Sentence& sentence : sentences) write_conllu(out, sentence);
  return out.str();
}

// "3\tsaw\tsaw\tX\t_\t_\t_\t_\t_\t_": a valid line with the given ID and form.
std::string line(const std::string& id, const std::string& form = "w") {
  return id + "\t" + form + "\t" + form + "\tX\t_\t_\t_\t_\t_\t_\n";
}

// The message reading `text` gives, or "" when it reads fine.
std::string read_error(const std::string& text) {
  try {
    read_all(text, "bad.conllu");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("conllu: comments, multi-word tokens and empty nodes round-trip byte for byte",
          "[conllu]") {
  const std::string text = read_file(SAWTAG_TEST_DATA "/sample.conllu");
  const std::vector<Sentence> sentences = read_all(text);
  REQUIRE(sentences.size() == 3);
  CHECK(write_all(sentences) == text);

  const Sentence& first = sentences[0];
  CHECK(first.comments == std::vector<std::string>{"# newdoc id = sample-1", "# sent_id = 1",
                                                   "# text = I don't see it."});
  CHECK(comment_value(first, "text") == "I don't see it.");
  REQUIRE(first.words.size() == 6);
  CHECK(first.words[1].form == "do");
  CHECK(first.words[1].upos == "AUX");
  CHECK(first.words[1].xpos == "VBP");
  CHECK(first.words[4].misc == "SpaceAfter=No");
  REQUIRE(first.multiword_tokens.size() == 1);
  CHECK(first.multiword_tokens[0].first == 2);
  CHECK(first.multiword_tokens[0].last == 3);
  CHECK(first.multiword_tokens[0].token.form == "don't");
  CHECK(first.multiword_tokens[0].token.misc == "SpaceAfter=No");
  CHECK(first.empty_nodes.empty());

  const Sentence& second = sentences[1];
  REQUIRE(second.empty_nodes.size() == 2);
  CHECK(second.empty_nodes[0].after == 5);
  CHECK(second.empty_nodes[0].index == 1);
  CHECK(second.empty_nodes[0].node.form == "likes");
  CHECK(second.empty_nodes[0].node.deps == "2:conj");
  CHECK(second.empty_nodes[1].index == 2);
  CHECK(second.words.size() == 6);

  const Sentence& third = sentences[2];
  CHECK(third.comments.back() == "# comment with\ta tab and trailing space ");
  REQUIRE(third.empty_nodes.size() == 2);
  CHECK(third.empty_nodes[0].after == 0);
  CHECK(third.empty_nodes[1].after == 1);
  REQUIRE(third.multiword_tokens.size() == 2);
  CHECK(third.multiword_tokens[1].first == 3);
  CHECK(third.multiword_tokens[1].last == 4);
  CHECK(third.words[2].form == "à");
  CHECK(third.words[4].form == "_");  // a word written "_" is a word, not a missing form
}

TEST_CASE("conllu: a missing final blank line still ends the last sentence", "[conllu]") {
  const std::string text = line("1", "Hi") + line("2", "!");
  const std::vector<Sentence> sentences = read_all(text);
  REQUIRE(sentences.size() == 1);
  CHECK(sentences[0].words.size() == 2);
  CHECK(write_all(sentences) == text + "\n");
  // No final newline at all.
  const std::vector<Sentence> unterminated = read_all(text.substr(0, text.size() - 1));
  REQUIRE(unterminated.size() == 1);
  CHECK(unterminated[0].words[1].misc == "_");
}

TEST_CASE("conllu: several blank lines between sentences, and CRLF line ends", "[conllu]") {
  const std::string text = "\n\n" + line("1", "a") + "\n\n\n" + line("1", "b") + "\n\n";
  const std::vector<Sentence> sentences = read_all(text);
  REQUIRE(sentences.size() == 2);
  CHECK(sentences[1].words[0].form == "b");
  CHECK(read_all("").empty());
  CHECK(read_all("\n\n").empty());

  // CRLF: the '\r' is dropped, so the sentence is written back with LF.
  const std::string crlf =
      "# text = a "
      "b\r\n1\ta\ta\tX\t_\t_\t_\t_\t_\t_\r\n2\tb\tb\tX\t_\t_\t_\t_\t_\tSpaceAfter=No\r\n\r\n";
  const std::vector<Sentence> from_crlf = read_all(crlf);
  REQUIRE(from_crlf.size() == 1);
  CHECK(from_crlf[0].comments[0] == "# text = a b");
  CHECK(from_crlf[0].words[1].misc == "SpaceAfter=No");
  CHECK(write_all(from_crlf) ==
        "# text = a b\n1\ta\ta\tX\t_\t_\t_\t_\t_\t_\n2\tb\tb\tX\t_\t_\t_\t_\t_\tSpaceAfter=No\n\n");
}

// Found by fuzz_conllu_reader: with only one '\r' dropped, MISC "_\r" was written and read back
// as "_".
TEST_CASE("conllu: every trailing carriage return is dropped, so a line reads back the same",
          "[conllu]") {
  const std::vector<Sentence> sentences = read_all("1\ta\ta\tX\t_\t_\t_\t_\t_\t_\r\r\n");
  REQUIRE(sentences.size() == 1);
  CHECK(sentences[0].words[0].misc == "_");
  CHECK(read_all(write_all(sentences))[0].words[0].misc == "_");
}

TEST_CASE("conllu: a 20,000-word sentence reads and writes back", "[conllu]") {
  std::string text = "# sent_id = long\n";
  for (int i = 1; i <= 20000; ++i) text += line(std::to_string(i), "w" + std::to_string(i));
  text += "\n";
  const std::vector<Sentence> sentences = read_all(text);
  REQUIRE(sentences.size() == 1);
  REQUIRE(sentences[0].words.size() == 20000);
  CHECK(sentences[0].words[19999].form == "w20000");
  CHECK(write_all(sentences) == text);
}

TEST_CASE("conllu: the reader reports the line number of what it read", "[conllu]") {
  std::istringstream in(line("1") + "\n" + line("1") + line("2") + "\n");
  ConlluReader reader(in, "-");
  Sentence sentence;
  REQUIRE(reader.next(sentence));
  CHECK(reader.line_number() == 2);
  REQUIRE(reader.next(sentence));
  CHECK(sentence.words.size() == 2);
  CHECK(reader.line_number() == 5);
  CHECK_FALSE(reader.next(sentence));
}

// ---- One test per error, each naming file:line and quoting the line -----------------------

TEST_CASE("conllu error: wrong number of columns", "[conllu]") {
  CHECK_THAT(read_error("1\tI\tI\n"),
             Equals("bad.conllu:1: wrong number of columns: expected 10, got 3: '1\tI\tI'"));
  // Spaces are not column separators.
  CHECK_THAT(read_error(line("1") + "2 saw saw VERB VBD _ 0 root _ _\n"),
             Equals("bad.conllu:2: wrong number of columns: expected 10, got 1: "
                    "'2 saw saw VERB VBD _ 0 root _ _'"));
  CHECK_THAT(read_error("1\ta\ta\tX\t_\t_\t_\t_\t_\t_\textra\n"),
             Equals("bad.conllu:1: wrong number of columns: expected 10, got 11: "
                    "'1\ta\ta\tX\t_\t_\t_\t_\t_\t_\textra'"));
}

TEST_CASE("conllu error: a long offending line is quoted in part", "[conllu]") {
  const std::string long_form(200, 'x');
  CHECK_THAT(read_error("1\t" + long_form + "\n"),
             Equals("bad.conllu:1: wrong number of columns: expected 10, got 2: '1\t" +
                    long_form.substr(0, 78) + "...'"));
}

TEST_CASE("conllu error: bad ID", "[conllu]") {
  CHECK_THAT(read_error(line("one")), Equals("bad.conllu:1: bad ID 'one': '" +
                                             line("one").substr(0, line("one").size() - 1) + "'"));
  CHECK_THAT(read_error(line("01")), Catch::Matchers::StartsWith("bad.conllu:1: bad ID '01': "));
  CHECK_THAT(read_error(line("1-")), Catch::Matchers::StartsWith("bad.conllu:1: bad ID '1-': "));
  CHECK_THAT(read_error(line("1.x")), Catch::Matchers::StartsWith("bad.conllu:1: bad ID '1.x': "));
  CHECK_THAT(read_error(line("-1")), Catch::Matchers::StartsWith("bad.conllu:1: bad ID '-1': "));
}

TEST_CASE("conllu error: IDs not in sequence", "[conllu]") {
  CHECK_THAT(read_error(line("1") + line("2") + line("5")),
             Equals("bad.conllu:3: IDs not in sequence: expected 3, got 5: '" +
                    line("5").substr(0, line("5").size() - 1) + "'"));
  CHECK_THAT(read_error("# c\n" + line("2")),
             Catch::Matchers::StartsWith("bad.conllu:2: IDs not in sequence: expected 1, got 2: "));
  // Each sentence starts again at 1; line numbers count across sentences.
  CHECK_THAT(read_error(line("1") + line("2") + "\n" + line("1") + line("1")),
             Catch::Matchers::StartsWith("bad.conllu:5: IDs not in sequence: expected 2, got 1: "));
}

TEST_CASE("conllu error: reversed or overlapping multi-word ranges", "[conllu]") {
  CHECK_THAT(read_error(line("1") + line("3-2")),
             Catch::Matchers::StartsWith("bad.conllu:2: reversed or empty multi-word token range "
                                         "3-2: the last word must come after the first: '3-2\t"));
  CHECK_THAT(
      read_error(line("2-2")),
      Catch::Matchers::StartsWith("bad.conllu:1: reversed or empty multi-word token range 2-2"));
  CHECK_THAT(
      read_error(line("1-2") + line("1") + line("2-3")),
      Catch::Matchers::StartsWith("bad.conllu:3: multi-word token 2-3 overlaps 1-2: '2-3\t"));
  CHECK_THAT(read_error(line("1") + line("3-4") + line("2")),
             Catch::Matchers::StartsWith("bad.conllu:2: multi-word token 3-4 must come just before "
                                         "its first word: expected it to start at 2, got 3: "));
}

TEST_CASE("conllu error: a range not followed by its words", "[conllu]") {
  CHECK_THAT(read_error(line("1") + line("2-3", "don't") + line("2") + "\n"),
             Equals("bad.conllu:2: multi-word token 2-3 is not followed by its words: '" +
                    line("2-3", "don't").substr(0, line("2-3", "don't").size() - 1) + "'"));
  // The same at the end of the input, without a final blank line.
  CHECK_THAT(read_error(line("1-2")),
             Catch::Matchers::StartsWith(
                 "bad.conllu:1: multi-word token 1-2 is not followed by its words"));
}

TEST_CASE("conllu error: empty form and empty column", "[conllu]") {
  CHECK_THAT(read_error("1\t\tx\tX\t_\t_\t_\t_\t_\t_\n"),
             Equals("bad.conllu:1: empty FORM: '1\t\tx\tX\t_\t_\t_\t_\t_\t_'"));
  CHECK_THAT(read_error(line("1") + "2\tb\tb\t\t_\t_\t_\t_\t_\t_\n"),
             Equals("bad.conllu:2: empty column 4 (UPOS): '2\tb\tb\t\t_\t_\t_\t_\t_\t_'"));
  CHECK_THAT(read_error("1\ta\ta\tX\t_\t_\t_\t_\t_\t\n"),
             Catch::Matchers::StartsWith("bad.conllu:1: empty column 10 (MISC): "));
  CHECK_THAT(read_error("\ta\ta\tX\t_\t_\t_\t_\t_\t_\n"),
             Catch::Matchers::StartsWith("bad.conllu:1: empty column 1 (ID): "));
}

TEST_CASE("conllu error: empty nodes with bad numbering", "[conllu]") {
  CHECK_THAT(read_error(line("1") + line("2.1")),
             Catch::Matchers::StartsWith("bad.conllu:2: bad empty node numbering: expected 1.1, "
                                         "got 2.1: '2.1\t"));
  CHECK_THAT(
      read_error(line("1") + line("1.2")),
      Catch::Matchers::StartsWith("bad.conllu:2: bad empty node numbering: expected 1.1, got 1.2"));
  CHECK_THAT(
      read_error(line("1") + line("1.1") + line("1.1")),
      Catch::Matchers::StartsWith("bad.conllu:3: bad empty node numbering: expected 1.2, got 1.1"));
  CHECK_THAT(read_error(line("1") + line("2-3") + line("1.1")),
             Catch::Matchers::StartsWith("bad.conllu:3: bad empty node numbering: expected 1.1 "
                                         "before the multi-word token line, got 1.1"));
}

TEST_CASE("conllu error: comments inside a sentence and sentences without words", "[conllu]") {
  CHECK_THAT(read_error(line("1") + "# late\n"),
             Equals("bad.conllu:2: comment inside a sentence (comments must come before its first "
                    "word): '# late'"));
  CHECK_THAT(read_error(line("1") + "\n# only a comment\n\n"),
             Equals("bad.conllu:3: sentence has no words: '# only a comment'"));
  CHECK_THAT(read_error("# trailing comment at the end"),
             Equals("bad.conllu:1: sentence has no words: '# trailing comment at the end'"));
}

}  // namespace sawtag
