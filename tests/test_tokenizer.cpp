#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "sawtag/tokenizer.hpp"

namespace sawtag {
namespace {

// Sentences written compactly: tokens separated by spaces, a multi-word token as
// "token=word+word", sentences separated by " | ". "Don't go." -> "Don't=Do+n't go ."
std::string render(const std::vector<Sentence>& sentences) {
  std::string result;
  for (const Sentence& sentence : sentences) {
    if (!result.empty()) result += " | ";
    std::string line;
    std::size_t next_token = 0;
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
      if (!line.empty()) line += ' ';
      const int id = static_cast<int>(i) + 1;
      if (next_token < sentence.multiword_tokens.size() &&
          sentence.multiword_tokens[next_token].first == id) {
        const MultiwordToken& token = sentence.multiword_tokens[next_token++];
        line += token.token.form + "=";
        for (int word = token.first; word <= token.last; ++word) {
          line += (word == token.first ? "" : "+") + sentence.words[word - 1].form;
        }
        i = static_cast<std::size_t>(token.last) - 1;
        continue;
      }
      line += sentence.words[i].form;
    }
    result += line;
  }
  return result;
}

// A small table as learn_tokenizer_data would make it from EWT.
TokenizerData english_data() {
  TokenizerData data;
  data.multiword_tokens = {{"cannot", {"can", "not"}},
                           {"gonna", {"gon", "na"}},
                           {"dont", {"do", "nt"}},
                           {"wanna", {"wan", "na"}}};
  data.abbreviations = {"Sept.", "Attn."};
  return data;
}

struct Case {
  const char* rule;
  const char* text;
  const char* expected;
};

TEST_CASE("tokenize follows UD English EWT", "[tokenizer]") {
  const Case cases[] = {
      {"punctuation split off", "Hello, world!", "Hello , world !"},
      {"quotes and brackets", "(\"Yes,\" she said.)", "( \" Yes , \" she said . )"},
      {"clitic n't keeps casing", "Don't go.", "Don't=Do+n't go ."},
      {"clitic 'm", "I'm here", "I'm=I+'m here"},
      {"clitic 're 've 'll 'd", "we're you've he'll they'd",
       "we're=we+'re you've=you+'ve he'll=he+'ll they'd=they+'d"},
      {"can't -> ca n't", "I can't", "I can't=ca+n't"},
      {"won't upper case", "WON'T", "WON'T=WO+N'T"},
      {"cannot from the table", "Cannot stop", "Cannot=Can+not stop"},
      {"gonna from the table", "I'm gonna go", "I'm=I+'m gonna=gon+na go"},
      {"dont from the table", "i dont know", "i dont=do+nt know"},
      {"negation without apostrophe", "I havent, it isnt", "I havent=have+nt , it isnt=is+nt"},
      {"its for it's before 'a', 'not'...", "Its a deal, its not",
       "Its=It+s a deal , its=it+s not"},
      {"possessive its stays", "its color", "its color"},
      {"possessive 's", "Bush's plan", "Bush's=Bush+'s plan"},
      {"plural possessive", "the parents' car", "the parents'=parents+' car"},
      {"curly apostrophe", "it\xE2\x80\x99s", "it\xE2\x80\x99s=it+\xE2\x80\x99s"},
      {"apostrophe inside a name", "O'Brien at 5 o'clock", "O'Brien at 5 o'clock"},
      {"quoted word is not a possessive", "'dogs'", "' dogs '"},
      {"hyphen split", "a search-engine user", "a search - engine user"},
      {"prefix kept: e-mail", "send an e-mail", "send an e-mail"},
      {"prefix kept: non-", "non-profit", "non-profit"},
      {"dash runs", "wait--what", "wait -- what"},
      {"URL", "see http://example.com/a_(b).html.", "see http://example.com/a_(b).html ."},
      {"www URL in brackets", "(www.example.org)", "( www.example.org )"},
      {"e-mail address", "<john.doe@example.com>", "< john.doe@example.com >"},
      {"Enron address", "Kay.Mann@ENRON wrote", "Kay.Mann@ENRON wrote"},
      {"handle and hashtag", "@sawtag loves #nlp", "@sawtag loves #nlp"},
      {"hash before a number", "#9", "# 9"},
      {"emoticons", "great :) thanks:-)", "great :) thanks :-)"},
      {"thousands and decimals", "$1,000.50", "$ 1,000.50"},
      {"percent", "50%", "50 %"},
      {"time and unit", "at 5:30pm", "at 5:30 pm"},
      {"date", "on 12/31/2001", "on 12/31/2001"},
      {"phone number", "call 555-1234", "call 555-1234"},
      {"range split", "1969-1970", "1969 - 1970"},
      {"ordinal and decade", "the 21st century, the 1990s", "the 21st century , the 1990s"},
      {"decade with apostrophe", "the 70's", "the 70's"},
      {"plus sign", "+1 for that", "+1 for that"},
      {"abbreviations", "Mr. Smith saw Dr. Who", "Mr. Smith saw Dr. Who"},
      {"dotted abbreviations", "U.S. troops, e.g. here", "U.S. troops , e.g. here"},
      {"learned abbreviation", "Attn. Bob", "Attn. Bob"},
      {"initial", "John F. Kennedy", "John F. Kennedy"},
      {"file name", "open notes.doc now", "open notes.doc now"},
      {"bare extension", "the .doc file", "the .doc file"},
      {"file name with digits and hyphens", "see 02-05-02.doc.", "see 02-05-02.doc ."},
      {"@ before a price", "@2.975", "@ 2.975"},
      {"domain", "galleryfurniture.com rocks", "galleryfurniture.com rocks"},
      {"ampersand in a name", "AT&T", "AT&T"},
      {"slash between words", "and/or w/o", "and / or w/o"},
      {"ellipsis inside", "well...maybe", "well ... maybe"},
      {"exclamation run", "wow!!!", "wow !!!"},
      {"ellipsis then question", "really...?", "really ... ?"},
      {"Unicode quotes", "\xE2\x80\x9CHi\xE2\x80\x9D", "\xE2\x80\x9C Hi \xE2\x80\x9D"},
      {"Unicode single quotes", "\xE2\x80\x98ok\xE2\x80\x99", "\xE2\x80\x98 ok \xE2\x80\x99"},
      {"en and em dash", "yes\xE2\x80\x94no \xE2\x80\x93 maybe",
       "yes \xE2\x80\x94 no \xE2\x80\x93 maybe"},
      {"Unicode ellipsis", "so\xE2\x80\xA6", "so \xE2\x80\xA6"},
      {"accented letters", "caf\xC3\xA9s", "caf\xC3\xA9s"},
      {"dollar signs", "$$$", "$$$"},
      {"EWT writes alot as two tokens", "alot", "a lot"},
  };
  const Tokenizer tokenizer(english_data());
  for (const Case& test : cases) {
    INFO(test.rule << ": " << test.text);
    CHECK(render(tokenizer.tokenize(test.text)) == test.expected);
  }
}

TEST_CASE("tokenize: SpaceAfter=No and byte spans", "[tokenizer]") {
  const Tokenizer tokenizer;
  const std::string text = "I'm \xC3\xA9t\xC3\xA9, ok";
  const std::vector<Sentence> sentences = tokenizer.tokenize(text);
  REQUIRE(sentences.size() == 1);
  const Sentence& sentence = sentences[0];
  REQUIRE(sentence.words.size() == 5);  // I 'm été , ok
  REQUIRE(sentence.multiword_tokens.size() == 1);
  CHECK(sentence.multiword_tokens[0].token.misc == "_");
  CHECK(sentence.words[2].misc == "SpaceAfter=No");
  CHECK(sentence.words[3].misc == "_");
  const std::vector<std::pair<std::size_t, std::size_t>> expected_spans = {
      {0, 3}, {0, 3}, {4, 9}, {9, 10}, {11, 13}};
  for (std::size_t i = 0; i < expected_spans.size(); ++i) {
    CHECK(sentence.word_spans[i].begin == expected_spans[i].first);
    CHECK(sentence.word_spans[i].end == expected_spans[i].second);
  }
  CHECK(comment_value(sentence, "text") == text);
}

TEST_CASE("tokenize: invalid UTF-8 becomes U+FFFD and is reported", "[tokenizer]") {
  const Tokenizer tokenizer;
  TokenizerReport report;
  const std::string text = "caf\xE9 ok \xFF\xFE!";
  const std::vector<Sentence> sentences = tokenizer.tokenize(text, report);
  CHECK(report.invalid_utf8_sequences == 2);
  CHECK(render(sentences) == "caf\xEF\xBF\xBD ok \xEF\xBF\xBD !");
  // "# text" is valid UTF-8 too.
  CHECK(comment_value(sentences[0], "text") == "caf\xEF\xBF\xBD ok \xEF\xBF\xBD!");
  REQUIRE(sentences.size() == 1);
  CHECK(sentences[0].word_spans[0].begin == 0);
  CHECK(sentences[0].word_spans[0].end == 4);  // the bad byte counts in the original text
  CHECK(sentences[0].word_spans[2].begin == 8);
  CHECK(sentences[0].word_spans[2].end == 10);

  SECTION("truncated sequences and stray continuation bytes never crash") {
    const std::string broken[] = {"\xC3", "\xE2\x80", "\x80\x80x", "a\xF0\x9F\x98", "\xED\xA0\x80"};
    for (const std::string& input : broken) {
      TokenizerReport broken_report;
      CHECK_NOTHROW(tokenizer.tokenize(input, broken_report));
      CHECK(broken_report.invalid_utf8_sequences >= 1);
    }
  }
}

TEST_CASE("tokenize: invisible characters separate words, emoji sequences stay whole",
          "[tokenizer]") {
  const Tokenizer tokenizer;
  // Controls, a byte-order mark and direction marks are never words, nor part of one.
  using namespace std::string_literals;  // the text holds a NUL
  const std::vector<Sentence> controls = tokenizer.tokenize("\xEF\xBB\xBFI\x01saw\x1B a\0saw"s);
  CHECK(render(controls) == "I saw a saw");
  CHECK(comment_value(controls[0], "text") == "I saw  a saw");  // a control becomes a space
  CHECK(render(tokenizer.tokenize("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \xE2\x80\x8Fhi")) ==
        "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D hi");
  // "👩‍💻" (woman, zero-width joiner, laptop), "👍🏽" (thumbs up, skin tone), "🇺🇸" (a
  // flag), "❤️" (with a variation selector): one token each.
  const std::string coder = "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB";
  const std::string thumbs_up = "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD";
  const std::string flag = "\xF0\x9F\x87\xBA\xF0\x9F\x87\xB8";
  const std::string heart = "\xE2\x9D\xA4\xEF\xB8\x8F";
  CHECK(render(tokenizer.tokenize("I " + heart + coder + thumbs_up + flag + "!")) ==
        "I " + heart + " " + coder + " " + thumbs_up + " " + flag + " !");
  // Combining marks stay inside their word.
  CHECK(render(tokenizer.tokenize("cafe\xCC\x81 nai\xCC\x88ve.")) ==
        "cafe\xCC\x81 nai\xCC\x88ve .");
}

TEST_CASE("tokenize: a 1 MB word and a 100,000-word line", "[tokenizer]") {
  const Tokenizer tokenizer;
  const std::string long_word(1 << 20, 'a');
  const std::vector<Sentence> one_word = tokenizer.tokenize(long_word);
  REQUIRE(one_word.size() == 1);
  REQUIRE(one_word[0].words.size() == 1);
  CHECK(one_word[0].words[0].form.size() == long_word.size());

  std::string hyphens;  // "a-a-a-..." with no prefix to keep: every hyphen is split off
  for (int i = 0; i < 300000; ++i) hyphens += "a-";
  CHECK(tokenizer.tokenize(hyphens)[0].words.size() == 600000);

  std::string dotted;  // "a.a.a...." is one token: a dotted name
  for (int i = 0; i < 300000; ++i) dotted += "a.";
  CHECK(tokenizer.tokenize(dotted + " x")[0].words.size() == 2);

  std::string line;
  for (int i = 0; i < 100000; ++i) line += "word ";
  const std::vector<Sentence> long_line = tokenizer.tokenize(line);
  REQUIRE(long_line.size() == 1);
  CHECK(long_line[0].words.size() == 100000);
}

// A sentence of single-word tokens; "do+n't" makes a multi-word token "don't" (its form is the
// words joined), "Mr.|" a word with SpaceAfter=No.
Sentence treebank_sentence(const std::vector<std::string>& tokens) {
  Sentence sentence;
  for (std::string token : tokens) {
    const bool no_space = !token.empty() && token.back() == '|';
    if (no_space) token.pop_back();
    const auto plus = token.find('+');
    if (plus == std::string::npos) {
      Word word;
      word.form = token;
      if (no_space) word.misc = "SpaceAfter=No";
      sentence.words.push_back(word);
      continue;
    }
    MultiwordToken multiword;
    multiword.first = static_cast<int>(sentence.words.size()) + 1;
    multiword.last = multiword.first + 1;
    multiword.token.form = token.substr(0, plus) + token.substr(plus + 1);
    for (const std::string& form : {token.substr(0, plus), token.substr(plus + 1)}) {
      Word word;
      word.form = form;
      sentence.words.push_back(word);
    }
    sentence.multiword_tokens.push_back(multiword);
  }
  return sentence;
}

TEST_CASE("learn_tokenizer_data: consistent multi-word tokens and abbreviations", "[tokenizer]") {
  const std::vector<Sentence> treebank = {
      treebank_sentence({"I", "Do+n't", "know", "Mr.", "Smith"}),
      treebank_sentence({"we", "do+n't", "gon+na", "see", "its", "tail"}),
      treebank_sentence({"it+s", "its", "own", "etc|", "."}),
      treebank_sentence({"apples", ",", "etc|", "."}),
      treebank_sentence({"pears", ",", "etc.", "too"}),
      treebank_sentence({"Mr.", "Jones", "at", "5", "p.m.", "today"}),
  };
  const TokenizerData data = learn_tokenizer_data(treebank);
  const std::map<std::string, std::vector<std::string>> expected_multiword = {
      {"don't", {"do", "n't"}}, {"gonna", {"gon", "na"}}};  // "its": twice a single word
  CHECK(data.multiword_tokens == expected_multiword);
  // "etc." is split off twice and kept once: not an abbreviation.
  CHECK(data.abbreviations == std::vector<std::string>{"Mr.", "p.m."});

  const Tokenizer tokenizer(data);
  CHECK(render(tokenizer.tokenize("Gonna go")) == "Gonna=Gon+na go");
}

// Every sentence of `parts` (tokenize_part from 0 on, `max_bytes` at a time) joined.
std::vector<Sentence> tokenize_in_parts(const Tokenizer& tokenizer, const std::string& text,
                                        std::size_t max_bytes) {
  std::vector<Sentence> sentences;
  std::size_t begin = 0;
  do {
    TokenizedPart part = tokenizer.tokenize_part(text, begin, max_bytes);
    REQUIRE(part.end > begin);  // every part goes forward
    for (Sentence& sentence : part.sentences) sentences.push_back(std::move(sentence));
    begin = part.end;
  } while (begin < text.size());
  return sentences;
}

// Everything of a sentence the tokenizer sets, one line: comments, then each word's form,
// misc and span, then the multi-word tokens.
std::string describe(const Sentence& sentence) {
  std::string result;
  for (const std::string& comment : sentence.comments) result += comment + " | ";
  for (std::size_t i = 0; i < sentence.words.size(); ++i) {
    result += sentence.words[i].form + "/" + sentence.words[i].misc + "@" +
              std::to_string(sentence.word_spans[i].begin) + "-" +
              std::to_string(sentence.word_spans[i].end) + " ";
  }
  for (const MultiwordToken& token : sentence.multiword_tokens) {
    result += std::to_string(token.first) + "-" + std::to_string(token.last) + token.token.form;
  }
  return result;
}

TEST_CASE("tokenize_part: the parts are tokenize's sentences, cut where a sentence ends",
          "[tokenizer]") {
  const Tokenizer tokenizer(english_data());
  // Sentence ends of every kind the splitter knows, abbreviations that end a sentence or not,
  // "PM" and ")" starting a sentence (decided from the token before them), line breaks and
  // a blank line ("# newpar"), multi-word tokens and "its" (decided from the token after it).
  const std::vector<std::string> sentences = {
      "I saw a saw.",
      "Don't you see the dog?",
      "Mr. Smith went to Washington, D.C. on Monday.",
      "She said \"no!\" Then she left...",
      "wait... what",
      "We met at 5:00.\nPM is fine.",
      "Call now ) Thanks, Sean",
      "Its a deal, its tail is long etc.",
      "The U.S. economy grew 3.5% in 2010 (see www.example.com) Really!!!",
      "08/16/2000 12:05 PM\n\nYou gonna go?",
      "08/16/2000 12:05 PM ) Then we left.",
      "It cannot be."};
  std::string text;
  for (int i = 0; i < 200; ++i) {
    text += sentences[static_cast<std::size_t>(i * 7) % sentences.size()];
    text += i % 9 == 8 ? "\n" : "  ";
  }
  const std::vector<Sentence> whole = tokenizer.tokenize(text);
  REQUIRE(whole.size() > 200);
  std::vector<std::string> expected;
  for (const Sentence& sentence : whole) expected.push_back(describe(sentence));
  // Parts end everywhere: after each kind of sentence, with each kind starting the next part.
  for (std::size_t max_bytes = 150; max_bytes < 450; ++max_bytes) {
    INFO("max_bytes " << max_bytes);
    std::vector<std::string> actual;
    for (const Sentence& sentence : tokenize_in_parts(tokenizer, text, max_bytes)) {
      actual.push_back(describe(sentence));
    }
    REQUIRE(actual == expected);
  }
  // A text within max_bytes is one part.
  const TokenizedPart one = tokenizer.tokenize_part(text, 0, text.size());
  CHECK(one.end == text.size());
  CHECK(one.sentences.size() == whole.size());
}

TEST_CASE("tokenize_part: a sentence longer than max_bytes is cut at whitespace", "[tokenizer]") {
  const Tokenizer tokenizer;
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "word" + std::to_string(i) + " ";
  const std::vector<Sentence> parts = tokenize_in_parts(tokenizer, text, 100);
  CHECK(parts.size() > 10);  // about 100 bytes each
  std::vector<std::string> words;
  for (const Sentence& sentence : parts) {
    CHECK(sentence.words.size() < 20);
    for (const Word& word : sentence.words) words.push_back(word.form);
  }
  REQUIRE(words.size() == 1000);  // none lost, none twice, none split
  for (std::size_t i = 0; i < words.size(); ++i) {
    CHECK(words[i] == "word" + std::to_string(i));
  }
  // The first part ends at the first space from byte 100 on.
  CHECK(tokenizer.tokenize_part(text, 0, 100).end == text.find(' ', 100));
}

}  // namespace
}  // namespace sawtag
