#include "infer/level_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace sawtag::infer {

namespace {

constexpr std::size_t kMaxEntries = 64;
constexpr std::size_t kMaxLineBytes = 4096;

struct Line {
  std::string key;
  CachedLevel entry;
};

// "KEY\tLEVEL\tNOTE" -> a Line; none for anything else.
std::optional<Line> parse(const std::string& text) {
  if (text.size() > kMaxLineBytes) return std::nullopt;
  const std::size_t first_tab = text.find('\t');
  if (first_tab == std::string::npos || first_tab == 0) return std::nullopt;
  const std::size_t second_tab = text.find('\t', first_tab + 1);
  if (second_tab == std::string::npos || second_tab == first_tab + 1) return std::nullopt;
  Line line;
  line.key = text.substr(0, first_tab);
  line.entry.level = text.substr(first_tab + 1, second_tab - first_tab - 1);
  line.entry.note = text.substr(second_tab + 1);
  for (const char c : text) {
    if (c == '\0' || c == '\r') return std::nullopt;
  }
  if (line.entry.note.find('\t') != std::string::npos) return std::nullopt;
  return line;
}

std::vector<Line> read_lines(const std::string& path) {
  std::vector<Line> lines;
  std::ifstream in(path, std::ios::binary);
  std::string text;
  while (in && std::getline(in, text)) {
    if (std::optional<Line> line = parse(text)) lines.push_back(std::move(*line));
  }
  return lines;
}

// Tabs and line breaks would break the format: they become spaces.
std::string one_field(std::string text) {
  for (char& c : text) {
    if (c == '\t' || c == '\n' || c == '\r' || c == '\0') c = ' ';
  }
  return text;
}

// mkdir -p of path's directory.
bool make_parent_directories(const std::string& path) {
  for (std::size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const std::string directory = path.substr(0, slash);
    if (::mkdir(directory.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

}  // namespace

std::string level_cache_path() {
  const char* cache_home = std::getenv("XDG_CACHE_HOME");
  if (cache_home != nullptr && cache_home[0] == '/') {
    return std::string(cache_home) + "/sawtag/cpu-levels.tsv";
  }
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] == '/') return std::string(home) + "/.cache/sawtag/cpu-levels.tsv";
  return "";
}

std::optional<CachedLevel> read_cached_level(const std::string& path, const std::string& key) {
  if (path.empty()) return std::nullopt;
  const std::string wanted = one_field(key);
  for (Line& line : read_lines(path)) {
    if (line.key == wanted) return std::move(line.entry);
  }
  return std::nullopt;
}

bool write_cached_level(const std::string& path, const std::string& key, const CachedLevel& entry) {
  if (path.empty() || !make_parent_directories(path)) return false;
  const std::string wanted = one_field(key);
  std::vector<Line> kept;
  for (Line& line : read_lines(path)) {
    if (line.key != wanted) kept.push_back(std::move(line));
  }
  if (kept.size() >= kMaxEntries) kept.erase(kept.begin(), kept.end() - (kMaxEntries - 1));
  kept.push_back(Line{wanted, CachedLevel{one_field(entry.level), one_field(entry.note)}});
  const std::string temporary = path + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    for (const Line& line : kept) {
      out << line.key << '\t' << line.entry.level << '\t' << line.entry.note << '\n';
    }
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace sawtag::infer
