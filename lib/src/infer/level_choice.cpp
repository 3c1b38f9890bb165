#include "infer/level_choice.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "infer/kernels.hpp"
#include "infer/level_cache.hpp"

#ifndef SAWTAG_VERSION
#define SAWTAG_VERSION "unknown"
#endif

namespace sawtag::infer {

namespace {

// What the baseline level was compiled for: a native build's baseline is as fast as its own
// CPU's level, a portable build's is SSE2, so the two must not share a cache entry.
#if defined(__AVX512F__)
constexpr const char* kBaselineBuiltFor = "baseline avx512";
#elif defined(__AVX2__)
constexpr const char* kBaselineBuiltFor = "baseline avx2";
#else
constexpr const char* kBaselineBuiltFor = "baseline generic";
#endif

// "avx512bf16 0.31 ms, avx512 0.62 ms, avx2 0.70 ms, baseline 4.12 ms" (fastest first).
std::string describe(std::vector<LevelTiming> timings) {
  std::stable_sort(timings.begin(), timings.end(), [](const LevelTiming& a, const LevelTiming& b) {
    return a.milliseconds < b.milliseconds;
  });
  std::string text;
  for (const LevelTiming& timing : timings) {
    char figure[32];
    std::snprintf(figure, sizeof figure, " %.3f ms", timing.milliseconds);
    text += (text.empty() ? "" : ", ") + std::string(cpu_level_name(timing.level)) + figure;
  }
  return text;
}

std::optional<CpuLevel> level_named(const std::string& name, const std::vector<CpuLevel>& levels) {
  for (const CpuLevel level : levels) {
    if (name == cpu_level_name(level)) return level;
  }
  return std::nullopt;
}

}  // namespace

const char* level_reason_name(LevelReason reason) {
  switch (reason) {
    case LevelReason::forced:
      return "forced";
    case LevelReason::only:
      return "only";
    case LevelReason::cached:
      return "cached";
    case LevelReason::measured:
      return "measured";
  }
  return "unknown";
}

LevelChoice choose_level(const LevelChoiceRequest& request, const MeasureLevels& measure) {
  LevelChoice choice;
  if (!request.forced.empty()) {
    choice.level = choose_cpu_level(request.forced, request.runnable);
    choice.reason = LevelReason::forced;
    choice.note = "SAWTAG_CPU=" + request.forced;
    return choice;
  }
  if (request.runnable.size() == 1) {
    choice.level = request.runnable.front();
    choice.reason = LevelReason::only;
    return choice;
  }
  if (const std::optional<CachedLevel> cached =
          read_cached_level(request.cache_path, request.cache_key)) {
    if (const std::optional<CpuLevel> level = level_named(cached->level, request.runnable)) {
      choice.level = *level;
      choice.reason = LevelReason::cached;
      choice.note = cached->note + "; remembered in " + request.cache_path;
      return choice;
    }
  }
  const std::vector<LevelTiming> timings = measure(request.runnable);
  choice.level = request.runnable.back();
  double fastest = -1;
  for (const LevelTiming& timing : timings) {
    // Lowest first, so on a tie the higher level (later) wins.
    if (fastest < 0 || timing.milliseconds <= fastest) {
      fastest = timing.milliseconds;
      choice.level = timing.level;
    }
  }
  choice.reason = LevelReason::measured;
  choice.note = describe(timings);
  const bool remembered =
      write_cached_level(request.cache_path, request.cache_key,
                         CachedLevel{cpu_level_name(choice.level), choice.note});
  choice.note += remembered ? "; remembered in " + request.cache_path
                            : "; not remembered (no writable cache directory)";
  return choice;
}

LevelChoiceRequest level_choice_request(const LayerShapes& shapes) {
  LevelChoiceRequest request;
  const char* forced = std::getenv("SAWTAG_CPU");
  if (forced != nullptr) request.forced = forced;
  for (const CpuLevel level : supported_cpu_levels()) {
    if (has_code(level)) request.runnable.push_back(level);
  }
  request.cache_path = level_cache_path();
  // The levels it was chosen from: a build that offers another set measures again.
  std::string levels;
  for (const CpuLevel level : request.runnable) levels += std::string(" ") + cpu_level_name(level);
  request.cache_key = std::string("sawtag ") + SAWTAG_VERSION + " " + kBaselineBuiltFor + "|" +
                      cpu_model() + "|d_model " + std::to_string(shapes.d_model) + " d_ff " +
                      std::to_string(shapes.d_ff) + " rows " + std::to_string(shapes.rows) +
                      " levels" + levels;
  return request;
}

}  // namespace sawtag::infer
