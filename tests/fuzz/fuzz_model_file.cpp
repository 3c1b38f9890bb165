// Fuzzes the model-file loader (parse_model) on arbitrary bytes. A bad file may only throw
// ModelError, whether an int8 word embedding is widened or kept. A file that loads must be
// usable: a Tagger is built on it (running its self-tests) and tags a short sentence holding
// some of its multi-word tokens, and every output format of it is well-formed
// (tests/output_checks.hpp), whatever the model's tags and expansions hold.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "../output_checks.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  bool widened_loads = true;
  try {
    sawtag::parse_model(text, "fuzz.json");
  } catch (const sawtag::ModelError&) {
    widened_loads = false;
  }
  std::shared_ptr<const sawtag::Model> model;
  try {
    // As the CLI loads a model to tag: an int8 word embedding kept as it is stored.
    model = std::make_shared<const sawtag::Model>(
        sawtag::parse_model(text, "fuzz.json", sawtag::Int8WordTable::keep));
  } catch (const sawtag::ModelError&) {
    if (widened_loads) std::abort();  // keeping or widening must refuse the same files
    return 0;  // refused, with a message naming the problem
  }
  if (!widened_loads) std::abort();
  std::unique_ptr<const sawtag::Tagger> tagger;
  try {
    tagger = std::make_unique<const sawtag::Tagger>(model);
  } catch (const sawtag::ModelError&) {
    return 0;  // a self-test that fails is reported as a model error
  }
  std::string sample = "I saw a saw";  // and some of the model's own multi-word tokens
  int tokens = 0;
  for (const auto& entry : model->tokenizer.multiword_tokens) {
    if (++tokens > 3) break;
    sample += " " + entry.first;
  }
  const sawtag::Tokenizer tokenizer(model->tokenizer);
  try {
    for (const sawtag::Sentence& sentence : tokenizer.tokenize(sample + " .")) {
      for (sawtag::OutputFormat format :
           {sawtag::OutputFormat::text, sawtag::OutputFormat::tsv, sawtag::OutputFormat::conllu,
            sawtag::OutputFormat::json, sawtag::OutputFormat::jsonl}) {
        if (!sawtag::testing::output_problem(*tagger, sentence, format).empty()) std::abort();
      }
    }
  } catch (const sawtag::ModelError&) {
    return 0;  // a word whose scores are NaN or infinite (a row the load-time probe missed)
  }
  return 0;
}
