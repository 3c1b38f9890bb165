// The `sawtag` binary's exit codes and messages (design.md): input, model, usage and write
// errors, closed pipes, interactive use, model search.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

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
}  // namespace

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

TEST_CASE_METHOD(CliFixture, "an input error keeps the output of the lines before it", "[cli]") {
  const std::string path = dir.write("half.conllu",
                                     "1\tI\t_\t_\t_\t_\t_\t_\t_\t_\n"
                                     "\n"
                                     "1\tsaw\n");
  const RunResult result = tag({"--input", "conllu", path});
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("half.conllu:3") != std::string::npos);
  CHECK(result.out.rfind("I/", 0) == 0);
  CHECK(split_lines(result.out).size() == 1);
}
