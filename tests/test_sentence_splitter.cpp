#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sawtag/tokenizer.hpp"

namespace sawtag {
namespace {

// The "# text" of each sentence, joined by " | ".
std::string sentence_texts(const std::vector<Sentence>& sentences) {
  std::string result;
  for (const Sentence& sentence : sentences) {
    if (!result.empty()) result += " | ";
    result += comment_value(sentence, "text");
  }
  return result;
}

struct Case {
  const char* rule;
  const char* text;
  const char* expected;
};

TEST_CASE("sentences end at . ! ? and runs of them", "[sentence_splitter]") {
  const Case cases[] = {
      {". ! ?", "I came. I saw! Did I win?", "I came. | I saw! | Did I win?"},
      {"runs", "No way!!! Really?! Yes.", "No way!!! | Really?! | Yes."},
      {"lower-case start still splits", "it works. thanks", "it works. | thanks"},
      {"closing quote stays", "He said \"no.\" Then he left.", "He said \"no.\" | Then he left."},
      {"closing bracket stays", "(It was late.) We left.", "(It was late.) | We left."},
      {"Unicode closing quote", "\xE2\x80\x9CGo!\xE2\x80\x9D She went.",
       "\xE2\x80\x9CGo!\xE2\x80\x9D | She went."},
      {"Unicode ellipsis before a capital", "Well\xE2\x80\xA6 We tried.",
       "Well\xE2\x80\xA6 | We tried."},
      {"ellipsis before lower case goes on", "Wait... what is it?", "Wait... what is it?"},
      {"spaced ellipsis is one", "in the region . . . This one.",
       "in the region . . . | This one."},
      {"emoticon after the end stays", "I love her. :) I have a dog.",
       "I love her. :) | I have a dog."},
      {"emoticon before a capital ends", "great stuff :-) See you", "great stuff :-) | See you"},
  };
  const Tokenizer tokenizer;
  for (const Case& test : cases) {
    INFO(test.rule << ": " << test.text);
    CHECK(sentence_texts(tokenizer.tokenize(test.text)) == test.expected);
  }
}

TEST_CASE("no sentence end inside abbreviations, numbers, URLs, addresses, file names",
          "[sentence_splitter]") {
  const Case cases[] = {
      {"titles", "Mr. Smith met Dr. Jones.", "Mr. Smith met Dr. Jones."},
      {"dotted abbreviation", "The U.S. Army is here. It came.",
       "The U.S. Army is here. | It came."},
      {"e.g.", "Fruit, e.g. Apples, is good.", "Fruit, e.g. Apples, is good."},
      {"a.m.", "At 9 a.m. we met.", "At 9 a.m. we met."},
      {"initial", "John F. Kennedy spoke.", "John F. Kennedy spoke."},
      {"No. before a number", "It is No. 5 now.", "It is No. 5 now."},
      {"No. as an answer", "No. I won't.", "No. | I won't."},
      {"I is no initial", "He is taller than I. We know.", "He is taller than I. | We know."},
      {"number", "It costs 3.50 dollars. Cheap.", "It costs 3.50 dollars. | Cheap."},
      {"URL", "See www.example.com/a.html for more. Bye.",
       "See www.example.com/a.html for more. | Bye."},
      {"URL at the end", "Go to http://x.org. Now.", "Go to http://x.org. | Now."},
      {"e-mail address", "Write to Jo.Doe@mail.com. Today.", "Write to Jo.Doe@mail.com. | Today."},
      {"file name", "Open Notes.doc Now.", "Open Notes.doc Now."},
      {"emoticon with a period", "Ok :-P fine", "Ok :-P fine"},
  };
  const Tokenizer tokenizer;
  for (const Case& test : cases) {
    INFO(test.rule << ": " << test.text);
    CHECK(sentence_texts(tokenizer.tokenize(test.text)) == test.expected);
  }
}

TEST_CASE("etc. at the end of a sentence gives its period back", "[sentence_splitter]") {
  const Tokenizer tokenizer;
  const std::vector<Sentence> sentences = tokenizer.tokenize("Eggs, milk, etc. Then we ate.");
  REQUIRE(sentences.size() == 2);
  REQUIRE(sentences[0].words.size() == 6);
  CHECK(sentences[0].words[4].form == "etc");
  CHECK(sentences[0].words[4].misc == "SpaceAfter=No");
  CHECK(sentences[0].words[5].form == ".");
  CHECK(sentences[0].word_spans[5].begin == 15);
  CHECK(comment_value(sentences[0], "text") == "Eggs, milk, etc.");

  const std::vector<Sentence> middle = tokenizer.tokenize("Eggs, etc. are fine.");
  REQUIRE(middle.size() == 1);
  CHECK(middle[0].words[2].form == "etc.");
}

TEST_CASE("line breaks: a blank line always ends a sentence, one line break does not",
          "[sentence_splitter]") {
  const std::string text = "First line\r\nsame sentence\n\nNew paragraph\r\n\r\nThird";
  const Tokenizer tokenizer;
  const std::vector<Sentence> sentences = tokenizer.tokenize(text);
  CHECK(sentence_texts(sentences) == "First line same sentence | New paragraph | Third");
  REQUIRE(sentences.size() == 3);
  CHECK(comment_value(sentences[0], "newpar").empty());
  CHECK(sentences[1].comments.front() == "# newpar");
  CHECK(sentences[2].comments.front() == "# newpar");

  TokenizerOptions options;
  options.sentence_per_line = true;
  const Tokenizer per_line(TokenizerData{}, options);
  CHECK(sentence_texts(per_line.tokenize(text)) ==
        "First line | same sentence | New paragraph | Third");
  CHECK(sentence_texts(per_line.tokenize("He left.\n\"Bye\"")) == "He left. | \"Bye\"");
}

TEST_CASE("e-mail headers: a date and time stand alone", "[sentence_splitter]") {
  const Tokenizer tokenizer;
  CHECK(sentence_texts(tokenizer.tokenize("Kay Mann 04/26/2001 07:17 AM Will you come?")) ==
        "Kay Mann | 04/26/2001 07:17 AM | Will you come?");
  CHECK(sentence_texts(tokenizer.tokenize("Thanks ===== Next")) == "Thanks | ===== | Next");
}

}  // namespace
}  // namespace sawtag
