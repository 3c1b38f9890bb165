// Fuzzes the model-file loader (parse_model) on arbitrary bytes. A bad file may only throw
// ModelError, whether an int8 word embedding is widened or kept. A file that loads must be
// usable: a Tagger is built on it (running its self-tests) and tags a short sentence.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "sawtag/error.hpp"
#include "sawtag/model.hpp"
#include "sawtag/tagger.hpp"

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
  try {
    const sawtag::Tagger tagger(model);
    tagger.tag({"I", "saw", "a", "saw", "."});
  } catch (const sawtag::ModelError&) {
    // A self-test that fails is reported as a model error.
  }
  return 0;
}
