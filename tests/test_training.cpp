#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/training.hpp"
#include "tiny_training.hpp"

namespace sawtag {
namespace {

// "word/UPOS/XPOS ..." -> a gold sentence.
Sentence gold(const std::string& line) {
  Sentence sentence;
  std::istringstream in(line);
  std::string item;
  while (in >> item) {
    const auto first = item.find('/');
    const auto second = item.find('/', first + 1);
    Word word;
    word.form = item.substr(0, first);
    word.upos = item.substr(first + 1, second - first - 1);
    word.xpos = item.substr(second + 1);
    sentence.words.push_back(word);
  }
  return sentence;
}

std::vector<Sentence> tiny_treebank() {
  return {gold("I/PRON/PRP saw/VERB/VBD a/DET/DT saw/NOUN/NN ./PUNCT/."),
          gold("The/DET/DT dog/NOUN/NN saw/VERB/VBD me/PRON/PRP ./PUNCT/."),
          gold("A/DET/DT saw/NOUN/NN cuts/VERB/VBZ wood/NOUN/NN ./PUNCT/."),
          gold("We/PRON/PRP cut/VERB/VBD the/DET/DT wood/NOUN/NN with/ADP/IN a/DET/DT saw/NOUN/NN"),
          gold("Dogs/NOUN/NNS bark/VERB/VBP loudly/ADV/RB !/PUNCT/.")};
}

TrainOptions tiny_options() { return testing::tiny_train_options(); }

std::string temporary_path(const std::string& name) {
  const std::string file = "sawtag-test-" + std::to_string(::getpid()) + "-" + name;
  return (std::filesystem::temp_directory_path() / file).string();
}

// Writes `sentences` as a CoNLL-U file at `path`.
void write_treebank(const std::string& path, const std::vector<Sentence>& sentences) {
  std::ofstream out(path);
  for (const Sentence& sentence : sentences) write_conllu(out, sentence);
}

// Silver data in which "cut" after a plural subject is VBP, which the treebank never shows,
// and one sentence whose tags the ensemble was unsure of ("_": not trained on).
std::vector<Sentence> tiny_silver() {
  return {gold("Dogs/NOUN/NNS cut/VERB/VBP wood/NOUN/NN ./PUNCT/."),
          gold("Dogs/NOUN/NNS cut/VERB/VBP the/DET/DT wood/NOUN/NN ./PUNCT/."),
          gold("Cats/_/_ saw/_/_ wood/_/_")};
}

}  // namespace

TEST_CASE("Training overfits a 5-sentence corpus to 100%", "[training]") {
  const auto treebank = tiny_treebank();
  const Model model = train_model(treebank, treebank, tiny_options());
  const Tagger tagger(std::make_shared<const Model>(model));
  const Evaluation evaluation = evaluate(tagger, treebank);
  CHECK(evaluation.upos.accuracy() == Approx(100.0));
  CHECK(evaluation.xpos.accuracy() == Approx(100.0));
  const TagResult result = tagger.tag({"I", "saw", "a", "saw"});
  CHECK(result.words[1].upos == "VERB");
  CHECK(result.words[3].upos == "NOUN");
  CHECK(model.training.fields.at("seed") == "42");
}

TEST_CASE("First- and last-character embeddings are trained, saved and tagged with", "[training]") {
  const auto treebank = tiny_treebank();
  TrainOptions options = tiny_options();
  options.config.edge_char_dim = 4;
  const Model model = train_model(treebank, treebank, options);
  const Model initial = initial_model(treebank, options);
  REQUIRE(model.config.edge_char_dim == 4);
  CHECK(model.parameters.encoder.first_char_embedding.data !=
        initial.parameters.encoder.first_char_embedding.data);
  CHECK(model.parameters.encoder.last_char_embedding.data !=
        initial.parameters.encoder.last_char_embedding.data);
  const auto loaded = std::make_shared<const Model>(parse_model(serialize_model(model), "m.json"));
  const Tagger tagger(loaded);
  CHECK(evaluate(tagger, treebank).upos.accuracy() == Approx(100.0));
  CHECK(tagger.tag({"We", "cut", "a", "saw"}).words[3].upos == "NOUN");
}

TEST_CASE("The same seed gives a byte-identical model; another seed does not", "[training]") {
  const auto treebank = tiny_treebank();
  TrainOptions options = tiny_options();
  options.epochs = 3;
  options.dropout = 0.1f;
  options.word_dropout = 0.25f;
  const std::string first = serialize_model(train_model(treebank, treebank, options));
  const std::string second = serialize_model(train_model(treebank, treebank, options));
  CHECK(first == second);
  // Another seed: other weights (not only another "seed" in the training record).
  const Model model = train_model(treebank, treebank, options);
  options.seed = 43;
  const Model other = train_model(treebank, treebank, options);
  CHECK(other.parameters.encoder.word_embedding.data !=
        model.parameters.encoder.word_embedding.data);
  CHECK(other.parameters.heads.upos.weight.data !=
        model.parameters.heads.upos.weight.data);
}

TEST_CASE("Resuming (--resume) after a stop gives the same model as an uninterrupted run", "[training]") {
  const auto treebank = tiny_treebank();
  TrainOptions options = tiny_options();
  options.epochs = 4;
  options.dropout = 0.1f;
  options.word_dropout = 0.25f;
  options.average_decay = GENERATE(0.0f, 0.9f);
  INFO("average decay " << options.average_decay);
  const std::string uninterrupted = serialize_model(train_model(treebank, treebank, options));

  const std::string checkpoint = temporary_path("resume.ckpt");
  options.checkpoint_path = checkpoint;
  struct Stop {};
  TrainObserver stop_after_two;
  stop_after_two.on_epoch = [](const EpochSummary& summary) {
    if (summary.epoch == 2) throw Stop{};
  };
  REQUIRE_THROWS_AS(train_model(treebank, treebank, options, stop_after_two), Stop);

  options.resume_path = checkpoint;
  const std::string resumed = serialize_model(train_model(treebank, treebank, options));
  CHECK(resumed == uninterrupted);
  std::remove(checkpoint.c_str());
}

TEST_CASE("Pre-trained vectors: copied as they are, extra words frozen", "[training]") {
  // Four vectors of 16: "saw" and "wood" are treebank words (seen at least twice), "zebra" is
  // not, and fastText's "</s>" is skipped.
  const std::vector<std::string> words = {"saw", "</s>", "zebra", "wood"};
  const auto value = [](std::size_t word, std::size_t k) {
    return 0.5f * std::sin(static_cast<float>(7 * word + k + 1));
  };
  const std::string path = temporary_path("vectors.vec");
  {
    std::ofstream out(path);
    out << std::setprecision(9) << words.size() << " 16\n";
    for (std::size_t w = 0; w < words.size(); ++w) {
      out << words[w];
      for (std::size_t k = 0; k < 16; ++k) out << ' ' << value(w, k);
      out << '\n';
    }
  }
  const auto treebank = tiny_treebank();
  TrainOptions options = tiny_options();
  options.min_word_count = 2;
  options.pretrained_embeddings = path;
  options.epochs = 3;
  const Model initial = initial_model(treebank, options);
  const int trainable = std::stoi(initial.training.fields.at("trainable_word_rows"));
  CHECK(initial.words.find("saw") < trainable);
  CHECK(initial.words.find("wood") < trainable);
  CHECK(initial.words.find("zebra") == trainable);
  CHECK(initial.words.find("</s>") < 0);
  CHECK(initial.words.size() == trainable + 1);

  const auto row = [](const Model& model, const std::string& word) {
    const TensorData& table = model.parameters.encoder.word_embedding.data;
    const auto begin = table.begin() + model.words.find(word) * model.config.word_dim;
    return std::vector<float>(begin, begin + model.config.word_dim);
  };
  for (std::size_t w : {0, 2, 3}) {
    INFO(words[w]);
    const std::vector<float> copied = row(initial, words[w]);
    for (std::size_t k = 0; k < 16; ++k) CHECK(copied[k] == value(w, k));
  }
  // The random rows are on the vectors' scale (their standard deviation, about 0.35).
  double squares = 0.0;
  const std::vector<float> unknown = row(initial, "<unk>");
  for (float x : unknown) squares += static_cast<double>(x) * x;
  CHECK(std::sqrt(squares / 16) > 0.1);

  const Model trained = train_model(treebank, treebank, options);
  CHECK(row(trained, "zebra") == row(initial, "zebra"));
  CHECK(row(trained, "saw") != row(initial, "saw"));

  SECTION("--vector-anchor: fine-tuned rows stay closer to their vectors") {
    const auto distance = [&row, &initial](const Model& model, const std::string& word) {
      const std::vector<float> now = row(model, word), start = row(initial, word);
      double sum = 0.0;
      for (std::size_t k = 0; k < now.size(); ++k) sum += (now[k] - start[k]) * (now[k] - start[k]);
      return std::sqrt(sum);
    };
    options.vector_anchor = 20.0f;
    const Model anchored = train_model(treebank, treebank, options);
    for (const std::string word : {"saw", "wood"}) {
      INFO(word);
      CHECK(distance(anchored, word) > 0.0);
      CHECK(distance(anchored, word) < 0.8 * distance(trained, word));
    }
    CHECK(row(anchored, "zebra") == row(initial, "zebra"));

    // Resumed without the vectors file, the anchors cannot be read: a clear error.
    const std::string checkpoint = temporary_path("anchor.ckpt");
    options.checkpoint_path = checkpoint;
    options.epochs = 1;
    train_model(treebank, treebank, options);
    options.resume_path = checkpoint;
    options.pretrained_embeddings.clear();
    options.epochs = 2;
    CHECK_THROWS_WITH(train_model(treebank, treebank, options),
                      Catch::Contains("--vector-anchor needs the --pretrained-embeddings"));
    std::remove(checkpoint.c_str());
  }

  SECTION("--freeze-vectors: the treebank's words with a vector stay fixed too") {
    options.freeze_vectors = true;
    const Model frozen_initial = initial_model(treebank, options);
    const int frozen_trainable =
        std::stoi(frozen_initial.training.fields.at("trainable_word_rows"));
    CHECK(frozen_initial.words.find("the") < frozen_trainable);
    for (const std::string word : {"saw", "zebra", "wood"}) {
      INFO(word);
      CHECK(frozen_initial.words.find(word) >= frozen_trainable);
      CHECK(row(frozen_initial, word) == row(initial, word));
    }
    CHECK(frozen_initial.words.size() == initial.words.size());
    const Model frozen_trained = train_model(treebank, treebank, options);
    for (const std::string word : {"saw", "zebra", "wood"}) {
      INFO(word);
      CHECK(row(frozen_trained, word) == row(frozen_initial, word));
    }
    CHECK(row(frozen_trained, "the") != row(frozen_initial, "the"));
    CHECK(row(frozen_trained, "<unk>") != row(frozen_initial, "<unk>"));
  }
  std::remove(path.c_str());
}

TEST_CASE("Weight averaging: the model scored on dev is the one kept, and differs", "[training]") {
  const auto treebank = tiny_treebank();
  TrainOptions options = tiny_options();
  options.epochs = 6;
  const std::string plain = serialize_model(train_model(treebank, treebank, options));
  options.average_decay = 0.9f;
  double best_upos = -1.0, best_xpos = -1.0;
  TrainObserver observer;
  observer.on_epoch = [&](const EpochSummary& summary) {
    if (summary.improved) {
      best_upos = summary.dev_upos;
      best_xpos = summary.dev_xpos;
    }
  };
  const Model averaged = train_model(treebank, treebank, options, observer);
  CHECK(serialize_model(averaged) != plain);
  const Evaluation evaluation = evaluate(Tagger(std::make_shared<const Model>(averaged)), treebank);
  CHECK(evaluation.upos.accuracy() == best_upos);
  CHECK(evaluation.xpos.accuracy() == best_xpos);
}

TEST_CASE("Only an epoch whose model passes the self-tests is kept", "[training]") {
  const auto treebank = tiny_treebank();
  TrainOptions options = tiny_options();
  // A training sentence: the first epochs' models tag it wrong, the overfitted ones right.
  options.self_tests = {{{"I", "saw", "a", "saw", "."}, {"PRON", "VERB", "DET", "NOUN", "PUNCT"}}};
  options.patience = 2;
  int kept = 0, refused = 0;
  TrainObserver observer;
  observer.on_epoch = [&](const EpochSummary& summary) {
    if (!summary.failed_self_test.empty()) {
      CHECK(summary.failed_self_test == "I saw a saw .");
      CHECK_FALSE(summary.improved);
      ++refused;
    }
    if (summary.improved) ++kept;
  };
  const Model model = train_model(treebank, treebank, options, observer);
  CHECK(kept > 0);
  CHECK(refused > options.patience);  // the first epochs' models tag it wrong: not counted
  REQUIRE(model.self_tests.size() == 1);
  const Tagger tagger(std::make_shared<const Model>(model));  // runs the self-test
  CHECK(tagger.tag({"I", "saw", "a", "saw", "."}).words[3].upos == "NOUN");

  options.self_tests = {{{"I", "saw"}, {"X", "X"}}};  // X is not in the tag set
  CHECK_THROWS_WITH(train_model(treebank, treebank, options),
                    Catch::Contains("passes every --self-test"));
}

TEST_CASE("Silver data (--silver) is trained on, its _ tags left out", "[training][silver]") {
  const auto treebank = tiny_treebank();
  const auto silver = tiny_silver();
  const std::string path = temporary_path("silver.conllu");
  write_treebank(path, silver);
  const std::vector<Sentence> silver_tagged(silver.begin(), silver.begin() + 2);
  const auto accuracy_on_silver = [&silver_tagged](const Model& model) {
    const Tagger tagger(std::make_shared<const Model>(model));
    return evaluate(tagger, silver_tagged).xpos.accuracy();
  };

  TrainOptions options = tiny_options();
  const Model without = train_model(treebank, treebank, options);
  options.silver_path = path;
  const Model with = train_model(treebank, treebank, options);
  CHECK(accuracy_on_silver(without) < 100.0);  // "cut" is VBD in the treebank
  CHECK(accuracy_on_silver(with) == Approx(100.0));
  // The treebank is still learnt, and "_" is never a tag the model knows or gives.
  const Tagger tagger(std::make_shared<const Model>(with));
  CHECK(evaluate(tagger, treebank).upos.accuracy() == Approx(100.0));
  CHECK(with.upos.find("_") == -1);
  CHECK(with.xpos.find("_") == -1);
  // The vocabulary is the treebank's: "cats" (only in the silver data, lower-cased) is <unk>.
  CHECK(with.words.find("cats") == -1);
  CHECK(with.words.items() == without.words.items());
  // The record names the silver file by its file name only.
  CHECK(with.training.fields.at("silver") == path.substr(path.rfind('/') + 1));
  CHECK(with.training.fields.at("silver_sentences") == "3");
  std::remove(path.c_str());
}

TEST_CASE("With silver data the same seed gives the same model, and --resume is exact",
          "[training][silver]") {
  const auto treebank = tiny_treebank();
  const std::string path = temporary_path("silver-resume.conllu");
  write_treebank(path, tiny_silver());
  TrainOptions options = tiny_options();
  options.epochs = 4;
  options.dropout = 0.1f;
  options.word_dropout = 0.25f;
  options.silver_path = path;
  options.silver_ratio = 0.3f;  // a few silver sentences an epoch: each epoch takes others
  const std::string uninterrupted = serialize_model(train_model(treebank, treebank, options));
  CHECK(serialize_model(train_model(treebank, treebank, options)) == uninterrupted);

  const std::string checkpoint = temporary_path("silver-resume.ckpt");
  options.checkpoint_path = checkpoint;
  struct Stop {};
  TrainObserver stop_after_three;
  stop_after_three.on_epoch = [](const EpochSummary& summary) {
    if (summary.epoch == 3) throw Stop{};
  };
  REQUIRE_THROWS_AS(train_model(treebank, treebank, options, stop_after_three), Stop);
  options.resume_path = checkpoint;
  CHECK(serialize_model(train_model(treebank, treebank, options)) == uninterrupted);

  // Another ratio, other slices: another model.
  options.resume_path.clear();
  options.checkpoint_path.clear();
  options.silver_ratio = 1.0f;
  CHECK(serialize_model(train_model(treebank, treebank, options)) != uninterrupted);
  std::remove(checkpoint.c_str());
  std::remove(path.c_str());
}

TEST_CASE("Training refuses a missing or empty silver file", "[training][silver]") {
  const auto treebank = tiny_treebank();
  TrainOptions options = tiny_options();
  options.silver_path = temporary_path("no-such-silver.conllu");
  CHECK_THROWS_WITH(train_model(treebank, treebank, options),
                    options.silver_path + ": cannot open the silver data");
  write_treebank(options.silver_path, {});
  CHECK_THROWS_WITH(train_model(treebank, treebank, options),
                    options.silver_path + ": no silver sentences");
  std::remove(options.silver_path.c_str());
}

TEST_CASE("Training refuses an empty treebank", "[training]") {
  CHECK_THROWS_WITH(train_model({}, {}, tiny_options()), Catch::Contains("no sentences"));
}

}  // namespace sawtag

namespace sawtag {

TEST_CASE("the recorded command line keeps file names only, and quotes what a shell would split",
          "[training]") {
  const std::string vectors = temporary_path("vectors.vec");
  std::ofstream(vectors) << "1 1\nx 0.5\n";
  const std::string directory = std::filesystem::path(vectors).parent_path().string();
  const std::string output = directory + "/not-written-yet.json";
  const std::string recorded = recorded_command_line(
      {"sawtag", "train", "--pretrained-embeddings", vectors, "-o", output, "--self-test",
       "I/PRON saw/VERB a/DET saw/NOUN", "--self-test", "dogs/NOUN", "--lr", "1e-3"});
  CHECK(recorded == "sawtag train --pretrained-embeddings " +
                        std::filesystem::path(vectors).filename().string() +
                        " -o not-written-yet.json --self-test 'I/PRON saw/VERB a/DET saw/NOUN' "
                        "--self-test dogs/NOUN --lr 1e-3");
  CHECK(recorded.find(directory) == std::string::npos);
  CHECK(recorded_command_line({"it's", ""}) == "'it'\\''s' ''");
  std::remove(vectors.c_str());
}

}  // namespace sawtag
