// Fuzzes the CoNLL-U reader on arbitrary bytes. A malformed line may only throw InputError.
// Every sentence it accepts must survive a round trip: written, read back and written again,
// it gives the same text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"

namespace {

std::string written(const sawtag::Sentence& sentence) {
  std::ostringstream out;
  sawtag::write_conllu(out, sentence);
  return out.str();
}

void check_round_trip(const sawtag::Sentence& sentence) {
  const std::string first = written(sentence);
  std::istringstream in(first);
  sawtag::ConlluReader reader(in, "written");
  sawtag::Sentence again;
  if (!reader.next(again)) std::abort();  // throws if the writer wrote what the reader refuses
  if (written(again) != first) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  sawtag::ConlluReader reader(in, "fuzz.conllu");
  sawtag::Sentence sentence;
  try {
    while (reader.next(sentence)) check_round_trip(sentence);
  } catch (const sawtag::InputError&) {
    // A bad line: reported with its place, the caller stops there.
  }
  return 0;
}
