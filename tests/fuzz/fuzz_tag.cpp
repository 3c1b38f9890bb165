// Fuzzes the whole tag path on the frozen tiny model (tests/data/tiny-model-v1.json): input
// (raw, tokenized or CoNLL-U) -> sentences -> tagger -> every output format, and the attention
// file. The first two bytes choose the options, the rest is the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"
#include "sawtag/output.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"

namespace {

enum class InputKind { raw, tokenized, conllu };

struct FuzzOptions {
  InputKind input = InputKind::raw;
  bool sentence_per_line = false;
  sawtag::OutputOptions output;
  sawtag::TagOptions tag;
};

// byte 0: bits 0-1 input kind, 2-4 format, 5-6 tag columns, 7 probabilities;
// byte 1: bits 0-4 top-k (beyond the tag sets' sizes too), 5 attention, 6 sentence per line.
FuzzOptions read_options(std::uint8_t first, std::uint8_t second) {
  constexpr sawtag::OutputFormat kFormats[] = {
      sawtag::OutputFormat::text, sawtag::OutputFormat::tsv, sawtag::OutputFormat::conllu,
      sawtag::OutputFormat::json, sawtag::OutputFormat::jsonl};
  constexpr sawtag::TagColumns kColumns[] = {sawtag::TagColumns::upos, sawtag::TagColumns::xpos,
                                             sawtag::TagColumns::both, sawtag::TagColumns::both};
  FuzzOptions options;
  const int kind = first & 3;
  options.input = kind == 1 ? InputKind::tokenized : kind == 2 ? InputKind::conllu : InputKind::raw;
  options.output.format = kFormats[((first >> 2) & 7) % 5];
  options.output.tags = kColumns[(first >> 5) & 3];
  options.output.probabilities = (first & 0x80) != 0;
  options.output.top_k = second & 31;
  options.tag.top_k = options.output.top_k;
  options.tag.capture_attention = (second & 0x20) != 0;
  options.sentence_per_line = (second & 0x40) != 0;
  return options;
}

// "I  saw\ta saw" -> the words "I" "saw" "a" "saw", one sentence per non-blank line.
std::vector<sawtag::Sentence> split_on_whitespace(std::string_view text) {
  std::vector<sawtag::Sentence> sentences;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    sawtag::Sentence sentence;
    std::string word;
    while (words >> word) sentence.words.push_back(sawtag::Word{word});
    if (!sentence.words.empty()) sentences.push_back(std::move(sentence));
  }
  return sentences;
}

std::vector<sawtag::Sentence> read_conllu(std::string_view text) {
  std::istringstream in{std::string(text)};
  sawtag::ConlluReader reader(in, "fuzz.conllu");
  std::vector<sawtag::Sentence> sentences;
  sawtag::Sentence sentence;
  try {
    while (reader.next(sentence)) sentences.push_back(sentence);
  } catch (const sawtag::InputError&) {
    // The sentences before the bad line are still tagged, as the CLI does.
  }
  return sentences;
}

const sawtag::Model& tiny_model() {
  static const sawtag::Model model =
      sawtag::load_model(SAWTAG_FUZZ_MODEL, sawtag::Int8WordTable::keep);  // as the CLI does
  return model;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tiny_model();  // a broken fixture fails here, once, not as a crash on the first input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const FuzzOptions options = read_options(data[0], data[1]);
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
  static const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(tiny_model()));

  std::vector<sawtag::Sentence> sentences;
  switch (options.input) {
    case InputKind::raw:
      sentences = sawtag::Tokenizer(tiny_model().tokenizer,
                                    sawtag::TokenizerOptions{options.sentence_per_line})
                      .tokenize(text);
      break;
    case InputKind::tokenized:
      sentences = split_on_whitespace(text);
      break;
    case InputKind::conllu:
      sentences = read_conllu(text);
      break;
  }

  std::ostringstream out;
  std::ostringstream attention_out;
  const auto writer = sawtag::make_output_writer(out, options.output);
  sawtag::AttentionWriter attention_writer(attention_out);
  for (sawtag::Sentence& sentence : sentences) {
    const std::vector<std::string> forms = sawtag::word_forms(sentence);
    const sawtag::TagResult result = tagger.tag(forms, options.tag);
    if (result.words.size() != forms.size()) std::abort();
    if (options.input == InputKind::conllu) sawtag::apply_tags(sentence, result, options.output);
    writer->write_line({sawtag::TaggedSentence{&sentence, &result}});
    if (options.tag.capture_attention) attention_writer.write(sentence, result);
  }
  writer->finish();
  attention_writer.finish();
  return 0;
}
