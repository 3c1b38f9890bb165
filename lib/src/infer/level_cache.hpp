// Where the measured CPU level is remembered between runs (infer/level_choice.hpp), so that only
// the first run on a machine pays for timing the levels.
//
// A text file of one entry a line, "KEY<tab>LEVEL<tab>NOTE", e.g.
//   sawtag 0.1.0|AuthenticAMD 25.17.1 AMD EPYC|d_model 256 d_ff 512	avx512bf16	avx512bf16 0.31
//   ms, ...
// The key holds sawtag's version and the CPU's model, so one home directory shared by machines
// of different CPUs (a cluster's) keeps an entry for each. Nothing here throws: a file that
// cannot be read, is corrupt or cannot be written is as if there were none.
#pragma once

#include <optional>
#include <string>

namespace sawtag::infer {

struct CachedLevel {
  std::string level;  // a cpu_level_name(); the caller checks that this CPU can run it
  std::string note;   // how it was chosen (the timings), for `sawtag info`
};

// $XDG_CACHE_HOME/sawtag/cpu-levels.tsv when XDG_CACHE_HOME is an absolute path, else
// $HOME/.cache/sawtag/cpu-levels.tsv, else "" (no cache).
std::string level_cache_path();

// The entry under `key`; none when the file is missing, unreadable, or has no well-formed
// line with that key.
std::optional<CachedLevel> read_cached_level(const std::string& path, const std::string& key);

// Stores `entry` under `key`, keeping the other keys' well-formed entries (at most 64 in all)
// and dropping malformed lines; creates the directory. Writes a temporary file beside `path`
// and renames it, so a reader never sees half a file. False when anything fails.
bool write_cached_level(const std::string& path, const std::string& key, const CachedLevel& entry);

}  // namespace sawtag::infer
