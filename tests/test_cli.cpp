// The `sawtag` binary end to end: input kinds, output formats and options (docs/cli.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <regex>

#include "cli_fixture.hpp"

namespace {

using sawtag::testing::check_one_line_error;
using sawtag::testing::CliFixture;
using sawtag::testing::is_upos;
using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::split_lines;
using sawtag::testing::split_on;
using sawtag::testing::TempDir;

const char* const kConllu =
    "# sent_id = a1\n"
    "# text = I don't see.\n"
    "1\tI\tI\tPRON\tPRP\t_\t4\tnsubj\t_\t_\n"
    "2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "2\tdo\tdo\tAUX\tVBP\t_\t4\taux\t_\t_\n"
    "3\tn't\tnot\tPART\tRB\t_\t4\tadvmod\t_\t_\n"
    "4\tsee\tsee\tVERB\tVB\t_\t0\troot\t_\tSpaceAfter=No\n"
    "4.1\tsaw\tsee\tVERB\tVBD\t_\t_\t_\t4:conj\t_\n"
    "5\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_\n"
    "\n";

}  // namespace

TEST_CASE_METHOD(CliFixture, "tag is the default command and writes word/UPOS", "[cli]") {
  const RunResult result = run_sawtag({"-m", model}, "I saw a saw\n");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  const auto lines = split_lines(result.out);
  REQUIRE(lines.size() == 1);
  const auto tokens = split_on(lines[0], ' ');
  REQUIRE(tokens.size() == 4);
  CHECK(tokens[0].rfind("I/", 0) == 0);
  CHECK(tokens[3].rfind("saw/", 0) == 0);
  for (const std::string& token : tokens) CHECK(is_upos(token.substr(token.rfind('/') + 1)));
}

TEST_CASE_METHOD(CliFixture, "text: one output line per input line, blank lines kept", "[cli]") {
  const RunResult result = tag({}, "I saw a saw.\n\nThe dog saw it. I saw the dog.\n\n\nit\n");
  REQUIRE(result.exit_code == 0);
  const auto lines = split_lines(result.out);
  REQUIRE(lines.size() == 6);
  CHECK(split_on(lines[0], ' ').size() == 5);  // I saw a saw .
  CHECK(lines[1].empty());
  CHECK(split_on(lines[2], ' ').size() == 10);  // both sentences on one line
  CHECK(lines[3].empty());
  CHECK(lines[4].empty());
  CHECK(lines[5].rfind("it/", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "text: --tags both --probs", "[cli]") {
  const RunResult result = tag({"--tags", "both", "--probs"}, "I saw a saw\n");
  REQUIRE(result.exit_code == 0);
  const std::regex token(R"([^ /]+/[A-Z]+/[^/| ]+\|[01]\.\d{3}\|[01]\.\d{3})");
  const auto tokens = split_on(split_lines(result.out).at(0), ' ');
  REQUIRE(tokens.size() == 4);
  for (const std::string& word : tokens) CHECK(std::regex_match(word, token));
  const RunResult xpos = tag({"--tags", "xpos"}, "I saw\n");
  CHECK_FALSE(is_upos(xpos.out.substr(xpos.out.find('/') + 1, xpos.out.find(' ') - 2)));
}

TEST_CASE_METHOD(CliFixture, "tsv: one row per line, aligned columns", "[cli]") {
  const RunResult result = tag({"-f", "tsv", "--tags", "both", "--probs"}, "I saw a saw\n\nit\n");
  REQUIRE(result.exit_code == 0);
  const auto rows = split_lines(result.out);
  REQUIRE(rows.size() == 3);
  const auto columns = split_on(rows[0], '\t');
  REQUIRE(columns.size() == 5);
  CHECK(columns[0] == "I saw a saw");
  for (const std::string& column : columns) CHECK(split_on(column, ' ').size() == 4);
  CHECK(rows[1].empty());
  CHECK(split_on(rows[2], '\t').size() == 5);
}

TEST_CASE_METHOD(CliFixture, "conllu from raw text: sent_id, text, MWT lines, SpaceAfter",
                 "[cli]") {
  const RunResult result = tag({"-f", "conllu", "--tags", "both"}, "I don't see.\nI saw\n");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto lines = split_lines(result.out);
  CHECK(lines.at(0) == "# sent_id = 1");
  CHECK(lines.at(1) == "# text = I don't see.");
  CHECK(std::find(lines.begin(), lines.end(), "# sent_id = 2") != lines.end());
  int words = 0;
  bool multiword = false;
  for (const std::string& line : lines) {
    if (line.empty() || line[0] == '#') continue;
    const auto columns = split_on(line, '\t');
    REQUIRE(columns.size() == 10);
    if (columns[0] == "2-3") {
      multiword = true;
      CHECK(columns[1] == "don't");
      continue;
    }
    ++words;
    CHECK(is_upos(columns[3]));
    CHECK(columns[4] != "_");
    if (columns[1] == "see") CHECK(columns[9] == "SpaceAfter=No");
  }
  CHECK(multiword);
  CHECK(words == 5 + 2);
}

TEST_CASE_METHOD(CliFixture, "json and jsonl parse; --top-k gives candidates", "[cli]") {
  const std::string input = "I saw a saw. I saw it.\n\nThe dog.\n";
  const RunResult json = tag({"-f", "json", "--top-k", "3", "--probs"}, input);
  REQUIRE(json.exit_code == 0);
  const auto document = nlohmann::json::parse(json.out);
  REQUIRE(document.size() == 3);
  CHECK(document[0]["text"] == "I saw a saw.");
  const auto& word = document[0]["words"][1];
  CHECK(word["form"] == "saw");
  CHECK(is_upos(word["upos"]));
  REQUIRE(word["upos_top"].size() == 3);
  CHECK(word["upos_top"][0]["tag"] == word["upos"]);
  CHECK(word["upos_top"][0]["prob"].get<double>() >= word["upos_top"][1]["prob"].get<double>());

  const RunResult jsonl = tag({"-f", "jsonl", "--tags", "xpos"}, input);
  REQUIRE(jsonl.exit_code == 0);
  const auto lines = split_lines(jsonl.out);
  REQUIRE(lines.size() == 3);
  for (const std::string& line : lines)
    CHECK(nlohmann::json::parse(line)["words"][0].contains("xpos"));
}

TEST_CASE_METHOD(CliFixture, "tokenized input splits on whitespace only", "[cli]") {
  const RunResult result = tag({"--input", "tokenized"}, "I saw\ta saw.\n\n");
  REQUIRE(result.exit_code == 0);
  const auto lines = split_lines(result.out);
  REQUIRE(lines.size() == 2);
  const auto tokens = split_on(lines[0], ' ');
  REQUIRE(tokens.size() == 4);
  CHECK(tokens[3].rfind("saw./", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "conllu input keeps comments, MWT lines, empty nodes, columns",
                 "[cli]") {
  const std::string path = dir.write("gold.conllu", kConllu);
  const RunResult result = tag({"--input", "conllu", "-f", "conllu", "--probs", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto expected = split_lines(kConllu);
  const auto actual = split_lines(result.out);
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto expected_columns = split_on(expected[i], '\t');
    const auto actual_columns = split_on(actual[i], '\t');
    if (expected[i].empty() || expected[i][0] == '#' ||
        expected_columns[0].find_first_of("-.") != std::string::npos) {
      CHECK(actual[i] == expected[i]);
      continue;
    }
    REQUIRE(actual_columns.size() == 10);
    // Without --tags, CoNLL-U gets every column the model predicts: this model has no lemma or
    // FEATS head, so UPOS and XPOS are filled and LEMMA and FEATS kept.
    for (std::size_t c : {0, 1, 2, 5, 6, 7, 8}) CHECK(actual_columns[c] == expected_columns[c]);
    CHECK(is_upos(actual_columns[3]));
    CHECK(sawtag::testing::make_random_model().xpos.find(actual_columns[4]) >= 0);
    const std::string prefix = expected_columns[9] == "_" ? "" : expected_columns[9] + "|";
    INFO("MISC: " << actual_columns[9]);
    REQUIRE(actual_columns[9].rfind(prefix, 0) == 0);
    CHECK(std::regex_match(actual_columns[9].substr(prefix.size()),
                           std::regex(R"(UPOSProb=[01]\.\d{3}\|XPOSProb=[01]\.\d{3})")));
  }
}

TEST_CASE_METHOD(CliFixture, "tag writes to a file with -o and attention with --attention",
                 "[cli]") {
  const std::string output = dir.file("out.txt");
  const std::string attention = dir.file("attention.json");
  const RunResult result =
      tag({"-o", output, "--attention", attention, "--sentence-per-line"}, "I saw a saw\nit\n");
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(split_lines(sawtag::testing::read_file(output)).size() == 2);
  const auto document = nlohmann::json::parse(sawtag::testing::read_file(attention));
  REQUIRE(document["sentences"].size() == 2);
  const auto& first = document["sentences"][0];
  CHECK(first["words"] == nlohmann::json({"I", "saw", "a", "saw"}));
  REQUIRE(first["layers"].size() == 2);     // tiny_config: 2 layers
  REQUIRE(first["layers"][0].size() == 2);  // 2 heads
  REQUIRE(first["layers"][0][0].size() == 4);
  double row_sum = 0;
  for (const auto& weight : first["layers"][1][1][2]) row_sum += weight.get<double>();
  CHECK(row_sum == Approx(1.0).margin(0.01));
}

TEST_CASE_METHOD(CliFixture, "info: architecture, parameter count, tag sets", "[cli]") {
  const RunResult result = run_sawtag({"info", "-m", model});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto count = sawtag::parameter_count(sawtag::testing::make_random_model().config);
  CHECK(result.out.find("parameters: " + std::to_string(count) + " ") != std::string::npos);
  CHECK(result.out.find("upos (17): ADJ ADP") != std::string::npos);
  CHECK(result.out.find("xpos (9): PRP VBD") != std::string::npos);
  CHECK(result.out.find("2 layers, d_model 8, 2 heads") != std::string::npos);
  CHECK(result.out.find("tokenizer: 1 multi-word tokens") != std::string::npos);
  CHECK(result.out.find("corpus: random test model") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "a model with int8 word rows tags as its float32 widening does",
                 "[cli]") {
  const std::string int8_model = dir.file("int8-model.json");
  const std::string float32_model = dir.file("float32-model.json");
  const std::string int8_text = sawtag::serialize_model(
      sawtag::load_model(model), sawtag::TensorEncoding::base64_float16_int8_words);
  std::ofstream(int8_model) << int8_text;
  // The same weights with the int8 rows widened, stored as float32.
  sawtag::save_model(sawtag::parse_model(int8_text, "memory"), float32_model);
  const std::string input = "I saw a saw. The dog don't see it, Zq 42!\n\nA second paragraph.\n";
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{"-f", "json", "--tags", "both", "--probs", "--top-k", "3"},
        std::vector<std::string>{"-f", "conllu", "--probs", "--float32", "-j", "2"}}) {
    std::vector<std::string> int8_args = {"tag", "-m", int8_model};
    std::vector<std::string> float32_args = {"tag", "-m", float32_model};
    int8_args.insert(int8_args.end(), options.begin(), options.end());
    float32_args.insert(float32_args.end(), options.begin(), options.end());
    const RunResult from_int8 = run_sawtag(int8_args, input);
    const RunResult from_float32 = run_sawtag(float32_args, input);
    INFO(from_int8.err);
    REQUIRE(from_int8.exit_code == 0);
    CHECK(!from_int8.out.empty());
    CHECK(from_int8.out == from_float32.out);
  }
  const RunResult info = run_sawtag({"info", "--tensors", "-m", int8_model});
  CHECK(info.out.find("  encoder.word_embedding [12, 6] 72 int8\n") != std::string::npos);
  CHECK(info.out.find("  encoder.char_embedding [36, 4] 144\n") != std::string::npos);
}
