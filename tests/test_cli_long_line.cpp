// A raw line far longer than a chunk (100,000 words) is tokenized and tagged in parts
// (app/tag_chunk.cpp): its output is what the same sentences give on lines of their own, and
// -j never changes it.
#include <algorithm>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "sawtag/tokenizer.hpp"

using namespace sawtag::testing;

namespace {

// Sentences that the splitter ends where they end, of several shapes ("don't" is a multi-word
// token of the fixture's model).
const std::vector<std::string> kSentences = {"I saw a saw.",
                                             "The dog don't see it, do you?",
                                             "Mr. Smith went to Washington on Monday.",
                                             "She said \"no!\"",
                                             "Call me at 5:00 PM tomorrow (or later).",
                                             "The U.S. economy grew 3.5% in 2010 and 2011.",
                                             "Wow!!!",
                                             "What a long day it was for all of us."};

// At least `words` words of sentences, one after the other; `separator` between them.
std::string sentences_of(int words, const std::string& separator) {
  std::string text;
  int count = 0;
  for (std::size_t s = 0; count < words; ++s) {
    const std::string& sentence = kSentences[(s * 5) % kSentences.size()];
    if (!text.empty()) text += separator;
    text += sentence;
    count += static_cast<int>(std::count(sentence.begin(), sentence.end(), ' ')) + 1;
  }
  return text;
}

std::size_t words_in(const std::string& text_output) {
  std::size_t words = 0;
  for (const std::string& line : split_lines(text_output)) {
    if (!line.empty()) words += split_on(line, ' ').size();
  }
  return words;
}

}  // namespace

TEST_CASE_METHOD(CliFixture, "tag: a 100,000-word line gives what its sentences give on lines",
                 "[cli][batch]") {
  const std::string line = sentences_of(100000, " ");
  const std::string lines = sentences_of(100000, "\n");  // a line break is a space in a paragraph
  sawtag::TokenizerData data;
  data.multiword_tokens["don't"] = {"do", "n't"};
  std::size_t expected_words = 0;
  for (const sawtag::Sentence& sentence : sawtag::Tokenizer(data).tokenize(line)) {
    expected_words += sentence.words.size();
  }
  REQUIRE(expected_words > 100000);

  const RunResult one_line = tag({"-j", "1"}, line + "\n");
  REQUIRE(one_line.exit_code == 0);
  REQUIRE(split_lines(one_line.out).size() == 1);
  CHECK(words_in(one_line.out) == expected_words);
  const RunResult on_lines = tag({"-j", "1"}, lines + "\n");
  REQUIRE(on_lines.exit_code == 0);
  std::string joined;  // the lines' words and tags, on one line
  for (const std::string& output_line : split_lines(on_lines.out)) {
    joined += (joined.empty() ? "" : " ") + output_line;
  }
  CHECK(joined + "\n" == one_line.out);
  CHECK(tag({"-j", "2"}, line + "\n").out == one_line.out);

  // CoNLL-U shows every sentence: the same sentences, numbered on across the parts.
  const RunResult conllu = tag({"-f", "conllu", "-j", "2"}, line + "\n");
  REQUIRE(conllu.exit_code == 0);
  CHECK(conllu.out == tag({"-f", "conllu", "-j", "1"}, lines + "\n").out);
}

TEST_CASE_METHOD(CliFixture, "tag: several long lines, -j and formats never change the output",
                 "[cli][batch]") {
  const std::string long_line = sentences_of(30000, " ");
  std::string input;
  for (int i = 0; i < 3; ++i) input += long_line + "\nA short line.\n\n";
  for (const std::string format : {"text", "tsv", "conllu", "json"}) {
    const RunResult one = tag({"-f", format, "-j", "1"}, input);
    REQUIRE(one.exit_code == 0);
    for (const std::string threads : {"2", "3"}) {
      INFO("format " << format << ", -j " << threads);
      CHECK(tag({"-f", format, "-j", threads}, input).out == one.out);
    }
  }
}

TEST_CASE_METHOD(CliFixture,
                 "tag: a 20,000-word line without sentence ends, the same at -j 1 and 2",
                 "[cli][batch]") {
  // One sentence of 20,000 words: its windows are tagged on both threads with -j 2.
  const std::vector<std::string> forms = {"the", "dog",   "saw", "a",  "saw",  "and",
                                          "I",   "don't", "see", "it", "zebra"};
  std::string line;
  std::size_t words = 0;
  for (std::size_t i = 0; i < 20000; ++i) {
    const std::string& form = forms[(i * 7) % forms.size()];
    line += (i == 0 ? "" : " ") + form;
    words += form == "don't" ? 2 : 1;  // "do" "n't"
  }
  for (const std::string format : {"text", "conllu"}) {
    const RunResult one = tag({"-f", format, "-j", "1"}, line + "\n");
    REQUIRE(one.exit_code == 0);
    INFO("format " << format);
    if (format == "text") CHECK(words_in(one.out) == words);
    CHECK(tag({"-f", format, "-j", "2"}, line + "\n").out == one.out);
  }
}

TEST_CASE("tag: a long Chinese line without punctuation, the same at -j 1 and 2 (zh_gsd)",
          "[cli][batch][shipped]") {
  const std::string model = std::string(SAWTAG_SOURCE_DIR) + "/models/zh_gsd.json";
  // 12,000 characters (36 KB, three parts) of running text with no sentence end: the learned
  // tokenizer's windows and the tagger's are both spread over the threads with -j 2.
  const std::string phrase = "我看到一把鋸子在桌子上他們明天要去北京參加會議這個問題很難回答";
  std::string line;
  while (line.size() < 36000) line += phrase;
  const auto run = [&](const std::string& threads) {
    const RunResult result =
        run_sawtag({"tag", "-m", model, "-f", "conllu", "-j", threads}, line + "\n");
    REQUIRE(result.exit_code == 0);
    return result.out;
  };
  const std::string one = run("1");
  CHECK(one.find("\t鋸子\t") != std::string::npos);  // segmented into words, not characters
  CHECK(run("2") == one);
}

TEST_CASE("tag: long Chinese lines in a paragraph, parts pipelined on threads, as at -j 1 (zh_gsd)",
          "[cli][batch][shipped]") {
  const std::string model = std::string(SAWTAG_SOURCE_DIR) + "/models/zh_gsd.json";
  // Parts of 16 KB (app/tag_chunk.cpp) end mid-character here: 16,384 is no multiple of a
  // CJK character's 3 bytes, and the ASCII before shifts the characters by one byte; without
  // sentence ends they also cut words. With -j 2 and 3, part k + 1 is tokenized and part k - 1
  // written while part k is tagged; -j 1 runs the steps in turn. Two lines in one paragraph
  // (text and tsv write a line at a time, one going on across parts), a blank line, a short
  // paragraph, and a line with spaces and Latin words in it.
  const std::string phrase = "我看到一把鋸子在桌子上他們明天要去北京參加會議這個問題很難回答";
  const auto characters = [&](std::size_t bytes) {
    std::string line;
    while (line.size() < bytes) line += phrase;
    return line;
  };
  const std::string input = "a" + characters(40000) + "\n" + characters(20000) + "\n\n" +
                            "我看到一把鋸子。\n" + characters(9000) + " GPU 2026 " +
                            characters(12000) + "\n";
  const auto run = [&](const std::string& format, const std::string& threads) {
    const RunResult result = run_sawtag({"tag", "-m", model, "-f", format, "-j", threads}, input);
    REQUIRE(result.exit_code == 0);
    return result.out;
  };
  for (const std::string format : {"text", "tsv", "conllu", "json"}) {
    const std::string one = run(format, "1");
    if (format == "text") CHECK(split_lines(one).size() == 5);
    for (const std::string threads : {"2", "3"}) {
      INFO("format " << format << ", -j " << threads);
      CHECK(run(format, threads) == one);
    }
  }
}
