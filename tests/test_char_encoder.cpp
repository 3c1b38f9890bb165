// The character CNN's products, computed whole at load for a small vocabulary and per character
// on first use for a large one: the same products either way (to float rounding), and per
// character the same bits whatever order characters are met in and on however many threads.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fixtures.hpp"
#include "infer/char_encoder.hpp"
#include "sawtag/features.hpp"

using namespace sawtag;

namespace {

// A model with a character CNN of the size of models/zh_gsd.json's (char_dim 48, 128 filters,
// widths 2, 3 and 4), over the test vocabulary's 36 characters.
Model chinese_sized_model() {
  ModelConfig config = testing::tiny_config();
  config.char_dim = 48;
  config.char_filters = 128;
  config.char_widths = {2, 3, 4};
  return testing::make_random_model(config, 3);
}

const std::vector<std::string> kWords = {"I",      "saw", "a",   "saw", ".",      "The",    "dog",
                                         "do",     "n't", "see", "it",  ",",      "Zq",     "42",
                                         "e-mail", "ünï", "TTT", "x",   "jumped", "quickly"};

// Every word of kWords encoded, the words taken in the order `order` gives (indices into
// kWords); returned in kWords's order: [words][char_feature_dim].
std::vector<float> encode_all(const infer::CharEncoder& encoder, const Model& model,
                              const std::vector<std::size_t>& order) {
  const auto dim = static_cast<std::size_t>(model.config.char_feature_dim());
  std::vector<float> out(kWords.size() * dim);
  for (std::size_t i : order) {
    encoder.encode(word_features(model, kWords[i]).char_ids, out.data() + i * dim);
  }
  return out;
}

// kWords's indices from `first` on, wrapping around.
std::vector<std::size_t> rotation(std::size_t first) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < kWords.size(); ++i) order.push_back((first + i) % kWords.size());
  return order;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("a character's products are E[c] W[k], per character or the whole table at once",
          "[char_encoder]") {
  const Model model = chinese_sized_model();
  const ModelConfig& config = model.config;
  const EncoderParameters& encoder = model.parameters.encoder;
  const infer::CharEncoder whole(model);
  const infer::CharEncoder per_character(model, 0);
  CHECK(whole.characters_computed() == config.char_vocab_size);
  CHECK(per_character.characters_computed() == 0);
  for (int c = 0; c < config.char_vocab_size; ++c) {
    const float* whole_products = whole.products(c);
    const float* products = per_character.products(c);
    int row = 0;
    for (std::size_t w = 0; w < config.char_widths.size(); ++w) {
      const Tensor& weight = encoder.char_convolutions[w].weight;
      for (int k = 0; k < config.char_widths[w]; ++k, ++row) {
        for (int f = 0; f < config.char_filters; ++f) {
          double expected = 0;  // E[c] . W[k][:, f], in double
          for (int d = 0; d < config.char_dim; ++d) {
            expected += double{encoder.char_embedding.data[c * config.char_dim + d]} *
                        weight.data[(k * config.char_dim + d) * config.char_filters + f];
          }
          const int at = row * config.char_filters + f;
          CHECK(products[at] == Approx(expected).margin(1e-5));
          CHECK(whole_products[at] == Approx(products[at]).margin(1e-5));
        }
      }
    }
  }
}

TEST_CASE("products over whole_table_bytes are computed per character, up to it at load",
          "[char_encoder]") {
  const Model model = chinese_sized_model();
  const std::size_t table_bytes = 36 * (2 + 3 + 4) * 128 * sizeof(float);
  REQUIRE(model.config.char_vocab_size == 36);
  CHECK(infer::CharEncoder(model, table_bytes).characters_computed() == 36);
  CHECK(infer::CharEncoder(model, table_bytes - 1).characters_computed() == 0);
  CHECK(infer::CharEncoder(model).characters_computed() == 36);  // under kWholeTableBytes
}

TEST_CASE("per character, only the characters met are computed, each once", "[char_encoder]") {
  const Model model = chinese_sized_model();
  const infer::CharEncoder encoder(model, 0);
  const std::vector<int> char_ids = word_features(model, "sass").char_ids;  // <w> s a s s </w>
  std::vector<float> out(static_cast<std::size_t>(model.config.char_feature_dim()));
  encoder.encode(char_ids, out.data());
  CHECK(encoder.characters_computed() == 4);  // <w>, s, a, </w>
  const float* s_products = encoder.products(char_ids[1]);
  encoder.encode(char_ids, out.data());
  CHECK(encoder.characters_computed() == 4);
  CHECK(encoder.products(char_ids[1]) == s_products);
}

TEST_CASE("per character, words encode to the floats of the whole table, to rounding",
          "[char_encoder]") {
  const Model model = chinese_sized_model();
  const std::vector<float> whole = encode_all(infer::CharEncoder(model), model, rotation(0));
  const std::vector<float> per_character =
      encode_all(infer::CharEncoder(model, 0), model, rotation(0));
  REQUIRE(whole.size() == per_character.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    CHECK(per_character[i] == Approx(whole[i]).margin(1e-5));
  }
}

TEST_CASE("per character, the same bits whatever order the characters are met in",
          "[char_encoder]") {
  const Model model = chinese_sized_model();
  const std::vector<float> forward = encode_all(infer::CharEncoder(model, 0), model, rotation(0));
  std::vector<std::size_t> reversed = rotation(0);
  std::reverse(reversed.begin(), reversed.end());
  CHECK(same_bits(encode_all(infer::CharEncoder(model, 0), model, reversed), forward));
  CHECK(same_bits(encode_all(infer::CharEncoder(model, 0), model, rotation(7)), forward));
}

TEST_CASE("per character, encodes from several threads at once give one thread's bits",
          "[char_encoder]") {
  const Model model = chinese_sized_model();
  const infer::CharEncoder one_thread(model, 0);
  const std::vector<float> expected = encode_all(one_thread, model, rotation(0));
  constexpr std::size_t kThreads = 4;
  for (int round = 0; round < 20; ++round) {
    // A fresh encoder each round, so that the threads race to compute its characters, each
    // thread starting at another word and so meeting the characters in another order.
    const infer::CharEncoder encoder(model, 0);
    std::vector<std::vector<float>> results(kThreads);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] { results[t] = encode_all(encoder, model, rotation(5 * t)); });
    }
    for (std::thread& thread : threads) thread.join();
    for (const std::vector<float>& result : results) CHECK(same_bits(result, expected));
    CHECK(encoder.characters_computed() == one_thread.characters_computed());
  }
}
