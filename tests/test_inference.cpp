// The batched inference network (lib/src/infer) against the training forward pass, and the
// guarantees batch tagging makes: any batch size gives the same bits, long sentences are
// windowed.
#include <catch2/catch.hpp>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "infer/inference_network.hpp"
#include "infer/packed_linear.hpp"
#include "infer/windows.hpp"
#include "nn/network.hpp"
#include "sawtag/features.hpp"
#include "sawtag/tagger.hpp"

using namespace sawtag;

namespace {

std::vector<std::string> random_sentence(std::mt19937& rng, int length) {
  static const std::vector<std::string> kWords = {"I",   "saw", "a",     "saw", ".",   "The",
                                                  "dog", "do",  "n't",   "see", "it",  ",",
                                                  "Zq",  "42",  "e-mail", "ünï", "!!", "x"};
  std::uniform_int_distribution<std::size_t> pick(0, kWords.size() - 1);
  std::vector<std::string> words;
  for (int i = 0; i < length; ++i) words.push_back(kWords[pick(rng)]);
  return words;
}

// The training forward pass's logits for one sentence: [n, num_upos + num_xpos].
nn::Matrix reference_logits(const Model& model, const std::vector<std::string>& words) {
  std::vector<WordFeatures> features;
  for (const std::string& word : words) features.push_back(word_features(model, word));
  const nn::NetworkOutput output =
      nn::network_forward(model.parameters, model.config, features, {}, nullptr);
  nn::Matrix logits(output.upos_logits.rows(),
                    output.upos_logits.cols() + output.xpos_logits.cols());
  logits << output.upos_logits, output.xpos_logits;
  return logits;
}

}  // namespace

TEST_CASE("packed linear equals x W + b, row by row, for any number of rows", "[infer]") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  LinearParameters first{Tensor({5, 70}), Tensor({70})};
  LinearParameters second{Tensor({5, 3}), Tensor({3})};
  for (Tensor* tensor : {&first.weight, &first.bias, &second.weight, &second.bias}) {
    for (float& value : tensor->data) value = uniform(rng);
  }
  const infer::PackedLinear packed({&first, &second});
  REQUIRE(packed.out() == 73);
  REQUIRE(packed.stride() % 64 == 0);
  std::vector<float> x(7 * 5);
  for (float& value : x) value = uniform(rng);
  std::vector<float> all(7 * static_cast<std::size_t>(packed.stride()));
  packed.apply(x.data(), 5, 7, all.data());
  for (int rows = 1; rows <= 7; ++rows) {
    std::vector<float> some(static_cast<std::size_t>(rows) * packed.stride());
    packed.apply(x.data(), 5, rows, some.data());
    for (std::size_t i = 0; i < some.size(); ++i) REQUIRE(some[i] == all[i]);  // bit-identical
  }
  for (int r = 0; r < 7; ++r) {
    for (int c = 0; c < 73; ++c) {
      const LinearParameters& part = c < 70 ? first : second;
      const int column = c < 70 ? c : c - 70;
      const int width = c < 70 ? 70 : 3;
      double expected = part.bias.data[static_cast<std::size_t>(column)];
      for (int k = 0; k < 5; ++k) {
        expected += static_cast<double>(x[static_cast<std::size_t>(r * 5 + k)]) *
                    part.weight.data[static_cast<std::size_t>(k * width + column)];
      }
      CHECK(all[static_cast<std::size_t>(r * packed.stride() + c)] ==
            Approx(expected).margin(1e-5));
    }
    for (int c = 73; c < packed.stride(); ++c) {
      CHECK(all[static_cast<std::size_t>(r * packed.stride() + c)] == 0.0f);
    }
  }
}

TEST_CASE("the batched network gives the training forward pass's logits", "[infer]") {
  const Model model = testing::make_random_model();
  const infer::InferenceNetwork network(model);
  std::mt19937 rng(7);
  std::vector<std::vector<std::string>> sentences;
  for (int length : {1, 2, 5, 9, 17, 30}) sentences.push_back(random_sentence(rng, length));
  std::vector<infer::Window> windows;
  for (const auto& words : sentences) {
    windows.push_back({&words, 0, static_cast<int>(words.size()), nullptr});
  }
  std::vector<float> logits;
  network.forward(windows, logits);
  const int columns = network.num_logits();
  std::size_t row = 0;
  for (const auto& words : sentences) {
    const nn::Matrix expected = reference_logits(model, words);
    REQUIRE(expected.cols() == columns);
    for (Eigen::Index i = 0; i < expected.rows(); ++i, ++row) {
      for (int c = 0; c < columns; ++c) {
        REQUIRE(logits[row * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c)] ==
                Approx(expected(i, c)).margin(1e-4));
      }
    }
  }
  REQUIRE(row * static_cast<std::size_t>(columns) == logits.size());
}
