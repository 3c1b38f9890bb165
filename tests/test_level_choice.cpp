// Choosing the CPU level (lib/src/infer/level_choice.hpp): forced by SAWTAG_CPU, cached, or
// measured (here by a fake measurement with fixed timings, so the expectations are exact) and
// remembered; `sawtag info` says which and why. Caches live in temporary directories.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "infer/level_cache.hpp"
#include "infer/level_choice.hpp"

using namespace sawtag;
using infer::CpuLevel;
using infer::LevelReason;

namespace {

const std::vector<CpuLevel> kThreeLevels = {CpuLevel::baseline, CpuLevel::avx2, CpuLevel::avx512};

// Times baseline 4 ms, avx2 1 ms, avx512 2 ms (avx2 fastest) and counts its calls.
struct FakeMeasure {
  int calls = 0;
  infer::MeasureLevels function() {
    return [this](const std::vector<CpuLevel>& levels) {
      ++calls;
      std::vector<infer::LevelTiming> timings;
      for (const CpuLevel level : levels) {
        const double milliseconds = level == CpuLevel::baseline ? 4
                                    : level == CpuLevel::avx2   ? 1
                                                                : 2;
        timings.push_back({level, milliseconds});
      }
      return timings;
    };
  }
};

infer::LevelChoiceRequest request_in(const testing::TempDir& directory) {
  infer::LevelChoiceRequest request;
  request.runnable = kThreeLevels;
  request.cache_path = directory.file("sawtag/cpu-levels.tsv");
  request.cache_key = "sawtag 0.1.0|this cpu|d_model 256";
  return request;
}

}  // namespace

TEST_CASE("level choice: measured once, the fastest taken, then cached", "[level_choice]") {
  testing::TempDir directory;
  FakeMeasure measure;
  const infer::LevelChoice first = infer::choose_level(request_in(directory), measure.function());
  CHECK(first.level == CpuLevel::avx2);
  CHECK(first.reason == LevelReason::measured);
  CHECK(first.note == "avx2 1.000 ms, avx512 2.000 ms, baseline 4.000 ms; remembered in " +
                          directory.file("sawtag/cpu-levels.tsv"));
  CHECK(measure.calls == 1);

  const infer::LevelChoice second = infer::choose_level(request_in(directory), measure.function());
  CHECK(second.level == CpuLevel::avx2);
  CHECK(second.reason == LevelReason::cached);
  CHECK(measure.calls == 1);  // not measured again
}

TEST_CASE("level choice: SAWTAG_CPU beats the cache and measures nothing", "[level_choice]") {
  testing::TempDir directory;
  FakeMeasure measure;
  infer::LevelChoiceRequest request = request_in(directory);
  request.forced = "baseline";
  const infer::LevelChoice choice = infer::choose_level(request, measure.function());
  CHECK(choice.level == CpuLevel::baseline);
  CHECK(choice.reason == LevelReason::forced);
  CHECK(choice.note == "SAWTAG_CPU=baseline");
  CHECK(measure.calls == 0);
  CHECK_FALSE(infer::read_cached_level(request.cache_path, request.cache_key).has_value());
  request.forced = "amx";
  CHECK_THROWS_WITH(infer::choose_level(request, measure.function()),
                    Catch::Contains("SAWTAG_CPU=amx: this CPU cannot run it"));
}

TEST_CASE("level choice: one level runnable is taken without measuring", "[level_choice]") {
  testing::TempDir directory;
  FakeMeasure measure;
  infer::LevelChoiceRequest request = request_in(directory);
  request.runnable = {CpuLevel::baseline};
  const infer::LevelChoice choice = infer::choose_level(request, measure.function());
  CHECK(choice.level == CpuLevel::baseline);
  CHECK(choice.reason == LevelReason::only);
  CHECK(measure.calls == 0);
}

TEST_CASE("level choice: another CPU's entry is measured over, and kept", "[level_choice]") {
  testing::TempDir directory;
  FakeMeasure measure;
  const infer::LevelChoiceRequest request = request_in(directory);
  REQUIRE(infer::write_cached_level(request.cache_path, "sawtag 0.1.0|another cpu|d_model 256",
                                    infer::CachedLevel{"avx512", "theirs"}));
  const infer::LevelChoice choice = infer::choose_level(request, measure.function());
  CHECK(choice.reason == LevelReason::measured);
  CHECK(choice.level == CpuLevel::avx2);
  CHECK(measure.calls == 1);
  CHECK(
      infer::read_cached_level(request.cache_path, "sawtag 0.1.0|another cpu|d_model 256")->level ==
      "avx512");
  CHECK(infer::read_cached_level(request.cache_path, request.cache_key)->level == "avx2");
}

TEST_CASE("level choice: a corrupt cache, or one naming a level this CPU lacks, is measured over",
          "[level_choice]") {
  testing::TempDir directory;
  FakeMeasure measure;
  const infer::LevelChoiceRequest request = request_in(directory);
  std::filesystem::create_directory(directory.file("sawtag"));
  directory.write("sawtag/cpu-levels.tsv", request.cache_key + "\tamx\tnot this CPU's\n\x01\x02");
  const infer::LevelChoice choice = infer::choose_level(request, measure.function());
  CHECK(choice.reason == LevelReason::measured);
  CHECK(choice.level == CpuLevel::avx2);
  CHECK(testing::read_file(request.cache_path) ==
        request.cache_key + "\tavx2\tavx2 1.000 ms, avx512 2.000 ms, baseline 4.000 ms\n");
}

TEST_CASE("level choice: an unwritable cache is not an error", "[level_choice]") {
  testing::TempDir directory;
  FakeMeasure measure;
  infer::LevelChoiceRequest request = request_in(directory);
  request.cache_path = directory.write("plain-file", "x") + "/sawtag/cpu-levels.tsv";
  const infer::LevelChoice first = infer::choose_level(request, measure.function());
  CHECK(first.level == CpuLevel::avx2);
  CHECK(first.note ==
        "avx2 1.000 ms, avx512 2.000 ms, baseline 4.000 ms; not remembered (no "
        "writable cache directory)");
  infer::choose_level(request, measure.function());
  CHECK(measure.calls == 2);  // measured each time
}

TEST_CASE("level choice: on a tie the higher level wins", "[level_choice]") {
  testing::TempDir directory;
  const infer::LevelChoice choice =
      infer::choose_level(request_in(directory), [](const std::vector<CpuLevel>& levels) {
        std::vector<infer::LevelTiming> timings;
        for (const CpuLevel level : levels) timings.push_back({level, 1.0});
        return timings;
      });
  CHECK(choice.level == CpuLevel::avx512);
}

TEST_CASE("level timing: every runnable level gets a positive time", "[level_choice]") {
  const std::vector<CpuLevel> levels = infer::level_choice_request({}).runnable;
  infer::LayerShapes small;
  small.rows = 5;
  small.d_model = 32;
  small.d_ff = 64;
  const std::vector<infer::LevelTiming> timings = infer::time_levels(levels, small, 1);
  REQUIRE(timings.size() == levels.size());
  for (std::size_t l = 0; l < levels.size(); ++l) {
    CHECK(timings[l].level == levels[l]);
    CHECK(timings[l].milliseconds > 0);
  }
}

TEST_CASE("sawtag info says which level runs and why: measured, then cached, or forced",
          "[level_choice][cli]") {
  testing::TempDir cache;
  const std::string model = std::string(SAWTAG_TEST_DATA) + "/tiny-model-v1.json";
  const std::map<std::string, std::string> environment{{"XDG_CACHE_HOME", cache.file("home-cache")},
                                                       {"SAWTAG_CPU", ""}};
  const auto chosen_line = [&](const std::map<std::string, std::string>& variables) {
    const testing::RunResult result = testing::run_sawtag({"info", "-m", model}, "", variables);
    REQUIRE(result.exit_code == 0);
    for (const std::string& line : testing::split_lines(result.out)) {
      if (line.rfind("kernels chosen: ", 0) == 0) return line;
    }
    FAIL("no 'kernels chosen:' line in:\n" << result.out);
    return std::string();
  };
  const bool one_level = infer::level_choice_request({}).runnable.size() == 1;
  const std::string first = chosen_line(environment);
  const std::string second = chosen_line(environment);
  if (one_level) {
    CHECK(first == "kernels chosen: only");
  } else {
    CHECK(first.rfind("kernels chosen: measured (", 0) == 0);
    CHECK(first.find("; remembered in " + cache.file("home-cache") + "/sawtag/cpu-levels.tsv)") !=
          std::string::npos);
    CHECK(second.rfind("kernels chosen: cached (", 0) == 0);
  }
  std::map<std::string, std::string> forced = environment;
  forced["SAWTAG_CPU"] = "baseline";
  CHECK(chosen_line(forced) == "kernels chosen: forced (SAWTAG_CPU=baseline)");
}

TEST_CASE("the cache key names the levels the choice is made from", "[level_choice]") {
  // A build that offers another set of levels (a new one, say) must measure again rather than
  // take the level an older build chose.
  const infer::LevelChoiceRequest request = infer::level_choice_request({});
  std::string levels;
  for (const CpuLevel level : request.runnable)
    levels += std::string(" ") + infer::cpu_level_name(level);
  CHECK(request.cache_key.size() > levels.size());
  CHECK(request.cache_key.compare(request.cache_key.size() - levels.size(), levels.size(),
                                  levels) == 0);
  CHECK(request.cache_key.find("levels" + levels) != std::string::npos);
}

TEST_CASE("level choice: avxvnni is measured with the others, and wins a tie over avx2",
          "[level_choice]") {
  // Alder Lake's levels: avxvnni is the highest, though avx512 (which it lacks) ranks above it.
  testing::TempDir directory;
  infer::LevelChoiceRequest request = request_in(directory);
  request.runnable = {CpuLevel::baseline, CpuLevel::avx2, CpuLevel::avxvnni};
  std::vector<CpuLevel> measured;
  const infer::LevelChoice choice =
      infer::choose_level(request, [&](const std::vector<CpuLevel>& levels) {
        measured = levels;
        std::vector<infer::LevelTiming> timings;
        for (const CpuLevel level : levels) {
          timings.push_back({level, level == CpuLevel::baseline ? 4.0 : 1.0});
        }
        return timings;
      });
  CHECK(measured == request.runnable);
  CHECK(choice.level == CpuLevel::avxvnni);
  CHECK(choice.note.rfind("avx2 1.000 ms, avxvnni 1.000 ms, baseline 4.000 ms", 0) == 0);

  // On this machine: a CPU with AVX-VNNI measures the level (the build has its code).
  const infer::CpuFeatures features = infer::cpu_features();
  const std::vector<CpuLevel> runnable = infer::level_choice_request({}).runnable;
  const bool offered =
      std::find(runnable.begin(), runnable.end(), CpuLevel::avxvnni) != runnable.end();
  if (features.avx2 && features.avx_vnni) {
    CHECK(offered);
  } else {
    CHECK_FALSE(offered);
  }
}
