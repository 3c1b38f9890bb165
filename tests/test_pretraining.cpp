// `sawtag pretrain`: the masked-vector and masked-word objectives' gradients, and pre-training
// on tiny text — determinism, resuming, the budget, and fine-tuning from the encoder
// (`train --encoder`).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "fixtures.hpp"
#include "nn/matrix.hpp"
#include "sawtag/error.hpp"
#include "sawtag/pretraining.hpp"
#include "sawtag/training.hpp"
#include "train/masked_vectors.hpp"

namespace sawtag {
namespace {


// Eight-dimensional vectors for a small vocabulary, and text made of those words.
const std::vector<std::string> kWords = {"the", "dog", "saw", "a", "cat", "wood", "we", "cut",
                                         "i", ".", "with", "it"};

std::string write_vectors(const testing::TempDir& scratch) {
  const std::string path = scratch.file("vectors.vec");
  std::ofstream out(path);
  out << std::setprecision(9) << kWords.size() << " 8\n";
  for (std::size_t w = 0; w < kWords.size(); ++w) {
    out << kWords[w];
    for (std::size_t k = 0; k < 8; ++k) out << ' ' << 0.5f * std::sin(static_cast<float>(5 * w + k + 1));
    out << '\n';
  }
  return path;
}

std::string write_text(const testing::TempDir& scratch) {
  const std::string path = scratch.file("text.txt");
  std::ofstream out(path);
  std::mt19937_64 random(3);
  std::uniform_int_distribution<std::size_t> pick(0, kWords.size() - 2);
  for (int line = 0; line < 60; ++line) {
    for (int sentence = 0; sentence < 2; ++sentence) {
      out << "The dog";
      for (int w = 0; w < 6; ++w) out << ' ' << kWords[pick(random)];
      out << " Zebra. ";
    }
    out << '\n';
  }
  return path;
}

// Options for a tiny encoder whose text and vectors are written in `scratch`.
PretrainOptions tiny_options(const testing::TempDir& scratch) {
  PretrainOptions options;
  options.config.word_dim = 8;
  options.config.char_dim = 4;
  options.config.char_widths = {2, 3};
  options.config.char_filters = 4;
  options.config.shape_dim = 3;
  options.config.d_model = 8;
  options.config.num_heads = 2;
  options.config.num_layers = 1;
  options.config.d_ff = 16;
  options.config.max_relative_distance = 3;
  options.text_path = write_text(scratch);
  options.vectors_path = write_vectors(scratch);
  options.batch_words = 60;
  options.max_words = 1200;
  options.learning_rate = 1e-2f;
  options.warmup_steps = 2;
  options.threads = 2;
  options.checkpoint_seconds = 1e9;  // only at the end
  return options;
}

}  // namespace

TEST_CASE("masked words hide word and spelling, and only words with a vector", "[pretraining]") {
  const Model model = testing::make_random_model();
  std::vector<WordFeatures> words;
  for (const char* word : {"I", "saw", "Zebulon", "a", "dog", "."}) {
    words.push_back(word_features(model, word));
  }
  REQUIRE(words[2].word_id == kUnknownWord);
  std::mt19937_64 random(1);
  std::vector<int> ids;
  const std::vector<WordFeatures> original = words;
  const std::vector<int> hidden = train::mask_words(words, 0.5f, random, ids);
  REQUIRE_FALSE(hidden.empty());
  REQUIRE(ids.size() == hidden.size());
  for (std::size_t k = 0; k < hidden.size(); ++k) {
    const auto position = static_cast<std::size_t>(hidden[k]);
    CHECK(position != 2);  // no vector to predict
    CHECK(ids[k] == original[position].word_id);
    CHECK(words[position].word_id == kUnknownWord);
    CHECK(words[position].char_ids == train::masked_word().char_ids);
    CHECK(words[position].shape == static_cast<int>(WordShape::other));
  }
  // A rate of ~0 still hides one word.
  std::vector<WordFeatures> again = original;
  CHECK(train::mask_words(again, 1e-9f, random, ids).size() == 1);
}

// An observer that keeps the loss of every step in `losses`.
PretrainObserver losses_into(std::vector<double>& losses) {
  PretrainObserver observer;
  observer.on_progress = [&losses](const PretrainProgress& progress) {
    losses.push_back(progress.loss);
  };
  return observer;
}

// A hidden-word loss's random inputs: encoder output [5, 6], a head [6 -> 4], hidden words at
// rows 4, 0 and 2.
struct LossProblem {
  explicit LossProblem(std::uint64_t seed) : random(seed) {
    encoded = random_matrix(5, 6);
    head.weight = Tensor({6, 4});
    head.bias = Tensor({4});
    for (float& value : head.weight.data) value = uniform(random);
    for (float& value : head.bias.data) value = uniform(random);
  }
  nn::Matrix random_matrix(Eigen::Index rows, Eigen::Index cols) {
    nn::Matrix matrix(rows, cols);
    for (Eigen::Index i = 0; i < matrix.size(); ++i) matrix.data()[i] = uniform(random);
    return matrix;
  }

  std::mt19937_64 random;
  std::uniform_real_distribution<float> uniform{-1.0f, 1.0f};
  nn::Matrix encoded;
  LinearParameters head;
  const std::vector<int> rows = {4, 0, 2};
};

// `loss(scale, d_encoded, d_head)` returns the summed loss and, given d_encoded and d_head, adds
// scale times its gradients into them: checked against central differences, by every input of
// the encoder output and of the head.
template <typename Loss>
void check_gradients(LossProblem& problem, const Loss& loss) {
  const float scale = 0.5f;
  nn::Matrix d_encoded = nn::Matrix::Zero(5, 6);
  LinearParameters d_head;
  d_head.weight = Tensor({6, 4});
  d_head.bias = Tensor({4});
  loss(scale, &d_encoded, &d_head);
  const auto check = [&](float* values, const float* analytic, std::size_t size) {
    for (std::size_t k = 0; k < size; ++k) {
      const float saved = values[k];
      values[k] = saved + 1e-3f;
      const double plus = scale * loss(1.0f, nullptr, nullptr);
      values[k] = saved - 1e-3f;
      const double minus = scale * loss(1.0f, nullptr, nullptr);
      values[k] = saved;
      INFO("element " << k);
      CHECK(analytic[k] == Approx((plus - minus) / 2e-3).margin(2e-3));
    }
  };
  check(problem.encoded.data(), d_encoded.data(), static_cast<std::size_t>(d_encoded.size()));
  check(problem.head.weight.data.data(), d_head.weight.data.data(), d_head.weight.data.size());
  check(problem.head.bias.data.data(), d_head.bias.data.data(), d_head.bias.data.size());
  CHECK(d_encoded.row(1).isZero());  // a row no hidden word is in
}

TEST_CASE("masked-vector loss: gradients against finite differences", "[pretraining]") {
  LossProblem problem(5);
  const nn::Matrix targets = problem.random_matrix(3, 4);
  check_gradients(problem, [&](float scale, nn::Matrix* d_encoded, LinearParameters* d_head) {
    return train::masked_vector_loss(problem.head, problem.encoded, problem.rows, targets, scale,
                                     d_encoded, d_head);
  });
}

TEST_CASE("masked-word loss: the softmax's cross-entropy, and its gradients", "[pretraining]") {
  LossProblem problem(6);
  const nn::Matrix candidates = problem.random_matrix(7, 4);  // seven candidate words' vectors
  const std::vector<int> columns = {3, 0, 3};  // two hidden words are the same word
  const auto loss = [&](float scale, nn::Matrix* d_encoded, LinearParameters* d_head) {
    return train::masked_word_loss(problem.head, problem.encoded, problem.rows, columns,
                                   candidates, scale, d_encoded, d_head);
  };
  // The loss, computed here directly.
  double expected = 0.0;
  for (std::size_t k = 0; k < problem.rows.size(); ++k) {
    const Eigen::VectorXf y =
        nn::as_matrix(problem.head.weight).transpose() *
            problem.encoded.row(problem.rows[k]).transpose() +
        Eigen::Map<const Eigen::VectorXf>(problem.head.bias.data.data(), 4);
    const Eigen::VectorXf logits = candidates * y;
    expected += std::log(logits.array().exp().sum()) - logits(columns[k]);
  }
  CHECK(loss(1.0f, nullptr, nullptr) == Approx(expected).epsilon(1e-4));
  check_gradients(problem, loss);
}

TEST_CASE("pretrain: learns, is deterministic, and resumes exactly", "[pretraining]") {
  const testing::TempDir scratch;
  PretrainOptions options = tiny_options(scratch);
  options.checkpoint_path = scratch.file("a.ckpt");
  std::vector<double> losses;  // of each step
  const Model first = pretrain_encoder(options, losses_into(losses));
  CHECK(first.training.fields.at("kind") == "encoder");
  CHECK(std::stoll(first.training.fields.at("words")) >= options.max_words);
  CHECK(first.training.fields.at("vectors").find('/') == std::string::npos);
  REQUIRE(losses.size() >= 2);
  CHECK(losses.back() < losses.front());
  // The word rows are the vectors, unchanged.
  const int saw = first.words.find("saw");
  REQUIRE(saw > 0);
  CHECK(first.parameters.encoder.word_embedding.data[static_cast<std::size_t>(saw) * 8] ==
        0.5f * std::sin(static_cast<float>(5 * 2 + 0 + 1)));

  const Model again = pretrain_encoder(options);
  CHECK(serialize_model(again) == serialize_model(first));

  // Stopped early by the time budget (wherever that falls: always between two steps), then
  // resumed from its checkpoint without one: the same encoder as the uninterrupted run.
  PretrainOptions longer = options;
  longer.max_words = 20000;
  longer.checkpoint_path = scratch.file("straight.ckpt");
  const Model straight = pretrain_encoder(longer);
  PretrainOptions stopped = longer;
  stopped.checkpoint_path = scratch.file("stopped.ckpt");
  stopped.max_seconds = 0.02;
  const Model partial = pretrain_encoder(stopped);
  CHECK(std::stoll(partial.training.fields.at("words")) < longer.max_words);
  PretrainOptions resumed_options = longer;
  resumed_options.resume_path = stopped.checkpoint_path;
  resumed_options.checkpoint_path = scratch.file("resumed.ckpt");
  const Model resumed = pretrain_encoder(resumed_options);
  // The records differ only in the date-independent fields checked here.
  CHECK(resumed.training.fields.at("words") == straight.training.fields.at("words"));
  CHECK(resumed.training.fields.at("steps") == straight.training.fields.at("steps"));
  for (std::size_t l = 0; l < straight.parameters.encoder.layers.size(); ++l) {
    CHECK(resumed.parameters.encoder.layers[l].feed_forward.hidden.weight.data ==
          straight.parameters.encoder.layers[l].feed_forward.hidden.weight.data);
  }
  CHECK(serialize_model(resumed) == serialize_model(straight));
}

TEST_CASE("pretrain --objective word: learns, is deterministic, resumes only its own checkpoint",
          "[pretraining]") {
  const testing::TempDir scratch;
  PretrainOptions options = tiny_options(scratch);
  options.objective = PretrainObjective::word;
  options.negatives = 5;
  options.max_words = 20000;  // long enough for a 0.02 s budget to stop it on the way
  options.checkpoint_path = scratch.file("word.ckpt");
  std::vector<double> losses;  // of each step
  const Model first = pretrain_encoder(options, losses_into(losses));
  CHECK(first.training.fields.at("objective") == "masked-word");
  REQUIRE(losses.size() >= 20);
  // Over ten steps: the candidates change from step to step.
  const auto ten_steps = [&losses](std::size_t from) {
    return std::accumulate(losses.begin() + static_cast<std::ptrdiff_t>(from),
                           losses.begin() + static_cast<std::ptrdiff_t>(from + 10), 0.0);
  };
  CHECK(ten_steps(losses.size() - 10) < ten_steps(0));
  const Model again = pretrain_encoder(options);
  CHECK(serialize_model(again) == serialize_model(first));
  // Another objective is another encoder.
  PretrainOptions vector_options = tiny_options(scratch);
  vector_options.checkpoint_path = scratch.file("vector.ckpt");
  const Model by_vector = pretrain_encoder(vector_options);
  CHECK(by_vector.training.fields.at("objective") == "masked-vector");
  CHECK(by_vector.parameters.encoder.layers[0].attention.query.weight.data !=
        first.parameters.encoder.layers[0].attention.query.weight.data);

  // Stopped and resumed: the same encoder as the uninterrupted run.
  PretrainOptions stopped = options;
  stopped.checkpoint_path = scratch.file("stopped-word.ckpt");
  stopped.max_seconds = 0.02;
  pretrain_encoder(stopped);
  PretrainOptions resumed_options = options;
  resumed_options.resume_path = stopped.checkpoint_path;
  resumed_options.checkpoint_path = scratch.file("resumed-word.ckpt");
  CHECK(serialize_model(pretrain_encoder(resumed_options)) == serialize_model(first));

  // A checkpoint of one objective does not go on with the other.
  PretrainOptions mismatched = vector_options;
  mismatched.resume_path = options.checkpoint_path;
  mismatched.checkpoint_path = scratch.file("mismatched.ckpt");
  CHECK_THROWS_WITH(pretrain_encoder(mismatched),
                    Catch::Matchers::Contains("is of --objective word, not vector"));
}
TEST_CASE("pretrain -> train --encoder: the encoder starts the fine-tuning", "[pretraining]") {
  const testing::TempDir scratch;
  PretrainOptions options = tiny_options(scratch);
  const Model encoder = pretrain_encoder(options);
  const std::string encoder_path = scratch.file("encoder.json");
  save_model(encoder, encoder_path);

  const std::vector<Sentence> treebank = {[] {
    Sentence sentence;
    for (const char* form : {"The", "dog", "saw", "a", "cat", "."}) {
      Word word;
      word.form = form;
      word.upos = form[0] == '.' ? "PUNCT" : "NOUN";
      word.xpos = "NN";
      sentence.words.push_back(word);
    }
    return sentence;
  }()};
  TrainOptions train_options;
  train_options.encoder_path = encoder_path;
  train_options.min_word_count = 1;
  train_options.epochs = 1;
  const Model model = initial_model(treebank, train_options);
  CHECK(model.config.d_model == 8);  // the encoder's sizes, not the defaults
  const EncoderParameters& from = encoder.parameters.encoder;
  const EncoderParameters& to = model.parameters.encoder;
  CHECK(to.layers[0].attention.query.weight.data == from.layers[0].attention.query.weight.data);
  CHECK(to.final_norm.gamma.data == from.final_norm.gamma.data);
  CHECK(to.input_projection.weight.data == from.input_projection.weight.data);
  const auto row = [](const Tensor& table, int dim, int index) {
    return std::vector<float>(table.data.begin() + index * dim,
                              table.data.begin() + (index + 1) * dim);
  };
  CHECK(row(to.word_embedding, 8, model.words.find("dog")) ==
        row(from.word_embedding, 8, encoder.words.find("dog")));
  CHECK(row(to.char_embedding, 4, model.chars.find("g")) ==
        row(from.char_embedding, 4, encoder.chars.find("g")));
  // Training from it works end to end.
  const Model trained = train_model(treebank, treebank, train_options);
  CHECK(trained.config.d_model == 8);

  // --encoder-lr-scale: the encoder's tensors train with lr times the scale, the heads with lr.
  const auto largest_change = [](const Tensor& before, const Tensor& after) {
    float largest = 0.0f;
    for (std::size_t k = 0; k < before.data.size(); ++k) {
      largest = std::max(largest, std::abs(after.data[k] - before.data[k]));
    }
    return largest;
  };
  TrainOptions full = train_options;
  full.epochs = 3;
  full.warmup_steps = 1;
  full.average_decay = 0.0f;
  const Model moved = train_model(treebank, treebank, full);
  TrainOptions gentle = full;
  gentle.encoder_lr_scale = 1e-6f;
  const Model held = train_model(treebank, treebank, gentle);
  const Tensor& query = model.parameters.encoder.layers[0].attention.query.weight;
  CHECK(largest_change(query, moved.parameters.encoder.layers[0].attention.query.weight) > 1e-4f);
  CHECK(largest_change(query, held.parameters.encoder.layers[0].attention.query.weight) < 1e-6f);
  CHECK(largest_change(model.parameters.heads.upos.weight, held.parameters.heads.upos.weight) >
        1e-4f);

  // An encoder of other sizes is refused by name.
  PretrainOptions wider = tiny_options(scratch);
  wider.config.d_ff = 24;
  const std::string wider_path = scratch.file("wider.json");
  save_model(pretrain_encoder(wider), wider_path);
  Model other = initial_model(treebank, train_options);
  Model wider_encoder = load_model(wider_path);
  CHECK_THROWS_WITH(load_encoder_into(wider_encoder, other),
                    Catch::Matchers::Contains("d_ff is 24 but the model's is 16"));
}

TEST_CASE("pretrain refuses unusable input with a clear error", "[pretraining]") {
  const testing::TempDir scratch;
  PretrainOptions options = tiny_options(scratch);
  options.text_path = scratch.file("missing.txt");
  CHECK_THROWS_WITH(pretrain_encoder(options), Catch::Matchers::Contains("cannot open the text"));
  options = tiny_options(scratch);
  options.config.word_dim = 16;
  CHECK_THROWS_WITH(pretrain_encoder(options), Catch::Matchers::Contains("8 dimensions"));
  options = tiny_options(scratch);
  options.resume_path = options.text_path;
  CHECK_THROWS_WITH(pretrain_encoder(options),
                    Catch::Matchers::Contains("not a sawtag pre-training checkpoint"));
}

}  // namespace sawtag
