// Fuzzes the sentence splitter and tokenizer (Tokenizer::tokenize) on arbitrary bytes.
// The first byte chooses the options; the rest is the text. Besides the sanitizers' checks it
// asserts the tokenizer's contract: every word has a non-empty valid UTF-8 form and a span
// inside the text, and the spans never go backwards.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sawtag/tokenizer.hpp"
#include "text/utf8.hpp"

namespace {

// The tables a trained model brings: multi-word tokens and abbreviations.
sawtag::TokenizerData english_tables() {
  sawtag::TokenizerData data;
  data.multiword_tokens["don't"] = {"do", "n't"};
  data.multiword_tokens["gonna"] = {"gon", "na"};
  data.multiword_tokens["cannot"] = {"can", "not"};
  data.abbreviations = {"Mr.", "Dr.", "e.g.", "U.S.", "etc.", "No."};
  return data;
}

bool is_valid_utf8(std::string_view text) {
  std::size_t invalid = 0;
  sawtag::text::decode_utf8(text, &invalid);
  return invalid == 0;
}

void require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  sawtag::TokenizerOptions options;
  options.sentence_per_line = (choice & 1) != 0;
  const sawtag::Tokenizer tokenizer((choice & 2) != 0 ? english_tables() : sawtag::TokenizerData{},
                                    options);
  sawtag::TokenizerReport report;
  const auto sentences = tokenizer.tokenize(text, report);
  std::size_t previous_begin = 0;
  for (const sawtag::Sentence& sentence : sentences) {
    require(!sentence.words.empty());
    require(sentence.word_spans.size() == sentence.words.size());
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
      const sawtag::Span span = sentence.word_spans[i];
      require(span.begin < span.end && span.end <= text.size());
      require(span.begin >= previous_begin);
      previous_begin = span.begin;
      require(!sentence.words[i].form.empty());
      require(is_valid_utf8(sentence.words[i].form));
    }
    for (const auto& comment : sentence.comments) require(is_valid_utf8(comment));
  }
  return 0;
}
