// Training runs a batch of sentences through the network as one matrix of rows. Each sentence's
// logits, loss and gradient must be what the sentence gives alone: attention, positions and
// dropout must never leak across sentence boundaries.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "nn/network.hpp"
#include "train/batch_step.hpp"
#include "train/parameter_list.hpp"

namespace sawtag {
namespace {

const std::vector<std::vector<std::string>> kSentences = {
    {"I", "saw", "a", "saw", "."},
    {"Dogs"},
    {"The", "dog", "did", "n't", "see", "the", "zebras", "in", "Seattle", "!"},
    {"Can", "you", "can", "a", "can", "?"},
};

train::Example example_of(const Model& model, const std::vector<std::string>& words) {
  train::Example example;
  for (std::size_t i = 0; i < words.size(); ++i) {
    example.words.push_back(word_features(model, words[i]));
    example.upos.push_back(static_cast<int>(i * 5 % 17));
    example.xpos.push_back(static_cast<int>(i * 3 % model.config.num_xpos));
  }
  return example;
}

Model relative_model() {
  ModelConfig config = testing::tiny_config();
  config.relative_position = true;
  config.max_relative_distance = 2;
  return testing::make_random_model(config, 3);
}

}  // namespace

TEST_CASE("a batch's logits are each sentence's logits alone", "[batch_step]") {
  const Model model = relative_model();
  std::vector<WordFeatures> words;
  std::vector<int> lengths;
  for (const auto& sentence : kSentences) {
    for (const std::string& word : sentence) words.push_back(word_features(model, word));
    lengths.push_back(static_cast<int>(sentence.size()));
  }
  const nn::Segments segments(lengths);
  const nn::NetworkOutput batch =
      nn::network_forward(model.parameters, model.config, words, segments, {}, nullptr);
  REQUIRE(batch.upos_logits.rows() == segments.rows());
  for (int s = 0; s < segments.count(); ++s) {
    std::vector<WordFeatures> alone_words;
    for (const std::string& word : kSentences[static_cast<std::size_t>(s)]) {
      alone_words.push_back(word_features(model, word));
    }
    const nn::NetworkOutput alone =
        nn::network_forward(model.parameters, model.config, alone_words, {}, nullptr);
    INFO("sentence " << s);
    const nn::Matrix upos = batch.upos_logits.middleRows(segments.offset(s), segments.length(s));
    const nn::Matrix xpos = batch.xpos_logits.middleRows(segments.offset(s), segments.length(s));
    CHECK((upos - alone.upos_logits).cwiseAbs().maxCoeff() < 1e-5f);
    CHECK((xpos - alone.xpos_logits).cwiseAbs().maxCoeff() < 1e-5f);
  }
}

TEST_CASE("a batch's loss and gradient are the sums over its sentences alone, with dropout",
          "[batch_step]") {
  const Model model = relative_model();
  std::vector<train::Example> examples;
  for (const auto& sentence : kSentences) examples.push_back(example_of(model, sentence));
  const train::StepOptions options{0.3f, 0.1f};

  std::vector<std::mt19937_64> generators;
  for (std::size_t i = 0; i < examples.size(); ++i) generators.emplace_back(100 + i);
  std::vector<const train::Example*> pointers;
  std::vector<std::mt19937_64*> random;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    pointers.push_back(&examples[i]);
    random.push_back(&generators[i]);
  }
  Parameters batch_gradients = zero_parameters(model.config);
  const double batch_loss =
      train::accumulate_gradients(model, pointers, options, random, batch_gradients);

  Parameters alone_gradients = zero_parameters(model.config);
  double alone_loss = 0.0;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    std::mt19937_64 generator(100 + i);
    alone_loss += train::accumulate_gradients(model, {&examples[i]}, options, {&generator},
                                              alone_gradients);
  }
  CHECK(batch_loss == Approx(alone_loss).epsilon(1e-5));
  const auto batch_list = train::parameter_list(batch_gradients, model.config);
  const auto alone_list = train::parameter_list(alone_gradients, model.config);
  double largest = 0.0;
  for (std::size_t t = 0; t < batch_list.size(); ++t) {
    const TensorData& a = batch_list[t].tensor->data;
    const TensorData& b = alone_list[t].tensor->data;
    for (std::size_t k = 0; k < a.size(); ++k) {
      largest = std::max(largest, static_cast<double>(std::abs(b[k])));
      INFO(batch_list[t].name << "[" << k << "]");
      REQUIRE(a[k] == Approx(b[k]).margin(2e-5).epsilon(1e-4));
    }
  }
  CHECK(largest > 0.1);  // the comparison is not between zeros
}

TEST_CASE("another dropout generator for one sentence changes only that sentence's masks",
          "[batch_step]") {
  const Model model = relative_model();
  std::vector<WordFeatures> words;
  std::vector<int> lengths;
  for (const auto& sentence : kSentences) {
    for (const std::string& word : sentence) words.push_back(word_features(model, word));
    lengths.push_back(static_cast<int>(sentence.size()));
  }
  const nn::Segments segments(lengths);
  const auto run = [&](std::uint64_t seed_of_sentence_2) {
    std::vector<std::mt19937_64> generators{std::mt19937_64(1), std::mt19937_64(2),
                                            std::mt19937_64(seed_of_sentence_2),
                                            std::mt19937_64(4)};
    nn::ForwardOptions options;
    options.dropout_rate = 0.3f;
    for (auto& generator : generators) options.random.push_back(&generator);
    nn::NetworkCache cache;
    return nn::network_forward(model.parameters, model.config, words, segments, options, &cache)
        .upos_logits;
  };
  const nn::Matrix a = run(3);
  const nn::Matrix b = run(30);
  for (int s = 0; s < segments.count(); ++s) {
    const nn::Matrix difference =
        (a - b).middleRows(segments.offset(s), segments.length(s)).cwiseAbs();
    INFO("sentence " << s);
    if (s == 2) {
      CHECK(difference.maxCoeff() > 0.0f);
    } else {
      CHECK(difference.maxCoeff() == 0.0f);
    }
  }
}

TEST_CASE("the lemma weight scales the lemma head's loss and gradient, and nothing else",
          "[batch_step]") {
  Model model = relative_model();
  model.lemma_rules = Vocabulary({"keep|0||0|", "lower|0||0|", "keep|0||1|"}, "lemma rules");
  testing::randomize_parameters(model, 7);
  REQUIRE(model.config.num_lemma_rules == 3);
  std::vector<train::Example> examples;
  for (const auto& sentence : kSentences) {
    train::Example example = example_of(model, sentence);
    for (std::size_t i = 0; i < sentence.size(); ++i) example.lemma.push_back(static_cast<int>(i % 3));
    examples.push_back(std::move(example));
  }
  std::vector<const train::Example*> pointers;
  for (const train::Example& example : examples) pointers.push_back(&example);

  // No dropout: the same step with weights 0, 1 and 3.
  const auto step = [&](float weight, Parameters& gradients) {
    train::StepOptions options;
    options.label_smoothing = 0.1f;
    options.lemma_weight = weight;
    gradients = zero_parameters(model.config);
    return train::accumulate_gradients(model, pointers, options, {}, gradients);
  };
  Parameters none, once, thrice;
  const double tags_loss = step(0.0f, none);
  const double lemma_loss = step(1.0f, once) - tags_loss;
  CHECK(lemma_loss > 0.1);
  CHECK(step(3.0f, thrice) == Approx(tags_loss + 3.0 * lemma_loss).epsilon(1e-6));

  const auto list_none = train::parameter_list(none, model.config);
  const auto list_once = train::parameter_list(once, model.config);
  const auto list_thrice = train::parameter_list(thrice, model.config);
  for (std::size_t t = 0; t < list_once.size(); ++t) {
    const std::string& name = list_once[t].name;
    const TensorData& zero = list_none[t].tensor->data;
    const TensorData& one = list_once[t].tensor->data;
    const TensorData& three = list_thrice[t].tensor->data;
    for (std::size_t k = 0; k < one.size(); ++k) {
      INFO(name << "[" << k << "]");
      if (name.rfind("heads.lemma", 0) == 0) {
        CHECK(zero[k] == 0.0f);
        CHECK(three[k] == Approx(3.0f * one[k]).margin(1e-6).epsilon(1e-4));
      } else if (name.rfind("heads.", 0) == 0) {
        // The tag heads' gradients do not depend on the lemma head's loss.
        CHECK(three[k] == Approx(one[k]).margin(1e-6));
      } else {
        // The encoder's is the tags' part plus weight x the lemma head's part.
        CHECK(three[k] == Approx(zero[k] + 3.0f * (one[k] - zero[k])).margin(2e-5).epsilon(1e-3));
      }
    }
  }
}

}  // namespace sawtag
