// The bad-input catalogue of docs/robustness.md, one test per row: bad text, bad CoNLL-U, bad
// model files, bad files and options. The rules every row checks: no crash or hang; a failure
// exits 1 (2 for a usage error) with one stderr line naming the place; everything fine is still
// output; a write error is never silent. Big inputs are made here, never committed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {
using sawtag::testing::check_one_line_error;
using sawtag::testing::CliFixture;
using sawtag::testing::read_file;
using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::split_lines;
using sawtag::testing::split_on;
using Json = nlohmann::json;

std::size_t count_of(const std::string& text, char c) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), c));
}

// Success: exit 0, nothing on stderr, `expected_lines` lines of output.
void check_tagged(const RunResult& result, std::size_t expected_lines) {
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(count_of(result.out, '\n') == expected_lines);
}

// The words of a line of text output: "I/PRON saw/VERB" -> "I" "saw".
std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  for (const std::string& token : split_on(line, ' ')) {
    words.push_back(token.substr(0, token.rfind('/')));
  }
  return words;
}

// Bytes that no output should carry: C0 controls but tab and line feed, and DEL.
bool has_control_bytes(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && byte != '\t' && byte != '\n') || byte == 0x7F;
  });
}

// The same pseudo-random bytes every run.
std::string garbage(std::size_t size) {
  std::string bytes(size, '\0');
  std::uint32_t state = 12345;
  for (char& byte : bytes) {
    state = state * 1664525u + 1013904223u;
    byte = static_cast<char>(state >> 24);
  }
  return bytes;
}

// A CoNLL-U word line with the given ID and FORM, the other columns "_".
std::string conllu_line(const std::string& id, const std::string& form = "w") {
  return id + "\t" + form + "\t_\t_\t_\t_\t_\t_\t_\t_\n";
}

// `sawtag tag -m <path>` on a line of text.
RunResult tag_with_model(const std::string& path) {
  return run_sawtag({"tag", "-m", path}, "I saw\n");
}

// The frozen tiny model (JSON arrays, easy to edit), parsed.
Json tiny_model_json() { return Json::parse(read_file(SAWTAG_TEST_DATA "/tiny-model-v1.json")); }

}  // namespace

// ---- Text

TEST_CASE_METHOD(CliFixture, "robustness: invalid UTF-8", "[robustness]") {
  const RunResult result = tag({dir.write("latin1.txt", "I saw\ncaf\xE9 \xFF\xFE saw\n")});
  CHECK(result.exit_code == 0);
  CHECK(count_of(result.err, '\n') == 1);
  CHECK(result.err.find("latin1.txt:2") != std::string::npos);
  const auto lines = split_lines(result.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].rfind("caf\xEF\xBF\xBD/", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "robustness: NUL bytes", "[robustness]") {
  const RunResult result = tag({}, std::string("I\0saw a\0saw\n", 12));
  check_tagged(result, 1);
  CHECK(words_of(split_lines(result.out)[0]) == std::vector<std::string>{"I", "saw", "a", "saw"});
}

TEST_CASE_METHOD(CliFixture, "robustness: CRLF line ends", "[robustness]") {
  const RunResult result = tag({"-f", "tsv"}, "I saw\r\n\r\nit\r\n");
  check_tagged(result, 3);
  CHECK(count_of(result.out, '\r') == 0);
  CHECK(split_lines(result.out)[1].empty());
}

TEST_CASE_METHOD(CliFixture, "robustness: a byte-order mark", "[robustness]") {
  const RunResult result = tag({}, "\xEF\xBB\xBFI saw\n");
  check_tagged(result, 1);
  CHECK(result.out.rfind("I/", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "robustness: control characters", "[robustness]") {
  const RunResult result = tag({}, "I \x01saw\x1B[31m a\x7Fsaw\n");
  check_tagged(result, 1);
  CHECK_FALSE(has_control_bytes(result.out));
  const std::vector<std::string> words = words_of(split_lines(result.out)[0]);
  REQUIRE(words.size() >= 5);
  CHECK(words[0] == "I");
  CHECK(words[1] == "saw");
  CHECK(words[2] == "[");  // "ESC[31m": what is left of a terminal colour code is text
  CHECK(words[words.size() - 2] == "a");
  CHECK(words.back() == "saw");
}

TEST_CASE_METHOD(CliFixture, "robustness: a 1 MB token", "[robustness]") {
  const std::string token(1 << 20, 'a');
  const RunResult result = tag({}, token + " saw\n");
  check_tagged(result, 1);
  CHECK(words_of(split_lines(result.out)[0]) == std::vector<std::string>{token, "saw"});
}

TEST_CASE_METHOD(CliFixture, "robustness: a 100,000-word line", "[robustness]") {
  std::string line;
  for (int i = 0; i < 20000; ++i) line += "I saw a saw. ";  // 5 words a sentence
  const RunResult result = tag({}, line + "\n");
  check_tagged(result, 1);
  CHECK(count_of(result.out, ' ') + 1 == 100000);
}

TEST_CASE_METHOD(CliFixture, "robustness: a 100,000-word sentence", "[robustness]") {
  std::string line;
  for (int i = 0; i < 100000; ++i) line += "saw ";  // no sentence end: tagged in windows
  const RunResult result = tag({}, line + "\n");
  check_tagged(result, 1);
  CHECK(count_of(result.out, ' ') + 1 == 100000);
}

TEST_CASE_METHOD(CliFixture, "robustness: 10,000 blank lines", "[robustness]") {
  const RunResult result = tag({"-f", "tsv"}, std::string(10000, '\n') + "I saw\n");
  check_tagged(result, 10001);
  CHECK(result.out.substr(0, 10000) == std::string(10000, '\n'));
  CHECK(split_lines(result.out).back().rfind("I saw\t", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "robustness: binary garbage", "[robustness]") {
  std::string bytes = garbage(64 * 1024);
  bytes += '\n';
  const RunResult result = tag({dir.write("garbage.bin", bytes)});
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == 0);
  CHECK(count_of(result.err, '\n') == 1);  // the invalid UTF-8 warning
  CHECK(result.err.find("garbage.bin:") != std::string::npos);
  CHECK(count_of(result.out, '\n') == count_of(bytes, '\n'));  // one output line per input line
  CHECK_FALSE(has_control_bytes(result.out));
}

TEST_CASE_METHOD(CliFixture, "robustness: right-to-left text", "[robustness]") {
  // Hebrew "shalom olam", a right-to-left mark, Arabic "marhaban".
  const std::string hebrew = "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D";
  const std::string arabic = "\xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7";
  const RunResult result = tag({}, hebrew + " \xE2\x80\x8F" + arabic + ".\n");
  check_tagged(result, 1);
  CHECK(words_of(split_lines(result.out)[0]) == std::vector<std::string>{hebrew, arabic, "."});
}

TEST_CASE_METHOD(CliFixture, "robustness: emoji ZWJ sequences", "[robustness]") {
  const std::string coder = "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB";  // woman ZWJ laptop
  const std::string thumbs_up = "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD";          // with a skin tone
  const RunResult result = tag({}, "I saw " + coder + thumbs_up + "!\n");
  check_tagged(result, 1);
  CHECK(words_of(split_lines(result.out)[0]) ==
        std::vector<std::string>{"I", "saw", coder, thumbs_up, "!"});
}

TEST_CASE_METHOD(CliFixture, "robustness: combining marks", "[robustness]") {
  const std::string cafe = "cafe\xCC\x81";  // e + combining acute
  const std::string zalgo =
      "Z\xCD\x91\xCD\x8B\xCD\x8A"
      "a\xCC\x81\xCC\x81\xCC\x81lgo";
  const RunResult result = tag({}, cafe + " " + zalgo + "\n");
  check_tagged(result, 1);
  CHECK(words_of(split_lines(result.out)[0]) == std::vector<std::string>{cafe, zalgo});
}

TEST_CASE_METHOD(CliFixture, "robustness: no final line break", "[robustness]") {
  const RunResult result = tag({}, "I saw\nit");
  check_tagged(result, 2);
  CHECK(split_lines(result.out)[1].rfind("it/", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "robustness: a line of invisible characters only", "[robustness]") {
  const RunResult result = tag({}, "I saw\n\x01\x02\xEF\xBB\xBF\nit\n");
  check_tagged(result, 3);
  CHECK(split_lines(result.out)[1].empty());
}

// ---- CoNLL-U

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U with a wrong column count", "[robustness]") {
  const std::string path = dir.write("columns.conllu", conllu_line("1") + "2\tw\t_\n");
  check_one_line_error(tag({"--input", "conllu", path}), 1,
                       "columns.conllu:2: wrong number of columns: expected 10, got 3");
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U, a bad line with control characters",
                 "[robustness]") {
  const std::string path = dir.write("escape.conllu", std::string("1\tw\x1B[2J\0\n", 9));
  check_one_line_error(tag({"--input", "conllu", path}), 1,
                       "escape.conllu:1: wrong number of columns: expected 10, got 2: "
                       "'1\tw\\x1b[2J\\x00'");
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U with bad IDs", "[robustness]") {
  check_one_line_error(tag({"--input", "conllu", dir.write("a.conllu", conllu_line("one"))}), 1,
                       "a.conllu:1: bad ID 'one'");
  check_one_line_error(
      tag({"--input", "conllu", dir.write("b.conllu", conllu_line("1") + conllu_line("3"))}), 1,
      "b.conllu:2: IDs not in sequence: expected 2, got 3");
  check_one_line_error(
      tag({"--input", "conllu", dir.write("c.conllu", conllu_line("99999999999"))}), 1,
      "c.conllu:1: bad ID");
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U with reversed or overlapping ranges",
                 "[robustness]") {
  check_one_line_error(tag({"--input", "conllu", dir.write("r.conllu", conllu_line("2-1"))}), 1,
                       "r.conllu:1: reversed or empty multi-word token range 2-1");
  const std::string overlapping =
      conllu_line("1-2") + conllu_line("1") + conllu_line("2-3") + conllu_line("2");
  check_one_line_error(tag({"--input", "conllu", dir.write("o.conllu", overlapping)}), 1,
                       "o.conllu:3: multi-word token 2-3 overlaps 1-2");
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U with an empty FORM", "[robustness]") {
  check_one_line_error(tag({"--input", "conllu", dir.write("e.conllu", conllu_line("1", ""))}), 1,
                       "e.conllu:1: empty FORM");
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U without its final blank line", "[robustness]") {
  const RunResult result =
      tag({"--input", "conllu", "-f", "conllu", dir.write("end.conllu", conllu_line("1", "I"))});
  check_tagged(result, 2);
  CHECK(result.out.rfind("1\tI\t_\t", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U with a BOM and CRLF", "[robustness]") {
  const RunResult result =
      tag({"--input", "conllu"}, "\xEF\xBB\xBF# c\r\n1\tI\t_\t_\t_\t_\t_\t_\t_\t_\r\n\r\n");
  check_tagged(result, 1);
  CHECK(result.out.rfind("I/", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U, a bad sentence after good ones",
                 "[robustness]") {
  const std::string text = conllu_line("1", "I") + "\n" + conllu_line("1", "saw") + "\n" +
                           "# sent_id = 3\n" + conllu_line("1", "it") + "1\tw\n";
  const RunResult result = tag({"--input", "conllu", dir.write("third.conllu", text)});
  CHECK(result.exit_code == 1);
  CHECK(count_of(result.err, '\n') == 1);
  CHECK(result.err.find("third.conllu:7: wrong number of columns") != std::string::npos);
  const auto lines = split_lines(result.out);  // the two sentences before it
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].rfind("saw/", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U, comments without words", "[robustness]") {
  check_one_line_error(tag({"--input", "conllu", dir.write("c.conllu", "# sent_id = 1\n\n")}), 1,
                       "c.conllu:1: sentence has no words");
  check_one_line_error(
      tag({"--input", "conllu",
           dir.write("m.conllu", conllu_line("1") + "# late\n" + conllu_line("2"))}),
      1, "m.conllu:2: comment inside a sentence");
}

TEST_CASE_METHOD(CliFixture, "robustness: CoNLL-U, a multi-word token without its words",
                 "[robustness]") {
  check_one_line_error(tag({"--input", "conllu",
                            dir.write("t.conllu", conllu_line("1-2", "don't") + conllu_line("1"))}),
                       1, "t.conllu:1: multi-word token 1-2 is not followed by its words");
}

TEST_CASE_METHOD(CliFixture, "robustness: a 20,000-word CoNLL-U sentence", "[robustness]") {
  std::string text = "# sent_id = long\n";
  for (int i = 1; i <= 20000; ++i) text += conllu_line(std::to_string(i), "saw");
  const RunResult result =
      tag({"--input", "conllu", "-f", "conllu", dir.write("long.conllu", text + "\n")});
  check_tagged(result, 20002);  // the comment, 20,000 words, the blank line
  CHECK(split_lines(result.out)[20000].rfind("20000\tsaw\t_\t", 0) == 0);
}

// ---- Model files

TEST_CASE_METHOD(CliFixture, "robustness: an empty model file", "[robustness]") {
  check_one_line_error(tag_with_model(dir.write("empty.json", "")), 1,
                       "empty.json: empty file, not a sawtag model");
}

TEST_CASE_METHOD(CliFixture, "robustness: a truncated model file", "[robustness]") {
  const std::string whole = read_file(model);
  check_one_line_error(tag_with_model(dir.write("half.json", whole.substr(0, whole.size() / 2))), 1,
                       "half.json: truncated");
}

TEST_CASE_METHOD(CliFixture, "robustness: a model file that is not JSON", "[robustness]") {
  check_one_line_error(tag_with_model(dir.write("text.json", "I saw a saw\n")), 1,
                       "text.json: not valid JSON: parse error at line 1, column 1");
  check_one_line_error(tag_with_model(dir.write("garbage.json", garbage(4096))), 1,
                       "garbage.json: not valid JSON");
}

TEST_CASE_METHOD(CliFixture, "robustness: a model file from a newer version", "[robustness]") {
  Json document = tiny_model_json();
  document["version"] = sawtag::kModelVersion + 1;
  check_one_line_error(tag_with_model(dir.write("new.json", document.dump())), 1,
                       "new.json: model file version " + std::to_string(sawtag::kModelVersion + 1) +
                           " is newer than this sawtag supports (" +
                           std::to_string(sawtag::kModelVersion) + "): upgrade sawtag");
}

TEST_CASE_METHOD(CliFixture, "robustness: a model file with NaN or Inf", "[robustness]") {
  Json document = tiny_model_json();
  // The whole [12, 6] tensor NaN: base64 of three little-endian float32 NaNs (0x7FC00000), 24
  // times.
  std::string nan_payload;
  for (int i = 0; i < 24; ++i) nan_payload += "AADAfwAAwH8AAMB/";
  document["tensors"]["encoder.word_embedding"]["data"] = "base64:" + nan_payload;
  check_one_line_error(tag_with_model(dir.write("nan.json", document.dump())), 1,
                       "nan.json: tensor 'encoder.word_embedding' has a non-finite value (NaN) "
                       "at index 0");
  document = tiny_model_json();
  document["tensors"]["heads.upos.bias"]["data"][0] = 1e39;  // a fine double, no float
  check_one_line_error(tag_with_model(dir.write("inf.json", document.dump())), 1,
                       "inf.json: tensor 'heads.upos.bias' has a non-finite value (Inf)");
  check_one_line_error(tag_with_model(dir.write("huge.json", "{\"version\": 1e999}")), 1,
                       "huge.json: not valid JSON: number overflow");
}

TEST_CASE_METHOD(CliFixture, "robustness: a model file with a wrong shape", "[robustness]") {
  Json document = tiny_model_json();
  document["tensors"]["encoder.word_embedding"]["shape"] = {12, 7};
  check_one_line_error(tag_with_model(dir.write("shape.json", document.dump())), 1,
                       "shape.json: tensor 'encoder.word_embedding'");
}

TEST_CASE_METHOD(CliFixture, "robustness: a model file with absurd sizes (allocation bomb)",
                 "[robustness]") {
  Json document = tiny_model_json();
  document["tensors"]["encoder.word_embedding"]["shape"] = {4000000000, 4000000000};
  check_one_line_error(tag_with_model(dir.write("bomb.json", document.dump())), 1,
                       "bomb.json: tensor 'encoder.word_embedding'");
  document = tiny_model_json();
  document["config"]["d_model"] = 16384;
  document["config"]["d_ff"] = 65536;
  document["config"]["num_layers"] = 64;
  check_one_line_error(tag_with_model(dir.write("config.json", document.dump())), 1,
                       "config.json: config describes");
  document = tiny_model_json();
  document["config"]["max_sequence_length"] = 2000000000;
  check_one_line_error(tag_with_model(dir.write("length.json", document.dump())), 1,
                       "length.json: config.max_sequence_length = 2000000000 is out of range");
}

TEST_CASE_METHOD(CliFixture, "robustness: a deeply nested model file", "[robustness]") {
  check_one_line_error(tag_with_model(dir.write("deep.json", std::string(100000, '['))), 1,
                       "deep.json: JSON nested more than 64 levels deep");
}

TEST_CASE_METHOD(CliFixture, "robustness: a missing model file or a directory", "[robustness]") {
  check_one_line_error(tag_with_model(dir.file("none.json")), 1,
                       "none.json: cannot open the model file");
  check_one_line_error(tag_with_model(dir.file("")), 1, "is a directory, not a model file");
}

// ---- Files, output and options

TEST_CASE_METHOD(CliFixture, "robustness: a directory or a missing file as input", "[robustness]") {
  check_one_line_error(tag({dir.file("")}), 1, "is a directory, expected a file");
  check_one_line_error(tag({dir.file("missing.txt")}), 1, "missing.txt: cannot open");
  // Inputs are opened before any is tagged: a missing second file stops the run at once.
  check_one_line_error(tag({dir.write("good.txt", "I saw\n"), dir.file("missing.txt")}), 1,
                       "missing.txt: cannot open");
}

TEST_CASE_METHOD(CliFixture, "robustness: /dev/null as input", "[robustness]") {
  check_tagged(tag({"/dev/null"}), 0);
}

TEST_CASE_METHOD(CliFixture, "robustness: a full disk", "[robustness]") {
  if (!std::filesystem::exists("/dev/full")) return;
  check_one_line_error(tag({"-f", "json", "-o", "/dev/full"}, "I saw a saw\n"), 1,
                       "/dev/full: cannot write: No space left on device");
  const RunResult attention = tag({"--attention", "/dev/full"}, "I saw a saw\n");
  CHECK(attention.exit_code == 1);
  CHECK(count_of(attention.err, '\n') == 1);
  CHECK(attention.err.find("/dev/full: cannot write") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "robustness: output to a directory", "[robustness]") {
  check_one_line_error(tag({"-o", dir.file("")}, "I saw\n"), 1,
                       "cannot open for writing: Is a directory");
}

TEST_CASE_METHOD(CliFixture, "robustness: absurd --top-k", "[robustness]") {
  check_one_line_error(tag({"-f", "json", "--top-k", "100000"}, "I saw\n"), 2,
                       "--top-k: Value 100000 not in range 0 to 100");
  check_one_line_error(tag({"--top-k", "-3"}, "I saw\n"), 2, "top-k");
  // Every tag of the model, no more, when k is as large as allowed.
  const RunResult all = tag({"-f", "jsonl", "--top-k", "100"}, "I saw\n");
  check_tagged(all, 1);
  const Json sentence = Json::parse(all.out);
  CHECK(sentence["words"][0]["upos_top"].size() == 17);
}
