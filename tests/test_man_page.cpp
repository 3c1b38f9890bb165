// The manual page (docs/man/sawtag.1) against the CLI's own help: every command that
// `sawtag --help` lists has a section there, every option of `sawtag COMMAND --help` an entry in
// that section, and the page names no command or option the CLI lacks. The page's header says
// how to add one.
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using sawtag::testing::read_file;
using sawtag::testing::run_sawtag;
using sawtag::testing::RunResult;
using sawtag::testing::split_lines;

using Names = std::set<std::string>;

std::string upper_case(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// CLI11's help: "OPTIONS:" (or "Options:") then lines "  -j,--threads INT  Threads"; the
// names are the first field, split at commas, without a negation's "{false}" default.
// "--relative-position{false},--no-relative-position{true}" -> --relative-position,
// --no-relative-position.
Names options_in_help(const std::string& help) {
  Names names;
  std::string group;
  for (const std::string& line : split_lines(help)) {
    if (!line.empty() && line[0] != ' ' && line.back() == ':') {
      group = upper_case(line);
      continue;
    }
    if (group != "OPTIONS:") continue;
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || start > 4 || line[start] != '-') continue;
    const std::string field = line.substr(start, line.find(' ', start) - start);
    std::stringstream parts(field);
    for (std::string name; std::getline(parts, name, ',');) {
      name = name.substr(0, name.find('{'));
      if (!name.empty() && name[0] == '-') names.insert(name);
    }
  }
  names.erase("-h");
  names.erase("--help");
  return names;
}

// The commands under "SUBCOMMANDS:": "  tag    Tag text ..." -> tag.
Names commands_in_help(const std::string& help) {
  Names names;
  std::string group;
  for (const std::string& line : split_lines(help)) {
    if (!line.empty() && line[0] != ' ' && line.back() == ':') {
      group = upper_case(line);
      continue;
    }
    if (group != "SUBCOMMANDS:" || line.rfind("  ", 0) != 0 || line[2] == ' ') continue;
    names.insert(line.substr(2, line.find(' ', 2) - 2));
  }
  return names;
}

// The page's options per section: a section starts at `.SS "sawtag NAME ...` (a command) or
// `.SH NAME` (GLOBAL OPTIONS, ...); an option is a name in the line after `.TP`:
// `.BR \-j ", " \-\-threads " \fIN\fR"` -> -j, --threads.
std::map<std::string, Names> options_in_page(const std::string& page) {
  static const std::regex section(R"(^\.S[SH] "?(sawtag )?([A-Za-z][A-Za-z-]*))");
  static const std::regex option(R"((\\-)(\\-)?[A-Za-z0-9]+(\\-[A-Za-z0-9]+)*)");
  std::map<std::string, Names> sections;
  std::string current;
  bool after_tp = false;
  for (const std::string& line : split_lines(page)) {
    std::smatch match;
    if (std::regex_search(line, match, section)) {
      current = match[1].matched ? match[2].str() : "(" + match[2].str() + ")";
      sections[current];
      after_tp = false;
      continue;
    }
    if (line == ".TP") {
      after_tp = true;
      continue;
    }
    if (!after_tp) continue;
    after_tp = false;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), option);
         it != std::sregex_iterator(); ++it) {
      std::string name = it->str();
      std::string plain;
      for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] != '\\') plain += name[i];
      }
      sections[current].insert(plain);
    }
  }
  return sections;
}

std::string join(const Names& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : " ") + name;
  return text;
}

Names minus(const Names& left, const Names& right) {
  Names difference;
  for (const std::string& name : left) {
    if (right.count(name) == 0) difference.insert(name);
  }
  return difference;
}

const std::string kPagePath = std::string(SAWTAG_SOURCE_DIR) + "/docs/man/sawtag.1";

}  // namespace

TEST_CASE("the manual page names every command and option of --help, and no others", "[man]") {
  const std::string page = read_file(kPagePath);
  REQUIRE_FALSE(page.empty());
  const std::map<std::string, Names> sections = options_in_page(page);
  const RunResult top = run_sawtag({"--help"});
  REQUIRE(top.exit_code == 0);
  const Names commands = commands_in_help(top.out);
  REQUIRE(commands.count("tag") == 1);
  REQUIRE(commands.count("train") == 1);

  Names commands_in_page;
  for (const auto& [name, options] : sections) {
    if (name[0] != '(') commands_in_page.insert(name);
  }
  INFO("add a section `.SS \"sawtag NAME ...\"` to docs/man/sawtag.1 for each of these");
  CHECK(join(minus(commands, commands_in_page)) == "");
  INFO("docs/man/sawtag.1 has sections for commands sawtag does not have");
  CHECK(join(minus(commands_in_page, commands)) == "");

  for (const std::string& command : commands) {
    INFO("sawtag " << command);
    const RunResult help = run_sawtag({command, "--help"});
    REQUIRE(help.exit_code == 0);
    const Names expected = options_in_help(help.out);
    CHECK_FALSE(expected.empty());
    const auto found = sections.find(command);
    const Names actual = found == sections.end() ? Names{} : found->second;
    INFO("options missing from the page's section of the command (add a .TP entry)");
    CHECK(join(minus(expected, actual)) == "");
    INFO("options the page names that the command does not have");
    CHECK(join(minus(actual, expected)) == "");
  }

  const Names global = options_in_help(top.out);
  const auto global_section = sections.find("(GLOBAL)");
  REQUIRE(global_section != sections.end());
  CHECK(join(global) == "--version");
  CHECK(join(global_section->second) == "--help --version -h");
}

TEST_CASE("the manual page's parser reads CLI11's help and the page's entries", "[man]") {
  const std::string help =
      "Train a model\nUsage: sawtag train [OPTIONS]\n\nOPTIONS:\n"
      "  -h,--help                   Print this help message and exit\n"
      "  -j,--threads INT:INT in [1 - 1024]=2\n"
      "                              Threads\n"
      "  --relative-position{false},--no-relative-position{true}\n"
      "                              Learned bias\n";
  CHECK(join(options_in_help(help)) == "--no-relative-position --relative-position --threads -j");
  CHECK(join(commands_in_help("Usage: sawtag\n\nSUBCOMMANDS:\n  tag   Tag text\n"
                              "  train-tokenizer\n                 Learn\n")) ==
        "tag train-tokenizer");
  const auto sections = options_in_page(
      ".SH GLOBAL OPTIONS\n.TP\n.B \\-\\-version\nPrint.\n"
      ".SS \"sawtag train [options]\"\nTrain; see \\-\\-not\\-an\\-entry.\n.TP\n"
      ".BR \\-\\-word\\-dim \", \" \\-\\-d\\-model \" \\fIN\\fR\"\nSizes \\-\\-nor\\-this.\n");
  CHECK(join(sections.at("(GLOBAL)")) == "--version");
  CHECK(join(sections.at("train")) == "--d-model --word-dim");
}
