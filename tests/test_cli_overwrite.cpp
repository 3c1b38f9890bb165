// "Input file is output file" (app/overwrite_check.cpp, app/output_file.cpp): no output may
// destroy an input, by its name, a symbolic link or a hard link; and a single output is written
// whole or not at all.
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

constexpr const char* kNotes = "I saw a saw.\n";

// The run is refused with one line naming `needle`, and notes.txt is byte for byte as it was.
void check_refused(const RunResult& result, const std::string& notes, const std::string& needle) {
  check_one_line_error(result, 1, needle);
  CHECK(result.err.find("would overwrite the input") != std::string::npos);
  CHECK(read_file(notes) == kNotes);
}

std::vector<std::string> hidden_files_in(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (name[0] == '.') names.push_back(name);
  }
  return names;
}

}  // namespace

TEST_CASE_METHOD(CliFixture, "tag -o naming its input is refused", "[cli][overwrite]") {
  const std::string notes = dir.write("notes.txt", kNotes);
  check_refused(tag({notes, "-o", notes}), notes, "-o " + notes);
}

TEST_CASE_METHOD(CliFixture, "tag -o through a symbolic link to its input is refused",
                 "[cli][overwrite]") {
  const std::string notes = dir.write("notes.txt", kNotes);
  fs::create_symlink(notes, dir.file("link.txt"));
  check_refused(tag({notes, "-o", dir.file("link.txt")}), notes, "(the same file)");
  CHECK(fs::is_symlink(dir.file("link.txt")));
}

TEST_CASE_METHOD(CliFixture, "tag -o a hard link to its input is refused", "[cli][overwrite]") {
  const std::string notes = dir.write("notes.txt", kNotes);
  fs::create_hard_link(notes, dir.file("hard.txt"));
  check_refused(tag({notes, "-o", dir.file("hard.txt")}), notes, "hard.txt");
}

TEST_CASE_METHOD(CliFixture, "tag --attention naming its input is refused", "[cli][overwrite]") {
  const std::string notes = dir.write("notes.txt", kNotes);
  check_refused(tag({notes, "--attention", notes}), notes, "--attention " + notes);
  // The second of several inputs counts too, and so does the model.
  const std::string other = dir.write("other.txt", "The dog.\n");
  check_refused(tag({other, notes, "-o", notes}), notes, "-o " + notes);
  const std::string model_before = read_file(model);
  check_one_line_error(tag({notes, "-o", model}), 1, "would overwrite the input " + model);
  CHECK(read_file(model) == model_before);
}

TEST_CASE_METHOD(CliFixture, "tag -o and --attention naming one file is refused",
                 "[cli][overwrite]") {
  const std::string notes = dir.write("notes.txt", kNotes);
  const std::string out = dir.file("out.txt");
  check_one_line_error(tag({notes, "-o", out, "--attention", out}), 1, "is the same file as -o");
  CHECK_FALSE(fs::exists(out));
  // Devices are no files to protect: both outputs may go to /dev/null.
  CHECK(tag({notes, "-o", "/dev/null", "--attention", "/dev/null"}).exit_code == 0);
}

TEST_CASE_METHOD(CliFixture, "tag --output-dir: an output over another input is refused",
                 "[cli][overwrite]") {
  // first.txt -> out/first.tsv, which is the second input: it would be gone before it is read.
  fs::create_directory(dir.file("out"));
  const std::string first = dir.write("first.txt", kNotes);
  const std::string second = dir.write("out/first.tsv", "The dog.\n");
  const RunResult result = tag({"-f", "tsv", "--output-dir", dir.file("out"), first, second});
  check_one_line_error(result, 1, "would overwrite the input " + second);
  CHECK(read_file(second) == "The dog.\n");
}

TEST_CASE_METHOD(CliFixture, "attention -o, --html or --svg naming an input is refused",
                 "[cli][overwrite]") {
  const std::string notes = dir.write("notes.txt", kNotes);
  for (const char* option : {"-o", "--html", "--svg"}) {
    INFO(option);
    check_refused(run_sawtag({"attention", "-m", model, "--file", notes, option, notes}), notes,
                  std::string(option) + " " + notes);
  }
}

TEST_CASE_METHOD(CliFixture, "train -o or --checkpoint naming the training file is refused",
                 "[cli][overwrite]") {
  const std::string train = dir.write("train.conllu", read_file(SAWTAG_TEST_DATA "/sample.conllu"));
  const std::string before = read_file(train);
  const std::vector<std::string> common{"train", "--train", train, "--dev", train, "--epochs", "1"};
  std::vector<std::string> output = common;
  output.insert(output.end(), {"-o", train});
  check_one_line_error(run_sawtag(output), 1, "-o " + train + ": would overwrite the input");
  std::vector<std::string> checkpoint = common;
  checkpoint.insert(checkpoint.end(), {"-o", dir.file("model.json"), "--checkpoint", train});
  check_one_line_error(run_sawtag(checkpoint), 1, "--checkpoint " + train);
  CHECK(read_file(train) == before);
  CHECK_FALSE(fs::exists(dir.file("model.json")));
}

TEST_CASE_METHOD(CliFixture, "calibrate -o naming its model is refused, the model unchanged",
                 "[cli][overwrite]") {
  const std::string dev = dir.write("dev.conllu", read_file(SAWTAG_TEST_DATA "/sample.conllu"));
  const std::string before = read_file(model);
  check_one_line_error(run_sawtag({"calibrate", "-m", model, "--dev", dev, "-o", model}), 1,
                       "-o " + model + ": would overwrite the input");
  check_one_line_error(run_sawtag({"calibrate", "-m", model, "--dev", dev, "-o", dev}), 1,
                       "-o " + dev + ": would overwrite the input");
  CHECK(read_file(model) == before);
  // And it works: the temperatures are written, the tags kept.
  const std::string calibrated = dir.file("calibrated.json");
  const RunResult result =
      run_sawtag({"calibrate", "-m", model, "--dev", dev, "-o", calibrated});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(read_file(calibrated).find("\"calibration\"") != std::string::npos);
}

TEST_CASE_METHOD(CliFixture, "pretrain -o or --checkpoint naming its text or vectors is refused",
                 "[cli][overwrite]") {
  const std::string text = dir.write("text.txt", "I saw a saw .\n");
  const std::string vectors = dir.write("v.vec", "1 6\nsaw 1 2 3 4 5 6\n");
  const std::string before = read_file(text);
  check_one_line_error(
      run_sawtag({"pretrain", "--text", text, "--vectors", vectors, "-o", text}), 1,
      "-o " + text + ": would overwrite the input");
  check_one_line_error(run_sawtag({"pretrain", "--text", text, "--vectors", vectors, "-o",
                                   dir.file("encoder.json"), "--checkpoint", vectors}),
                       1, "--checkpoint " + vectors);
  CHECK(read_file(text) == before);
}

TEST_CASE_METHOD(CliFixture, "tag -o replaces the file whole, keeping a link a link",
                 "[cli][overwrite]") {
  const std::string notes = dir.write("notes.txt", kNotes);
  const std::string target = dir.write("previous.txt", "previous\n");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink(target, dir.file("link.txt"));
  const RunResult result = tag({notes, "-o", dir.file("link.txt")});
  CHECK(result.exit_code == 0);
  CHECK(fs::is_symlink(dir.file("link.txt")));
  CHECK(read_file(target) == tag({notes}).out);
  CHECK(fs::status(target).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(hidden_files_in(dir.file("")).empty());  // no temporary file left
  // A run that fails half way leaves the previous output, not a part of the new one.
  const std::string bad = dir.write("half.conllu", "1\tI\t_\t_\t_\t_\t_\t_\t_\t_\n\n1\tsaw\n");
  CHECK(tag({"--input", "conllu", bad, "-o", target}).exit_code == 1);
  CHECK(read_file(target) == tag({notes}).out);
}

TEST_CASE_METHOD(CliFixture, "an interrupted tag -o leaves the previous output",
                 "[cli][overwrite]") {
  std::string big;
  while (big.size() < (std::size_t{40} << 20)) big += "I saw a saw. The dog don't see it.\n\n";
  const std::string input = dir.write("big.txt", big);
  const std::string out = dir.write("out.txt", "previous\n");
  for (const int signal_number : {SIGINT, SIGKILL}) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int errors = ::open(dir.file("stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(errors, 2);
      ::execl(SAWTAG_BINARY, SAWTAG_BINARY, "tag", "-m", model.c_str(), "-j", "1", "-o",
              out.c_str(), input.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Wait until the temporary output has something in it, then interrupt.
    const std::string part = dir.file(".out.txt.part-" + std::to_string(pid));
    bool writing = false;
    for (int tries = 0; tries < 600 && !writing; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      std::error_code missing;
      writing = fs::file_size(part, missing) > 0 && !missing;
    }
    REQUIRE(writing);
    ::kill(pid, signal_number);
    int status = 0;
    ::waitpid(pid, &status, 0);
    INFO("signal " << signal_number);
    REQUIRE(WIFSIGNALED(status));
    CHECK(read_file(out) == "previous\n");  // the previous output, untouched
    if (signal_number == SIGINT) {
      CHECK_FALSE(fs::exists(part));
      CHECK(read_file(dir.file("stderr")) ==
            "sawtag: error: interrupted; the unfinished output was removed\n");
    }
    fs::remove(part);
  }
}
