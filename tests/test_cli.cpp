// The `sawtag` binary end to end: formats, options, exit codes and messages (design.md).
#include <poll.h>
#include <signal.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>
#include <set>

#include "cli_runner.hpp"
#include "fixtures.hpp"

namespace {

using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::split_lines;
using sawtag::testing::TempDir;

// A random tiny model with "don't" -> "do" "n't" in its tokenizer table, saved in a temp dir.
struct CliFixture {
  TempDir dir;
  std::string model;
  CliFixture() {
    sawtag::Model tiny = sawtag::testing::make_random_model();
    tiny.tokenizer.multiword_tokens["don't"] = {"do", "n't"};
    model = dir.file("tiny-model.json");
    sawtag::save_model(tiny, model);
  }
  RunResult tag(std::vector<std::string> args, const std::string& input = "") const {
    args.insert(args.begin(), {"tag", "-m", model});
    return run_sawtag(args, input);
  }
};

bool is_upos(const std::string& tag) {
  const auto tags = sawtag::testing::upos_tags();
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

// An error is reported as exactly one line on stderr, naming what it is about.
void check_one_line_error(const RunResult& result, int expected_exit, const std::string& needle) {
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == expected_exit);
  CHECK(result.out.empty());
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK(result.err.find(needle) != std::string::npos);
}

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
    for (std::size_t c : {0, 1, 2, 4, 5, 6, 7, 8}) CHECK(actual_columns[c] == expected_columns[c]);
    CHECK(is_upos(actual_columns[3]));
    const std::string prefix = expected_columns[9] == "_" ? "" : expected_columns[9] + "|";
    INFO("MISC: " << actual_columns[9]);
    REQUIRE(actual_columns[9].rfind(prefix, 0) == 0);
    CHECK(std::regex_match(actual_columns[9].substr(prefix.size()),
                           std::regex(R"(UPOSProb=[01]\.\d{3})")));
  }
}

TEST_CASE_METHOD(CliFixture, "tag writes to a file with -o and attention with --attention",
                 "[cli]") {
  const std::string output = dir.file("out.txt");
  const std::string attention = dir.file("attention.json");
  const RunResult result = tag({"-o", output, "--attention", attention}, "I saw a saw\nit\n");
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

TEST_CASE_METHOD(CliFixture, "input errors: exit 1 and one line naming the file", "[cli]") {
  check_one_line_error(tag({dir.file("missing.txt")}), 1, "missing.txt: cannot open");
  check_one_line_error(tag({dir.file("")}), 1, "is a directory");
  const std::string bad = dir.write("bad.conllu", "# sent_id = 1\n1\tI\tI\n\n");
  check_one_line_error(tag({"--input", "conllu", bad}), 1, "bad.conllu:2");
}

TEST_CASE_METHOD(CliFixture, "invalid UTF-8: replaced, one warning with file:line, exit 0",
                 "[cli]") {
  const std::string path = dir.write("latin1.txt", "I saw\nbad \xFF saw\nworse \xFE\n");
  const RunResult result = tag({path});
  CHECK(result.exit_code == 0);
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK(result.err.find("latin1.txt:2") != std::string::npos);
  const auto lines = split_lines(result.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1].find("\xEF\xBF\xBD") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "empty input: exit 0, no output", "[cli]") {
  const RunResult result = tag({}, "");
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err.empty());
}

TEST_CASE_METHOD(CliFixture, "model errors: exit 1", "[cli]") {
  const std::string broken = dir.write("broken.json", "{\"format\": \"sawtag-model\"");
  check_one_line_error(run_sawtag({"-m", broken}, "I saw\n"), 1, "broken.json");
  check_one_line_error(run_sawtag({}, "I saw\n", {{"SAWTAG_MODEL", dir.file("nope.json")}}), 1,
                       "SAWTAG_MODEL");
  const RunResult from_environment = run_sawtag({}, "I saw\n", {{"SAWTAG_MODEL", model}});
  CHECK(from_environment.exit_code == 0);
  CHECK(split_lines(from_environment.out).size() == 1);
}

TEST_CASE_METHOD(CliFixture, "usage errors: exit 2", "[cli]") {
  check_one_line_error(tag({"--bogus"}), 2, "--bogus");
  check_one_line_error(tag({"-f", "xml"}), 2, "xml");
  check_one_line_error(tag({"--top-k", "-1"}), 2, "top-k");
  const RunResult help = run_sawtag({"--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("tag") != std::string::npos);
  const RunResult version = run_sawtag({"--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out.rfind("sawtag ", 0) == 0);
}

TEST_CASE_METHOD(CliFixture, "write errors: -o /dev/full exits 1", "[cli]") {
  if (!std::filesystem::exists("/dev/full")) return;
  check_one_line_error(tag({"-o", "/dev/full"}, "I saw a saw\n"), 1, "/dev/full");
}

TEST_CASE_METHOD(CliFixture, "a closed stdout pipe ends quietly", "[cli]") {
  std::string big;
  for (int i = 0; i < 20000; ++i) big += "I saw a saw.\n";
  const std::string input = dir.write("big.txt", big);
  const std::string err_path = dir.file("stderr");
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::signal(SIGPIPE, SIG_DFL);  // as a shell would leave it
    ::close(pipe_fds[0]);
    ::dup2(pipe_fds[1], 1);
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err_fd, 2);
    ::execl(SAWTAG_BINARY, SAWTAG_BINARY, "tag", "-m", model.c_str(), input.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  char buffer[64];
  REQUIRE(::read(pipe_fds[0], buffer, sizeof buffer) > 0);  // like `head -c 64`
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(sawtag::testing::read_file(err_path).empty());
}

TEST_CASE_METHOD(CliFixture, "stdin from a terminal: each line is flushed at once", "[cli]") {
  const int terminal = ::posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(terminal >= 0);
  REQUIRE(::grantpt(terminal) == 0);
  REQUIRE(::unlockpt(terminal) == 0);
  const std::string terminal_name = ::ptsname(terminal);
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int input = ::open(terminal_name.c_str(), O_RDWR);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(input, 0);
    ::dup2(pipe_fds[1], 1);
    ::dup2(null, 2);
    ::close(pipe_fds[0]);
    ::execl(SAWTAG_BINARY, SAWTAG_BINARY, "-m", model.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  const std::string line = "I saw a saw\n";
  REQUIRE(::write(terminal, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
  // The tagged line must arrive while sawtag still waits for more input.
  pollfd output{pipe_fds[0], POLLIN, 0};
  const int ready = ::poll(&output, 1, 10000);
  CHECK(ready == 1);
  char buffer[256] = {};
  const ssize_t got = ready == 1 ? ::read(pipe_fds[0], buffer, sizeof buffer - 1) : 0;
  CHECK(std::string(buffer, got > 0 ? static_cast<std::size_t>(got) : 0).rfind("I/", 0) == 0);
  REQUIRE(::write(terminal, "\x04", 1) == 1);  // end of input
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(pipe_fds[0]);
  ::close(terminal);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE_METHOD(CliFixture, "model search: beside the binary, else a message saying what to do",
                 "[cli]") {
  // A copy of the binary in <prefix>/bin looks for <prefix>/share/sawtag/en_ewt.json.
  std::filesystem::create_directories(dir.file("prefix/bin"));
  const std::string binary = dir.file("prefix/bin/sawtag");
  std::filesystem::copy_file(SAWTAG_BINARY, binary);
  std::filesystem::permissions(binary, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  const auto run_copy = [&binary] {
    TempDir scratch;
    const std::string command = "echo 'I saw' | env -u SAWTAG_MODEL '" + binary + "' > '" +
                                scratch.file("out") + "' 2> '" + scratch.file("err") + "'";
    const int status = std::system(command.c_str());
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = sawtag::testing::read_file(scratch.file("out"));
    result.err = sawtag::testing::read_file(scratch.file("err"));
    return result;
  };
  if (!std::filesystem::exists(SAWTAG_SOURCE_DIR "/models/en_ewt.json")) {
    check_one_line_error(run_copy(), 1, "no model found");
    CHECK(run_copy().err.find("-m MODEL") != std::string::npos);
  }
  std::filesystem::create_directories(dir.file("prefix/share/sawtag"));
  std::filesystem::copy_file(model, dir.file("prefix/share/sawtag/en_ewt.json"));
  const RunResult found = run_copy();
  INFO(found.err);
  CHECK(found.exit_code == 0);
  CHECK(found.out.rfind("I/", 0) == 0);
}
