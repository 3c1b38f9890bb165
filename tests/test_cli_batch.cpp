// Batch tagging from the command line: -j and --batch-size never change a byte, output keeps
// input order, and --output-dir writes each output whole or not at all.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli_fixture.hpp"

using namespace sawtag::testing;
namespace fs = std::filesystem;

namespace {

// Raw text of `paragraphs` paragraphs; every sentence says which one it is, so order shows.
std::string numbered_text(int paragraphs) {
  std::string text;
  for (int p = 0; p < paragraphs; ++p) {
    text += "I saw a saw number " + std::to_string(p) + ". The dog don't see it, do n't you";
    text += p % 3 == 0 ? "\nsee the dog?\n\n" : "?\n\n";
  }
  return text;
}

std::vector<std::string> files_in(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE_METHOD(CliFixture, "tag: -j and --batch-size never change the output",
                 "[cli][batch]") {
  // Several 16 KB chunks, so that threads really share the work.
  const std::string input = dir.write("input.txt", numbered_text(1500));
  for (const std::string format : {"text", "conllu", "jsonl"}) {
    const RunResult one = tag({"-f", format, "-j", "1", input});
    REQUIRE(one.exit_code == 0);
    REQUIRE(one.out.size() > 50000);
    for (const std::vector<std::string>& options :
         {std::vector<std::string>{"-j", "2"}, {"-j", "3", "--batch-size", "1"},
          {"-j", "2", "--batch-size", "7"}, {"-j", "1", "--batch-size", "100000"}}) {
      std::vector<std::string> args{"-f", format, input};
      args.insert(args.end(), options.begin(), options.end());
      const RunResult other = tag(args);
      INFO("format " << format << ", " << options[0] << " " << options[1]);
      REQUIRE(other.exit_code == 0);
      REQUIRE(other.out == one.out);  // byte-identical
    }
  }
}

TEST_CASE_METHOD(CliFixture, "tag -j 2 keeps the input order", "[cli][batch]") {
  const RunResult result = tag({"-f", "conllu", "-j", "2"}, numbered_text(2000));
  REQUIRE(result.exit_code == 0);
  int expected_id = 1;
  int expected_number = 0;
  for (const std::string& line : split_lines(result.out)) {
    if (line.rfind("# sent_id = ", 0) == 0) {
      REQUIRE(line == "# sent_id = " + std::to_string(expected_id++));
    }
    const std::size_t number = line.find("saw a saw number ");
    if (line.rfind("# text = ", 0) == 0 && number != std::string::npos) {
      REQUIRE(std::stoi(line.substr(number + 17)) == expected_number++);
    }
  }
  REQUIRE(expected_number == 2000);
}

TEST_CASE_METHOD(CliFixture, "tag --output-dir writes one output per input and skips bad ones",
                 "[cli][batch]") {
  const std::string first = dir.write("first.txt", "I saw a saw.\n");
  const std::string second = dir.write("second.text", "The dog saw it.\n");
  fs::create_directory(dir.file("a-directory"));
  const std::string out = dir.file("out");
  const RunResult result =
      tag({"-f", "conllu", "-j", "2", "--output-dir", out, first, dir.file("missing.txt"),
           dir.file("a-directory"), second});
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find("missing.txt") != std::string::npos);
  CHECK(result.err.find("a-directory") != std::string::npos);
  CHECK(result.err.find("tagged 2 of 4 files") != std::string::npos);
  REQUIRE(files_in(out) == std::vector<std::string>{"first.conllu", "second.conllu"});
  const RunResult single = tag({"-f", "conllu", first});
  CHECK(read_file(out + "/first.conllu") == single.out);  // the same as tagging it alone
  CHECK(read_file(out + "/second.conllu").find("# text = The dog saw it.") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "tag --output-dir refuses two inputs with one output name",
                 "[cli][batch]") {
  fs::create_directory(dir.file("a"));
  fs::create_directory(dir.file("b"));
  const std::string one = dir.write("a/same.txt", "I saw a saw.\n");
  const std::string two = dir.write("b/same.txt", "The dog.\n");
  const RunResult result = tag({"--output-dir", dir.file("out"), one, two});
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("already taken by") != std::string::npos);
  CHECK(read_file(dir.file("out/same.txt")).rfind("I/", 0) == 0);  // the first one stays
}

TEST_CASE_METHOD(CliFixture, "tag: options that make no sense are usage errors (exit 2)",
                 "[cli][batch]") {
  const std::string input = dir.write("input.txt", "I saw a saw.\n");
  check_one_line_error(tag({"-j", "0", input}), 2, "--threads");
  check_one_line_error(tag({"-j", "-3", input}), 2, "--threads");
  check_one_line_error(tag({"--batch-size", "0", input}), 2, "--batch-size");
  check_one_line_error(tag({"--output-dir", dir.file("out"), "-o", dir.file("x"), input}), 2,
                       "--output-dir");
  check_one_line_error(tag({"--output-dir", dir.file("out"), "-"}), 2, "--output-dir");
}

TEST_CASE_METHOD(CliFixture, "a killed batch leaves no half-written output under its name",
                 "[cli][batch]") {
  std::string big;
  const std::string paragraph = numbered_text(1);
  while (big.size() < (std::size_t{40} << 20)) big += paragraph;  // takes seconds to tag
  const std::string input = dir.write("big.txt", big);
  const std::string out = dir.file("out");
  for (const int signal_number : {SIGINT, SIGKILL}) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int errors = ::open(dir.file("stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(errors, 2);
      ::execl(SAWTAG_BINARY, SAWTAG_BINARY, "tag", "-m", model.c_str(), "-j", "1",
              "--output-dir", out.c_str(), input.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Wait until the temporary output exists and has something in it, then interrupt.
    bool writing = false;
    for (int tries = 0; tries < 600 && !writing; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (!fs::exists(out)) continue;
      for (const std::string& name : files_in(out)) {
        writing = writing || (name.rfind(".big.txt.part-", 0) == 0 &&
                              fs::file_size(out + "/" + name) > 0);
      }
    }
    REQUIRE(writing);
    ::kill(pid, signal_number);
    int status = 0;
    ::waitpid(pid, &status, 0);
    INFO("signal " << signal_number);
    REQUIRE(WIFSIGNALED(status));
    CHECK_FALSE(fs::exists(out + "/big.txt"));  // nothing poses as a result
    if (signal_number == SIGINT) {
      CHECK(files_in(out).empty());  // the part file is removed, and stderr says so
      CHECK(read_file(dir.file("stderr")) ==
            "sawtag: error: interrupted; the unfinished output was removed\n");
    }
    fs::remove_all(out);
  }
}
