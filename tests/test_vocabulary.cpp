// Vocabulary: every entry is found at its index (one at a time or many), anything else is -1,
// duplicates are refused.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sawtag/error.hpp"
#include "sawtag/vocabulary.hpp"

namespace sawtag {

TEST_CASE("vocabulary: each entry at its index, others absent", "[vocabulary]") {
  const Vocabulary words({"<unk>", "i", "saw", "", "saw "}, "words");
  CHECK(words.size() == 5);
  CHECK(words.find("<unk>") == 0);
  CHECK(words.find("i") == 1);
  CHECK(words.find("saw") == 2);
  CHECK(words.find("") == 3);
  CHECK(words.find("saw ") == 4);
  CHECK(words.find("Saw") == -1);
  CHECK(words.find("sa") == -1);
  CHECK(words.at(2) == "saw");
  CHECK(Vocabulary().find("saw") == -1);
  CHECK(Vocabulary({}, "empty").find("") == -1);
}

TEST_CASE("vocabulary: 100,000 entries, and a copy, find every one", "[vocabulary]") {
  std::vector<std::string> items;
  for (int i = 0; i < 100000; ++i) items.push_back("w" + std::to_string(i * 7919));
  const Vocabulary original(items, "words");
  const Vocabulary copy = original;
  for (int i = 0; i < 100000; ++i) {
    const std::string& item = items[static_cast<std::size_t>(i)];
    if (original.find(item) != i || copy.find(item) != i) FAIL("entry " << i << " not found");
    if (copy.find(item + "x") != -1) FAIL("'" << item << "x' found");
  }
}

TEST_CASE("vocabulary: find_each gives find()'s answer for every item, in any number of blocks",
          "[vocabulary]") {
  std::vector<std::string> items;
  for (int i = 0; i < 5000; ++i) items.push_back("w" + std::to_string(i * 7919));
  const Vocabulary words(items, "words");
  // Entries and strangers interleaved, some twice, over several blocks and a partial one.
  std::vector<std::string> asked;
  for (int i = 0; i < 101; ++i) {
    asked.push_back(items[static_cast<std::size_t>(i * 37 % 5000)]);
    asked.push_back("stranger" + std::to_string(i));
    if (i % 10 == 0) asked.push_back(items[static_cast<std::size_t>(i)]);
  }
  const std::vector<int> found = words.find_each({asked.begin(), asked.end()});
  REQUIRE(found.size() == asked.size());
  int absent = 0;
  for (std::size_t i = 0; i < asked.size(); ++i) {
    CHECK(found[i] == words.find(asked[i]));
    if (found[i] < 0) ++absent;
  }
  CHECK(absent == 101);
  CHECK(words.find_each({}).empty());
  CHECK(Vocabulary().find_each({"w0", "w7919"}) == std::vector<int>{-1, -1});
}

TEST_CASE("vocabulary: a duplicate entry is refused, naming it and its index", "[vocabulary]") {
  CHECK_THROWS_WITH(Vocabulary({"a", "b", "c", "b"}, "vocabularies.words"),
                    "vocabularies.words has a duplicate entry 'b' at index 3");
  CHECK_THROWS_AS(Vocabulary({"", ""}, "tags"), ModelError);
}

}  // namespace sawtag
