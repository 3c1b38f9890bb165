#include <catch2/catch.hpp>

#include "sawtag/tokenizer.hpp"

namespace sawtag {
namespace {

std::vector<std::string> forms(const Sentence& sentence) {
  std::vector<std::string> result;
  for (const Word& word : sentence.words) result.push_back(word.form);
  return result;
}

TEST_CASE("tokenize: punctuation split off, SpaceAfter=No and spans", "[tokenizer]") {
  const Tokenizer tokenizer;
  const std::string text = "Hello, world.";
  const std::vector<Sentence> sentences = tokenizer.tokenize(text);
  REQUIRE(sentences.size() == 1);
  CHECK(forms(sentences[0]) == std::vector<std::string>{"Hello", ",", "world", "."});
  CHECK(sentences[0].words[0].misc == "SpaceAfter=No");
  CHECK(sentences[0].words[1].misc == "_");
  REQUIRE(sentences[0].word_spans.size() == 4);
  CHECK(sentences[0].word_spans[2].begin == 7);
  CHECK(sentences[0].word_spans[2].end == 12);
}

}  // namespace
}  // namespace sawtag
