// The learned tokenizer: its training material, a character model trained on a tiny treebank,
// saved, loaded and splitting raw text; and models without one.
#include <catch2/catch.hpp>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "fixtures.hpp"
#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"
#include "sawtag/tokenizer.hpp"
#include "text/learned_tokenizer.hpp"

namespace sawtag {
namespace {

// "我 看到 ." -> a sentence of those words.
Sentence sentence_of(const std::string& words) {
  Sentence sentence;
  std::size_t begin = 0;
  while (begin < words.size()) {
    std::size_t end = words.find(' ', begin);
    if (end == std::string::npos) end = words.size();
    Word word;
    word.form = words.substr(begin, end - begin);
    word.upos = "X";
    word.xpos = "X";
    word.misc = "SpaceAfter=No";
    sentence.words.push_back(word);
    begin = end + 1;
  }
  return sentence;
}

// "c/L c/L" for each sequence, one string per sequence.
std::vector<std::string> labelled(const std::vector<Sentence>& sequences) {
  std::vector<std::string> result;
  for (const Sentence& sequence : sequences) {
    std::string line;
    for (const Word& word : sequence.words) {
      line += (line.empty() ? "" : " ") + word.form + "/" + word.upos;
      CHECK(word.xpos == word.upos);
    }
    result.push_back(line);
  }
  return result;
}

// A treebank of sentences made of a few two-character words and one-character words, so
// that where a word ends depends on the characters, not on their position.
std::vector<Sentence> tiny_chinese_treebank() {
  return {sentence_of("我 看到 鋸子 ."),    sentence_of("他 看到 我 ."),
          sentence_of("鋸子 在 桌子 上 ."), sentence_of("我 在 看 桌子 ."),
          sentence_of("他 看 鋸子 ."),      sentence_of("桌子 上 有 鋸子 ."),
          sentence_of("我 有 桌子 ."),      sentence_of("他 在 上 面 .")};
}

TrainOptions tiny_character_options() {
  TrainOptions options = character_model_options();
  options.config.word_dim = 16;
  options.config.char_filters = 4;
  options.config.shape_dim = 4;
  options.config.d_model = 32;
  options.config.num_heads = 2;
  options.config.num_layers = 1;
  options.config.d_ff = 64;
  options.config.max_relative_distance = 4;
  options.config.max_sequence_length = 16;
  options.min_word_count = 1;
  options.epochs = 60;
  options.batch_size = 2;
  options.learning_rate = 1e-2f;
  options.warmup_steps = 5;
  options.dropout = 0.0f;
  options.word_dropout = 0.0f;
  options.label_smoothing = 0.0f;
  options.patience = 1000;
  options.average_decay = 0.0f;
  options.seed = 3;
  return options;
}

// One model for the tests that need a trained one: a tagger with random weights whose
// tokenizer is a character model trained on the tiny treebank.
const Model& model_with_learned_tokenizer() {
  static const Model model = [] {
    Model tagger = testing::make_random_model();
    tagger.tokenizer.character_model = std::make_shared<const Model>(train_character_model(
        tiny_chinese_treebank(), tiny_chinese_treebank(), tiny_character_options()));
    return tagger;
  }();
  return model;
}

}  // namespace

TEST_CASE(
    "Character sequences: tokens' characters (with the next) tagged I/E/S, across "
    "sentences",
    "[learned_tokenizer]") {
  const std::vector<Sentence> treebank = {sentence_of("我 看到"), sentence_of("他 來 .")};
  CHECK(labelled(text::character_sequences(treebank, 4)) ==
        std::vector<std::string>{"我看/E 看到/I 到他/S 他來/E", "來./E ./S"});
  CHECK(labelled(text::character_sequences(treebank, 100)) ==
        std::vector<std::string>{"我看/E 看到/I 到他/S 他來/E 來./E ./S"});
}

TEST_CASE("Character sequences: a multi-word token is one token; whitespace is left out",
          "[learned_tokenizer]") {
  Sentence sentence = sentence_of("de le New_York");
  sentence.words[2].form = "New York";
  sentence.multiword_tokens.push_back({1, 2, Word{}});
  sentence.multiword_tokens[0].token.form = "du";
  CHECK(labelled(text::character_sequences({sentence}, 100)) ==
        std::vector<std::string>{"du/I uN/E Ne/I ew/I wY/I Yo/I or/I rk/I k/S"});
}

TEST_CASE(
    "A character model trained on a tiny treebank splits raw text into its words and "
    "sentences",
    "[learned_tokenizer]") {
  const Model& model = model_with_learned_tokenizer();
  const Tokenizer tokenizer(model.tokenizer);
  const std::string text = "我看到鋸子.他看到我.";
  const std::vector<Sentence> sentences = tokenizer.tokenize(text);
  REQUIRE(sentences.size() == 2);
  CHECK(word_forms(sentences[0]) == std::vector<std::string>{"我", "看到", "鋸子", "."});
  CHECK(word_forms(sentences[1]) == std::vector<std::string>{"他", "看到", "我", "."});
  CHECK(comment_value(sentences[0], "text") == "我看到鋸子.");
  CHECK(sentences[0].words[1].misc == "SpaceAfter=No");
  CHECK(sentences[1].words.back().misc == "_");  // the end of the text
  CHECK(text.substr(sentences[1].word_spans[1].begin,
                    sentences[1].word_spans[1].end - sentences[1].word_spans[1].begin) == "看到");
}

TEST_CASE("A learned tokenizer: whitespace ends a word, a blank line a sentence",
          "[learned_tokenizer]") {
  const Tokenizer tokenizer(model_with_learned_tokenizer().tokenizer);
  const std::vector<Sentence> sentences = tokenizer.tokenize("我看 到鋸子\n\n他看到我.");
  REQUIRE(sentences.size() == 2);
  CHECK(word_forms(sentences[0]) == std::vector<std::string>{"我", "看", "到", "鋸子"});
  CHECK(word_forms(sentences[1]) == std::vector<std::string>{"他", "看到", "我", "."});
  CHECK(sentences[1].comments.front() == "# newpar");
}

TEST_CASE("A learned tokenizer in parts gives the sentences it gives the whole text",
          "[learned_tokenizer]") {
  const Tokenizer tokenizer(model_with_learned_tokenizer().tokenizer);
  const std::string text = "我看到鋸子.他看到我.桌子上有鋸子.我有桌子.";
  std::vector<std::vector<std::string>> whole;
  for (const Sentence& sentence : tokenizer.tokenize(text)) whole.push_back(word_forms(sentence));
  std::vector<std::vector<std::string>> parts;
  std::size_t begin = 0;
  while (begin < text.size()) {
    TokenizedPart part = tokenizer.tokenize_part(text, begin, 20);  // 6 characters and a bit
    REQUIRE(part.end > begin);
    for (const Sentence& sentence : part.sentences) {
      parts.push_back(word_forms(sentence));
      for (const Span& span : sentence.word_spans) CHECK(span.end <= text.size());
    }
    begin = part.end;
  }
  CHECK(whole.size() == 4);
  CHECK(parts == whole);
}

TEST_CASE("A learned tokenizer is saved in the model file and loaded back", "[learned_tokenizer]") {
  const testing::TempDir directory;
  const std::string path = directory.file("learned.json");
  save_model(model_with_learned_tokenizer(), path);
  const Model loaded = load_model(path);
  REQUIRE(loaded.tokenizer.character_model != nullptr);
  CHECK(loaded.tokenizer.character_model->words.items() ==
        model_with_learned_tokenizer().tokenizer.character_model->words.items());
  const std::vector<Sentence> sentences = Tokenizer(loaded.tokenizer).tokenize("他看到我.");
  REQUIRE(sentences.size() == 1);
  CHECK(word_forms(sentences[0]) == std::vector<std::string>{"他", "看到", "我", "."});
  // And again through float16 tensors.
  save_model(loaded, path, TensorEncoding::base64_float16);
  CHECK(load_model(path).tokenizer.character_model->config.d_model == 32);
}

TEST_CASE("A model without a learned tokenizer loads and splits text by the English rules",
          "[learned_tokenizer]") {
  const Model model = load_model(std::string(SAWTAG_TEST_DATA) + "/tiny-model-v1.json");
  CHECK(model.tokenizer.character_model == nullptr);
  const std::vector<Sentence> sentences = Tokenizer(model.tokenizer).tokenize("I saw it. It saw");
  REQUIRE(sentences.size() == 2);
  CHECK(word_forms(sentences[0]) == std::vector<std::string>{"I", "saw", "it", "."});
}

TEST_CASE("A model file's learned tokenizer: refused when it is not a model of its own",
          "[learned_tokenizer]") {
  const std::string plain = serialize_model(testing::make_random_model());
  const auto with_section = [&](const std::string& value) {
    std::string text = plain;
    text.insert(text.find(" \"training\""), " \"learned_tokenizer\": " + value + ",\n");
    return text;
  };
  CHECK_THROWS_WITH(parse_model(with_section("42"), "m.json"),
                    Catch::Contains("m.json") && Catch::Contains("learned_tokenizer"));
  CHECK_THROWS_WITH(parse_model(with_section("\"{}\""), "m.json"),
                    Catch::Contains("m.json: learned_tokenizer"));
  // A character model with a learned tokenizer of its own: nesting stops at one level.
  Model nested = model_with_learned_tokenizer();
  Model outer = testing::make_random_model();
  outer.tokenizer.character_model = std::make_shared<const Model>(nested);
  CHECK_THROWS_WITH(serialize_model(outer), Catch::Contains("of its own"));
}

TEST_CASE("CJK text through every output format of `sawtag tag`", "[learned_tokenizer][cli]") {
  const testing::TempDir directory;
  const std::string model_path = directory.file("zh.json");
  save_model(model_with_learned_tokenizer(), model_path);
  const std::string input = directory.write("in.txt", "我看到鋸子.他看到我.\n");
  for (const std::string format : {"text", "tsv", "conllu", "json", "jsonl"}) {
    INFO(format);
    const testing::RunResult result =
        testing::run_sawtag({"tag", "-m", model_path, "-f", format, input});
    REQUIRE(result.exit_code == 0);
    CHECK(result.out.find("看到") != std::string::npos);
    CHECK(result.out.find("鋸子") != std::string::npos);
    CHECK(result.out.find("\\u") == std::string::npos);  // JSON keeps the characters as they are
    if (format == "text") CHECK(result.out.rfind("我/", 0) == 0);
    if (format == "tsv")
      CHECK(result.out.rfind("我 看到 鋸子 . 他 看到 我 .\t", 0) == 0);  // one row a line
    if (format == "conllu") CHECK(result.out.find("# text = 我看到鋸子.") != std::string::npos);
  }
}

TEST_CASE(
    "`sawtag train --tokenizer learned` stores a learned tokenizer; `train-tokenizer` "
    "adds one and refuses a model failing its self-test",
    "[learned_tokenizer][cli]") {
  const testing::TempDir directory;
  std::ostringstream treebank;
  for (const Sentence& sentence : tiny_chinese_treebank()) write_conllu(treebank, sentence);
  const std::string conllu = directory.write("zh.conllu", treebank.str());
  const std::string model = directory.file("zh.json");
  const std::vector<std::string> tiny = {
      "--epochs",       "1", "--word-dim",  "8", "--char-dim", "4",
      "--char-filters", "4", "--shape-dim", "2", "--d-model",  "8",
      "--heads",        "2", "--layers",    "1", "--d-ff",     "8"};
  std::vector<std::string> train = {"train", "--train", conllu,        "--dev",  conllu,
                                    "-o",    model,     "--tokenizer", "learned"};
  train.insert(train.end(), tiny.begin(), tiny.end());
  const testing::RunResult trained = testing::run_sawtag(train);
  REQUIRE(trained.exit_code == 0);
  CHECK(trained.err.find("tokenizer epoch 1:") != std::string::npos);
  CHECK(testing::run_sawtag({"info", "-m", model})
            .out.find("splits raw text with: a learned tokenizer") != std::string::npos);

  std::vector<std::string> rules = {"train", "--train", conllu, "--dev", conllu, "-o", model};
  rules.insert(rules.end(), tiny.begin(), tiny.end());
  REQUIRE(testing::run_sawtag(rules).exit_code == 0);
  CHECK(testing::run_sawtag({"info", "-m", model})
            .out.find("splits raw text with: the UD English rules") != std::string::npos);

  const std::string added = directory.file("added.json");
  REQUIRE(testing::run_sawtag({"train-tokenizer", "-m", model, "--train", conllu, "--dev", conllu,
                               "-o", added, "--epochs", "1"})
              .exit_code == 0);
  CHECK(load_model(added).tokenizer.character_model != nullptr);
  // The tiny treebank tags every word X: a self-test expecting other tags fails.
  const testing::RunResult refused =
      testing::run_sawtag({"train-tokenizer", "-m", model, "--train", conllu, "--dev", conllu, "-o",
                           directory.file("refused.json"), "--epochs", "1", "--self-test",
                           "我/PRON 看到/VERB 鋸子/NOUN 桌子/NOUN 上/ADP ./PUNCT"});
  CHECK(refused.exit_code != 0);
  CHECK(refused.err.find("self-test") != std::string::npos);
}

}  // namespace sawtag
