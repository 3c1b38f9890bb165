// A vocabulary too big to read first (kEagerWords, kEagerWordBytes in model_file_limits.hpp):
// its checks where it lies in the file, and its reading once the rest of the file is right.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/model_reader.hpp"
#include "io/string_array.hpp"

namespace sawtag::model_file {

// A big vocabulary (more than kEagerWords words, or kEagerWordBytes of them) is checked here
// as read_vocabulary checks one (its first entry, no entry twice) without being copied, and
// read once everything else in the file is known to be right (read_deferred_words): so the
// strings of millions of words are never made for a file that is then refused. Checking for
// a word twice holds 8 bytes a word (check_deferred_words_unique).
void ModelReader::check_deferred_words(const json::CutDocument::Cut& words) {
  const std::string path = "vocabularies.words";
  // Its first 1 KiB: enough to tell "<unk>", or to quote what is there instead.
  const std::string first =
      words.count == 0 ? "" : json::first_of_string_array(words.raw.substr(0, 1024), 0);
  if (words.count == 0 || first != "<unk>") {
    fail(path + "[0] must be the reserved entry \"<unk>\", got " +
         (words.count == 0 ? "nothing (the list is too short)" : quote(first)));
  }
  deferred_words_ = &words;
}

// After the config is validated: no word of a deferred vocabulary is there twice.
void ModelReader::check_deferred_words_unique() const {
  const std::optional<json::RepeatedString> repeated =
      json::first_repeated_string(deferred_words_->raw, 0, deferred_words_->count, release_);
  if (repeated) {
    fail("vocabularies.words has a duplicate entry " + quote(repeated->text) + " at index " +
         std::to_string(repeated->index));
  }
}

void ModelReader::read_deferred_words(Model& model) const {
  std::size_t end = 0;
  std::vector<std::string> items =
      json::read_string_array(deferred_words_->raw, 0, &end, deferred_words_->count, release_)
          .value();
  model.words = Vocabulary(std::move(items), "vocabularies.words");  // checked: no duplicate
}

}  // namespace sawtag::model_file
