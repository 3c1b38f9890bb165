// Occlusion (sawtag/explanation.hpp): every drop is what tagging the masked sentence through
// the public Tagger API gives; the masked word's features; sentences longer than the window.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "sawtag/error.hpp"
#include "sawtag/explanation.hpp"
#include "sawtag/features.hpp"
#include "sawtag/tagger.hpp"

namespace {

using sawtag::testing::make_random_model;
using sawtag::testing::tiny_config;

// The probability `tags` gives `tag` among all candidates of a word (top_k = every tag).
float probability_of(const std::vector<sawtag::TagCandidate>& candidates, const std::string& tag) {
  const auto found = std::find_if(candidates.begin(), candidates.end(),
                                  [&](const sawtag::TagCandidate& c) { return c.tag == tag; });
  REQUIRE(found != candidates.end());
  return found->probability;
}

// Each word of `words` masked in turn and tagged alone with Tagger::tag (whole, as explain sees
// a sentence up to the model's window): the drops and tags must be exactly those of
// explain_tags, on `threads` threads; with `word` >= 0, for that word alone (the others'
// occlusions empty).
void check_against_masked_tagging(const sawtag::Tagger& tagger,
                                  const std::vector<std::string>& words, int threads = 1,
                                  int word = -1) {
  INFO(threads << " threads, word " << word);
  sawtag::ExplainOptions options;
  options.threads = threads;
  options.word = word;
  const sawtag::SentenceExplanation explanation = sawtag::explain_tags(tagger, words, options);
  const auto n = static_cast<int>(words.size());
  REQUIRE(explanation.num_words == n);
  REQUIRE(explanation.occlusions.size() == words.size() * words.size());
  sawtag::TagOptions whole;
  whole.long_sentence = tagger.max_window();
  const sawtag::TagResult plain = tagger.tag(words, whole);
  sawtag::TagOptions all_tags = whole;
  all_tags.top_k = 100;
  for (int i = 0; i < n; ++i) {
    CHECK(explanation.tags.words[i].upos == plain.words[i].upos);
    CHECK(explanation.tags.words[i].upos_probability == plain.words[i].upos_probability);
    CHECK(explanation.tags.words[i].xpos_probability == plain.words[i].xpos_probability);
  }
  bool some_drop = false;
  for (int j = 0; j < n; ++j) {
    std::vector<std::string> masked = words;
    masked[j] = std::string(sawtag::kMaskedWord);
    const sawtag::TagResult result = tagger.tag(masked, all_tags);
    for (int i = 0; i < n; ++i) {
      INFO("word " << i << ", masked " << j);
      const sawtag::WordTags& original = plain.words[i];
      const sawtag::Occlusion& occlusion = explanation.at(i, j);
      if (word >= 0 && i != word) {
        CHECK(occlusion.upos_drop == 0.0f);
        CHECK(occlusion.upos_when_masked.empty());
        continue;
      }
      CHECK(occlusion.upos_drop ==
            original.upos_probability - probability_of(result.words[i].upos_top, original.upos));
      CHECK(occlusion.xpos_drop ==
            original.xpos_probability - probability_of(result.words[i].xpos_top, original.xpos));
      CHECK(occlusion.upos_when_masked == result.words[i].upos);
      CHECK(occlusion.xpos_when_masked == result.words[i].xpos);
      if (std::fabs(occlusion.upos_drop) > 1e-4f) some_drop = true;
    }
  }
  CHECK(some_drop);  // the context matters in a random model with attention
}

}  // namespace

TEST_CASE("explain: each drop is what tagging the masked sentence gives", "[explain]") {
  const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(make_random_model()),
                              sawtag::TagPrecision::float32);
  check_against_masked_tagging(tagger, {"I", "saw", "a", "saw", "."});
  check_against_masked_tagging(tagger, {"Zebras", "don't", "see", "it", ",", "1984", "é"});
  check_against_masked_tagging(tagger, {"saw"});
  const sawtag::Tagger fastest(std::make_shared<const sawtag::Model>(make_random_model()));
  check_against_masked_tagging(fastest, {"The", "dog", "saw", "a", "saw", "."});
}

TEST_CASE("explain: any number of threads gives the same drops", "[explain]") {
  const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(make_random_model()));
  const std::vector<std::string> words{"The", "dog", "saw", "a", "saw", "in", "the", "yard", "."};
  // 9 words: the sentence and 9 copies split unevenly, two windows a thread (the most threads
  // a sentence of 9 words uses), more threads than that.
  for (const int threads : {2, 3, 10, 16}) check_against_masked_tagging(tagger, words, threads);
  check_against_masked_tagging(tagger, {"saw"}, 2);
}

TEST_CASE("explain: a sentence of over 64 words (several batches, Eigen's attention) is as exact",
          "[explain]") {
  sawtag::ModelConfig config = tiny_config();
  config.max_sequence_length = 80;
  const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(make_random_model(config)));
  std::vector<std::string> words;
  const char* const forms[] = {"the", "dog", "saw", "a", "saw", "and", "I", "see", "it", ","};
  for (int i = 0; i < 70; ++i) words.emplace_back(forms[(i * 7) % 10]);
  check_against_masked_tagging(tagger, words);
  check_against_masked_tagging(tagger, words, 2);
}

TEST_CASE("explain: one word alone has the drops of the whole explanation", "[explain]") {
  const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(make_random_model()));
  const std::vector<std::string> words{"The", "dog", "saw", "a", "saw", "in", "the", "yard", "."};
  for (const int word : {0, 4, 8}) {
    check_against_masked_tagging(tagger, words, 1, word);
    check_against_masked_tagging(tagger, words, 3, word);
  }
  check_against_masked_tagging(tagger, {"saw"}, 1, 0);
  // A one-layer model: the first layer is the last one.
  sawtag::ModelConfig config = tiny_config();
  config.num_layers = 1;
  const sawtag::Tagger one_layer(std::make_shared<const sawtag::Model>(make_random_model(config)));
  check_against_masked_tagging(one_layer, words, 2, 3);
  // 70 words: several network calls of several batches each.
  config = tiny_config();
  config.max_sequence_length = 80;
  const sawtag::Tagger long_window(
      std::make_shared<const sawtag::Model>(make_random_model(config)));
  std::vector<std::string> many;
  const char* const forms[] = {"the", "dog", "saw", "a", "saw", "and", "I", "see", "it", ","};
  for (int i = 0; i < 70; ++i) many.emplace_back(forms[(i * 7) % 10]);
  check_against_masked_tagging(long_window, many, 1, 69);
  check_against_masked_tagging(long_window, many, 2, 31);
  // The same floats as explaining every word.
  const sawtag::SentenceExplanation all = sawtag::explain_tags(tagger, words);
  sawtag::ExplainOptions options;
  options.word = 4;
  const sawtag::SentenceExplanation one = sawtag::explain_tags(tagger, words, options);
  for (int j = 0; j < 9; ++j) {
    CHECK(one.at(4, j).upos_drop == all.at(4, j).upos_drop);
    CHECK(one.at(4, j).xpos_drop == all.at(4, j).xpos_drop);
    CHECK(one.at(4, j).xpos_when_masked == all.at(4, j).xpos_when_masked);
  }
  // A sentence without that word.
  options.word = 9;
  CHECK_THROWS_WITH(sawtag::explain_tags(tagger, words, options),
                    "explain: word 10 of a sentence of 9 words");
  sawtag::Explainer explainer(tagger, options);
  CHECK_THROWS_AS(explainer.explain({"saw"}), sawtag::InputError);
  CHECK(explainer.explain(std::vector<std::string>(10, "saw")).tags.words.size() == 10);
}

TEST_CASE("explain: an Explainer keeps its threads and gives what explain_tags gives",
          "[explain]") {
  const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(make_random_model()));
  sawtag::ExplainOptions options;
  options.threads = 3;
  sawtag::Explainer explainer(tagger, options);
  const std::vector<std::vector<std::string>> sentences{
      {"I", "saw", "a", "saw", "."}, {"saw"}, {}, {"The", "dog", "saw", "it", "in", "the", "yard"}};
  for (int round = 0; round < 2; ++round) {
    for (const std::vector<std::string>& words : sentences) {
      const sawtag::SentenceExplanation expected = sawtag::explain_tags(tagger, words);
      const sawtag::SentenceExplanation actual = explainer.explain(words);
      REQUIRE(actual.num_words == expected.num_words);
      REQUIRE(actual.occlusions.size() == expected.occlusions.size());
      for (std::size_t k = 0; k < expected.occlusions.size(); ++k) {
        CHECK(actual.occlusions[k].upos_drop == expected.occlusions[k].upos_drop);
        CHECK(actual.occlusions[k].xpos_drop == expected.occlusions[k].xpos_drop);
        CHECK(actual.occlusions[k].upos_when_masked == expected.occlusions[k].upos_when_masked);
        CHECK(actual.occlusions[k].xpos_when_masked == expected.occlusions[k].xpos_when_masked);
      }
      for (std::size_t i = 0; i < expected.tags.words.size(); ++i) {
        CHECK(actual.tags.words[i].upos == expected.tags.words[i].upos);
        CHECK(actual.tags.words[i].upos_probability == expected.tags.words[i].upos_probability);
      }
    }
  }
  // A refused sentence leaves it usable.
  sawtag::ModelConfig config = tiny_config();
  config.max_sequence_length = 3;
  const sawtag::Tagger short_window(
      std::make_shared<const sawtag::Model>(make_random_model(config)));
  sawtag::Explainer short_explainer(short_window, options);
  CHECK_THROWS_AS(short_explainer.explain({"a", "b", "c", "d"}), sawtag::InputError);
  CHECK(short_explainer.explain({"a", "b", "c"}).num_words == 3);
}

TEST_CASE("explain: an empty sentence has no occlusions", "[explain]") {
  const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(make_random_model()));
  const sawtag::SentenceExplanation explanation = sawtag::explain_tags(tagger, {});
  CHECK(explanation.num_words == 0);
  CHECK(explanation.occlusions.empty());
  CHECK(explanation.tags.words.empty());
}

TEST_CASE("explain: the masked word is unknown, has no characters and the shape other",
          "[explain][features]") {
  sawtag::Model model = make_random_model();
  const sawtag::WordFeatures features = sawtag::word_features(model, sawtag::kMaskedWord);
  CHECK(features.word_id == sawtag::kUnknownWord);
  // <w> </w>, padded to the widest convolution (3 in tiny_config).
  CHECK(features.char_ids ==
        std::vector<int>{sawtag::kWordStartChar, sawtag::kWordEndChar, sawtag::kPaddingChar});
  CHECK(features.shape == static_cast<int>(sawtag::WordShape::other));
  // Unknown even if a model's vocabulary held the empty form.
  model.words = sawtag::Vocabulary({"<unk>", "saw", ""}, "words");
  CHECK(sawtag::word_features(model, sawtag::kMaskedWord).word_id == sawtag::kUnknownWord);
  CHECK(sawtag::word_features(model, "saw").word_id == 1);
}

TEST_CASE("explain: a sentence longer than the window is refused, one that fits is explained",
          "[explain]") {
  sawtag::ModelConfig config = tiny_config();
  config.max_sequence_length = 6;
  const sawtag::Tagger tagger(std::make_shared<const sawtag::Model>(make_random_model(config)));
  REQUIRE(tagger.max_window() == 6);
  const std::vector<std::string> six{"I", "saw", "a", "saw", "and", "."};
  CHECK(sawtag::explain_tags(tagger, six).num_words == 6);
  std::vector<std::string> seven = six;
  seven.push_back("it");
  CHECK_THROWS_AS(sawtag::explain_tags(tagger, seven), sawtag::InputError);
  CHECK_THROWS_WITH(sawtag::explain_tags(tagger, seven),
                    Catch::Contains("7 words") && Catch::Contains("window of 6 words"));
}

TEST_CASE("explain: strongest_first orders the other words by |drop|, then position", "[explain]") {
  sawtag::SentenceExplanation explanation;
  explanation.num_words = 4;
  explanation.occlusions.resize(16);
  const float upos_drops[] = {0.1f, 0.9f, -0.3f, 0.3f};  // of word 1, masking words 0..3
  const float xpos_drops[] = {0.5f, 0.0f, 0.2f, -0.6f};
  for (int j = 0; j < 4; ++j) {
    explanation.occlusions[4 + j].upos_drop = upos_drops[j];
    explanation.occlusions[4 + j].xpos_drop = xpos_drops[j];
  }
  CHECK(sawtag::strongest_first(explanation, 1, sawtag::ExplainedTag::upos) ==
        std::vector<int>{2, 3, 0});
  CHECK(sawtag::strongest_first(explanation, 1, sawtag::ExplainedTag::xpos) ==
        std::vector<int>{3, 0, 2});
}
