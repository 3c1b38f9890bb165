// The batched inference network (lib/src/infer) against the training forward pass, and the
// guarantees batch tagging makes: any batch size gives the same bits, long sentences are
// windowed.
#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "fixtures.hpp"
#include "infer/cpu_level.hpp"
#include "infer/inference_network.hpp"
#include "infer/kernels.hpp"
#include "infer/packed_linear.hpp"
#include "infer/windows.hpp"
#include "nn/network.hpp"
#include "sawtag/features.hpp"
#include "sawtag/tagger.hpp"

using namespace sawtag;

namespace {

std::vector<std::string> random_sentence(std::mt19937& rng, int length) {
  static const std::vector<std::string> kWords = {"I",   "saw", "a",      "saw", ".",  "The",
                                                  "dog", "do",  "n't",    "see", "it", ",",
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

// The network's logits for sentences of 1 to 64 words against the training forward pass.
void check_against_training(const Model& model, const infer::InferenceNetwork& network,
                            double margin) {
  std::mt19937 rng(7);
  std::vector<std::vector<std::string>> sentences;
  // 64 words: the tiny model's whole window, where attention switches to matrix products.
  for (int length : {1, 2, 5, 9, 17, 30, 64}) sentences.push_back(random_sentence(rng, length));
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
                Approx(expected(i, c)).margin(margin));
      }
    }
  }
  REQUIRE(row * static_cast<std::size_t>(columns) == logits.size());
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
  const infer::PackedLinear packed({&first, &second}, infer::Precision::float32);
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

TEST_CASE("the batched network gives the training forward pass's logits, at every CPU level",
          "[infer]") {
  // The second model has first- and last-character embeddings too.
  ModelConfig with_edges = testing::tiny_config();
  with_edges.edge_char_dim = 3;
  for (const Model& model :
       {testing::make_random_model(), testing::make_random_model(with_edges, 4)}) {
    INFO("edge_char_dim " << model.config.edge_char_dim);
    for (const infer::CpuLevel level : infer::supported_cpu_levels()) {
      INFO("level " << infer::cpu_level_name(level));
      const infer::Kernels kernels = infer::kernels_for(level);
      const infer::InferenceNetwork network(model, infer::Precision::float32, kernels);
      check_against_training(model, network, 1e-4);
    }
  }
}

TEST_CASE("bfloat16 and int8 products stay close to the training forward pass's logits",
          "[infer]") {
  const Model model = testing::make_random_model();
  for (const infer::CpuLevel level : infer::supported_cpu_levels()) {
    const infer::Kernels kernels = infer::kernels_for(level);
    if (kernels.code.linear_bfloat16 == nullptr && kernels.code.linear_int8 == nullptr) continue;
    INFO("level " << infer::cpu_level_name(level));
    const infer::InferenceNetwork network(model, infer::Precision::reduced, kernels);
    // 8 significant bits in every encoder product (bfloat16): a few hundredths on logits of
    // order 1. int8 rounds to steps of 1/127 of a row's and a column's largest value: on this
    // random model's logits, up to 0.055 off.
    check_against_training(model, network, kernels.code.linear_int8 != nullptr ? 0.12 : 0.05);
  }
}

TEST_CASE("windows cover every word, overlap, and give each word context on both sides",
          "[infer]") {
  SECTION("a sentence that fits is one window") {
    const infer::WindowPlan plan = infer::plan_windows(10, 16, 4, 3);
    REQUIRE(plan.starts == std::vector<int>{0});
    REQUIRE(plan.length == 10);
    REQUIRE(plan.owner == std::vector<int>(10, 0));
  }
  SECTION("no words, no windows") { REQUIRE(infer::plan_windows(0, 16, 16, 8).starts.empty()); }
  // (max_window, length, step): the learned tokenizer's half-window steps, the tagger's
  // default, and a model whose window is shorter than the length asked for.
  for (const auto& [max_window, length, step, window, context] :
       std::vector<std::tuple<int, int, int, int, int>>{
           {16, 16, 8, 16, 4}, {256, 32, 28, 32, 2}, {8, 32, 28, 8, 0}}) {
    for (const int n : {max_window + 1, 33, 100, 257, 20000}) {
      if (n <= max_window) continue;
      INFO("max_window " << max_window << ", length " << length << ", step " << step << ", n "
                         << n);
      const infer::WindowPlan plan = infer::plan_windows(n, max_window, length, step);
      REQUIRE(plan.length == window);
      REQUIRE(plan.starts.front() == 0);
      REQUIRE(plan.starts.back() == n - window);
      const int shrunk_step = step * window / length;
      REQUIRE(static_cast<int>(plan.starts.size()) <= n / shrunk_step + 2);  // linear in n
      for (std::size_t w = 1; w + 1 < plan.starts.size(); ++w) {
        REQUIRE(plan.starts[w] - plan.starts[w - 1] == shrunk_step);
      }
      for (int i = 0; i < n; ++i) {
        const int start =
            plan.starts[static_cast<std::size_t>(plan.owner[static_cast<std::size_t>(i)])];
        INFO("word " << i);
        REQUIRE(start <= i);
        REQUIRE(i < start + window);
        // (length - step) / 2 words of context each side, unless the sentence ends sooner.
        REQUIRE(i - start >= std::min(i, (window - shrunk_step) / 2));
        REQUIRE(start + window - 1 - i >= std::min(n - 1 - i, (window - shrunk_step) / 2));
        REQUIRE((window - shrunk_step) / 2 >= context);
      }
      // owned_words: each window's words are consecutive, within it, and the next window's
      // follow them.
      int next = 0;
      for (std::size_t w = 0; w < plan.starts.size(); ++w) {
        const infer::WordRange owned = infer::owned_words(plan, static_cast<int>(w));
        REQUIRE(owned.first == next);
        REQUIRE(owned.first >= plan.starts[w]);
        REQUIRE(owned.last <= plan.starts[w] + window);
        for (int i = owned.first; i < owned.last; ++i) {
          REQUIRE(plan.owner[static_cast<std::size_t>(i)] == static_cast<int>(w));
        }
        next = owned.last;
      }
      REQUIRE(next == n);
    }
  }
}

TEST_CASE("tag_batch gives the bits tag gives, whatever the batch size", "[infer]") {
  auto model = std::make_shared<Model>(testing::make_random_model());
  model->config.max_sequence_length = 8;  // so that the longer sentences are windowed
  const Tagger tagger(model);
  std::mt19937 rng(11);
  std::vector<std::vector<std::string>> sentences;
  for (int length : {3, 0, 8, 9, 1, 40, 17, 5}) sentences.push_back(random_sentence(rng, length));
  TagOptions options;
  options.top_k = 3;
  std::vector<TagResult> one_by_one;
  for (const auto& words : sentences) one_by_one.push_back(tagger.tag(words, options));
  for (const int batch_words : {1, 7, 8, 20, 1000}) {
    options.batch_words = batch_words;
    const std::vector<TagResult> batched = tagger.tag_batch(sentences, options);
    REQUIRE(batched.size() == sentences.size());
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      REQUIRE(batched[s].words.size() == sentences[s].size());
      for (std::size_t i = 0; i < sentences[s].size(); ++i) {
        const WordTags& a = batched[s].words[i];
        const WordTags& b = one_by_one[s].words[i];
        INFO("batch_words " << batch_words << ", sentence " << s << ", word " << i);
        REQUIRE(a.upos == b.upos);
        REQUIRE(a.xpos == b.xpos);
        REQUIRE(a.upos_probability == b.upos_probability);  // exact: rows never mix
        REQUIRE(a.xpos_probability == b.xpos_probability);
        REQUIRE(a.upos_top.size() == 3);
        REQUIRE(a.upos_top[1].probability == b.upos_top[1].probability);
      }
    }
  }
}

TEST_CASE("a sentence longer than the window is tagged in windows, linearly", "[infer]") {
  auto model = std::make_shared<Model>(testing::make_random_model());
  model->config.max_sequence_length = 8;
  const Tagger tagger(model);
  REQUIRE(tagger.max_window() == 8);
  std::mt19937 rng(5);
  const std::vector<std::string> words = random_sentence(rng, 20000);
  TagOptions options;
  options.capture_attention = true;
  const TagResult result = tagger.tag(words, options);
  REQUIRE(result.words.size() == 20000);
  for (const WordTags& tags : result.words) REQUIRE_FALSE(tags.upos.empty());
  // No n x n attention map for a windowed sentence; a short one still gets its maps.
  REQUIRE(result.attention.weights.empty());
  const TagResult short_result = tagger.tag({"I", "saw", "a", "saw"}, options);
  REQUIRE(short_result.attention.num_words == 4);
  REQUIRE(short_result.attention.weights.size() ==
          static_cast<std::size_t>(model->config.num_layers * model->config.num_heads * 16));

  // A word far from both ends of the first window is tagged as in that window alone.
  const std::vector<std::string> first_window(words.begin(), words.begin() + 8);
  const TagResult alone = tagger.tag(first_window);
  for (std::size_t i = 0; i < 4; ++i) {
    REQUIRE(result.words[i].upos_probability == alone.words[i].upos_probability);
  }
}

TEST_CASE("a long sentence's words take their tags from short windows of it, as TagOptions says",
          "[infer]") {
  const auto model = std::make_shared<Model>(testing::make_random_model());
  const Tagger tagger(model);
  REQUIRE(tagger.max_window() == 64);
  std::mt19937 rng(8);
  const std::vector<std::string> words = random_sentence(rng, 300);
  for (const auto& [length, step] :
       std::vector<std::pair<int, int>>{{32, 28}, {64, 32}, {20, 20}}) {
    TagOptions options;
    options.long_sentence_window = length;
    options.long_sentence_step = step;
    const TagResult result = tagger.tag(words, options);
    const infer::WindowPlan plan = infer::plan_windows(300, 64, length, step);
    REQUIRE(plan.length == length);
    for (std::size_t w = 0; w < plan.starts.size(); ++w) {
      const auto first = words.begin() + plan.starts[w];
      const TagResult alone = tagger.tag(std::vector<std::string>(first, first + length));
      for (int i = 0; i < length; ++i) {
        const auto word = static_cast<std::size_t>(plan.starts[w] + i);
        if (plan.owner[word] != static_cast<int>(w)) continue;
        INFO("length " << length << ", word " << word);
        REQUIRE(result.words[word].upos_probability ==
                alone.words[static_cast<std::size_t>(i)].upos_probability);
      }
    }
  }
  // A sentence up to long_sentence words is one window, whatever the windows' shape.
  const std::vector<std::string> fits(words.begin(), words.begin() + 64);
  TagOptions short_windows;
  short_windows.long_sentence_window = 8;
  short_windows.long_sentence_step = 4;
  const TagResult whole = tagger.tag(fits, short_windows);
  const TagResult as_usual = tagger.tag(fits);
  for (std::size_t i = 0; i < fits.size(); ++i) {
    REQUIRE(whole.words[i].upos_probability == as_usual.words[i].upos_probability);
  }
}

TEST_CASE("sentences over long_sentence words are windowed, unless attention maps are asked for",
          "[infer]") {
  ModelConfig config = testing::tiny_config();
  config.max_sequence_length = 128;
  const auto model = std::make_shared<Model>(testing::make_random_model(config));
  const Tagger tagger(model);
  std::mt19937 rng(9);
  const std::vector<std::string> words = random_sentence(rng, 100);
  TagOptions whole;
  whole.long_sentence = 128;
  const TagResult windowed = tagger.tag(words);  // long_sentence 64: windows of 32 every 28
  const TagResult at_once = tagger.tag(words, whole);
  const TagResult first_window =
      tagger.tag(std::vector<std::string>(words.begin(), words.begin() + 32));
  REQUIRE(TagOptions().long_sentence == 64);
  bool differs = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i < 30)
      REQUIRE(windowed.words[i].upos_probability == first_window.words[i].upos_probability);
    differs = differs || windowed.words[i].upos_probability != at_once.words[i].upos_probability;
  }
  CHECK(differs);
  TagOptions maps;
  maps.capture_attention = true;
  const TagResult with_maps = tagger.tag(words, maps);
  REQUIRE(with_maps.attention.num_words == 100);
  for (std::size_t i = 0; i < words.size(); ++i) {
    REQUIRE(with_maps.words[i].upos_probability == at_once.words[i].upos_probability);
  }
}

TEST_CASE("odd widths: the same bits for any batch size and on any thread", "[infer]") {
  // Widths that are not multiples of the vector size, large enough for Eigen's vectorised
  // paths, which treat data differently by alignment (the workspace keeps rows aligned).
  ModelConfig config = testing::tiny_config();
  config.d_model = 40;
  config.num_heads = 4;
  config.d_ff = 72;
  config.max_sequence_length = 80;  // windows of up to 80 words: both ways of attending
  const auto model = std::make_shared<Model>(testing::make_random_model(config, 3, 0.3f));
  const Tagger tagger(model);
  std::mt19937 rng(21);
  std::vector<std::vector<std::string>> sentences;
  for (int s = 0; s < 40; ++s) {
    sentences.push_back(random_sentence(rng, 1 + static_cast<int>(rng() % 200)));
  }
  TagOptions options;
  options.batch_words = 100000;
  const std::vector<TagResult> reference = tagger.tag_batch(sentences, options);
  const auto same_bits = [&](const std::vector<TagResult>& results) {
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      for (std::size_t i = 0; i < sentences[s].size(); ++i) {
        if (results[s].words[i].upos_probability != reference[s].words[i].upos_probability ||
            results[s].words[i].xpos_probability != reference[s].words[i].xpos_probability) {
          return false;
        }
      }
    }
    return true;
  };
  for (const int batch_words : {1, 13, 80, 150, 333}) {
    options.batch_words = batch_words;
    INFO("batch_words " << batch_words);
    REQUIRE(same_bits(tagger.tag_batch(sentences, options)));
  }
  // Sentences one at a time, in reverse, from a new thread: another workspace, other offsets.
  std::vector<TagResult> threaded(sentences.size());
  std::thread worker([&] {
    for (std::size_t s = sentences.size(); s-- > 0;) threaded[s] = tagger.tag(sentences[s]);
  });
  worker.join();
  REQUIRE(same_bits(threaded));
}

TEST_CASE("a model keeping its int8 word rows tags the bits of the same model widened", "[infer]") {
  const std::string text =
      serialize_model(testing::make_random_model(), TensorEncoding::base64_float16_int8_words);
  const auto kept = std::make_shared<const Model>(parse_model(text, "memory", Int8WordTable::keep));
  const auto widened = std::make_shared<const Model>(parse_model(text, "memory"));
  REQUIRE(kept->word_embedding_int8);
  REQUIRE(kept->parameters.encoder.word_embedding.data.empty());
  REQUIRE_FALSE(widened->word_embedding_int8);
  std::mt19937 rng(31);
  std::vector<std::vector<std::string>> sentences;
  for (int length : {1, 4, 12, 30, 64}) sentences.push_back(random_sentence(rng, length));
  TagOptions options;
  options.top_k = 3;
  options.capture_attention = true;
  for (const TagPrecision precision : {TagPrecision::float32, TagPrecision::fastest}) {
    const std::vector<TagResult> from_kept = Tagger(kept, precision).tag_batch(sentences, options);
    const std::vector<TagResult> from_widened =
        Tagger(widened, precision).tag_batch(sentences, options);
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      INFO("sentence " << s);
      REQUIRE(from_kept[s].attention.weights == from_widened[s].attention.weights);
      for (std::size_t i = 0; i < sentences[s].size(); ++i) {
        const WordTags& a = from_kept[s].words[i];
        const WordTags& b = from_widened[s].words[i];
        REQUIRE(a.upos == b.upos);
        REQUIRE(a.xpos == b.xpos);
        REQUIRE(a.upos_probability == b.upos_probability);  // exact: the same input rows
        REQUIRE(a.xpos_probability == b.xpos_probability);
        REQUIRE(a.upos_top[2].probability == b.upos_top[2].probability);
      }
    }
  }
}

TEST_CASE("a kept int8 word table of the wrong size is refused by the Tagger", "[infer]") {
  const std::string text =
      serialize_model(testing::make_random_model(), TensorEncoding::base64_float16_int8_words);
  auto model = std::make_shared<Model>(parse_model(text, "memory", Int8WordTable::keep));
  model->word_embedding_int8->scales.pop_back();
  CHECK_THROWS_WITH(Tagger(model), "Tagger: int8 word embedding scales: expected 12, actual 11");
}

// A long sentence's window owns only some of its words (infer/windows.hpp); the network
// computes the last layer past its attention for those rows alone (and their queries alone in
// windows under 64 words). Their logits must be the bits of the whole window's.
TEST_CASE("a window's wanted rows get the logits the whole window gives them", "[infer]") {
  ModelConfig config = testing::tiny_config();
  config.d_model = 32;  // head_dim 16: the attention kernels take four query rows at a time
  config.d_ff = 24;
  config.max_sequence_length = 128;
  const Model model = testing::make_random_model(config, 6, 0.3f);
  std::mt19937 rng(12);
  const std::vector<std::string> words = random_sentence(rng, 300);
  // Windows under 64 words (the CPU level's attention loops) and from 64 on (Eigen's products).
  std::vector<infer::Window> whole;
  std::vector<infer::Window> owned;
  for (const auto& [length, step] : std::vector<std::pair<int, int>>{
           {32, 28}, {20, 7}, {63, 20}, {64, 32}, {128, 64}, {100, 90}}) {
    const infer::WindowPlan plan = infer::plan_windows(300, 128, length, step);
    for (std::size_t w = 0; w < plan.starts.size(); ++w) {
      const infer::Window window{&words, plan.starts[w], plan.length, nullptr};
      whole.push_back(window);
      const infer::WordRange range = infer::owned_words(plan, static_cast<int>(w));
      REQUIRE(range.last > range.first);
      owned.push_back(window);
      owned.back().unwanted_before = range.first - window.first;
      owned.back().unwanted_after = window.first + window.count - range.last;
    }
  }
  // One wanted row at either end, none, and the last rows of a long window.
  for (const auto& [count, before, after] :
       std::vector<std::tuple<int, int, int>>{{30, 0, 29}, {30, 29, 0}, {17, 9, 8}, {90, 50, 0}}) {
    const infer::Window window{&words, 11, count, nullptr};
    whole.push_back(window);
    owned.push_back(window);
    owned.back().unwanted_before = before;
    owned.back().unwanted_after = after;
  }
  for (const infer::CpuLevel level : infer::supported_cpu_levels()) {
    const infer::Kernels kernels = infer::kernels_for(level);
    for (const infer::Precision precision :
         {infer::Precision::float32, infer::Precision::reduced}) {
      INFO("level " << infer::cpu_level_name(level) << ", precision "
                    << (precision == infer::Precision::float32 ? "float32" : "reduced"));
      const infer::InferenceNetwork network(model, precision, kernels);
      const auto columns = static_cast<std::size_t>(network.num_logits());
      std::vector<float> all_logits;
      std::vector<float> owned_logits;
      network.forward(whole, all_logits);
      network.forward(owned, owned_logits);
      std::size_t all_row = 0;
      std::size_t owned_row = 0;
      for (const infer::Window& window : owned) {
        all_row += static_cast<std::size_t>(window.unwanted_before);
        for (int i = 0; i < window.wanted(); ++i, ++all_row, ++owned_row) {
          for (std::size_t c = 0; c < columns; ++c) {
            REQUIRE(owned_logits[owned_row * columns + c] == all_logits[all_row * columns + c]);
          }
        }
        all_row += static_cast<std::size_t>(window.unwanted_after);
      }
      REQUIRE(owned_row * columns == owned_logits.size());
      REQUIRE(all_row * columns == all_logits.size());
    }
  }
}

TEST_CASE("a window's wanted rows are checked", "[infer]") {
  const Model model = testing::make_random_model();
  const infer::InferenceNetwork network(model, infer::Precision::float32);
  const std::vector<std::string> words = {"I", "saw", "a", "dog", "."};
  std::vector<float> attention;
  std::vector<float> logits;
  for (const auto& [before, after, maps] : std::vector<std::tuple<int, int, bool>>{
           {-1, 0, false}, {0, -1, false}, {3, 3, false}, {1, 0, true}}) {
    infer::Window window{&words, 0, 5, maps ? &attention : nullptr};
    window.unwanted_before = before;
    window.unwanted_after = after;
    CHECK_THROWS_WITH(network.forward({window}, logits),
                      "InferenceNetwork: wanted rows out of the window, or attention of some rows");
  }
  infer::Window none{&words, 0, 5, nullptr};
  none.unwanted_before = 5;
  network.forward({none}, logits);
  CHECK(logits.empty());
}
