// The CPU-level kernels (lib/src/infer/kernels.hpp): every level this machine has, against
// float32 references computed in double; choosing a level; refusing one the CPU lacks.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.hpp"
#include "infer/cpu_level.hpp"
#include "infer/kernels.hpp"
#include "infer/packed_linear.hpp"

using namespace sawtag;
using infer::CpuLevel;

namespace {

std::vector<float> random_values(std::mt19937& rng, std::size_t count) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& value : values) value = uniform(rng);
  return values;
}

constexpr CpuLevel kAllLevels[] = {CpuLevel::baseline, CpuLevel::avx2,       CpuLevel::avxvnni,
                                   CpuLevel::avx512,   CpuLevel::avx512vnni, CpuLevel::avx512bf16,
                                   CpuLevel::amx};

bool supports(CpuLevel level) {
  const std::vector<CpuLevel> supported = infer::supported_cpu_levels();
  return std::find(supported.begin(), supported.end(), level) != supported.end();
}

// The first level this CPU lacks, or none (returns false) on a CPU that has them all.
bool missing_level(CpuLevel& level) {
  for (const CpuLevel candidate : kAllLevels) {
    if (supports(candidate)) continue;
    level = candidate;
    return true;
  }
  return false;
}

// What linear_int8 computes, one multiply-add at a time: x rows quantized to int8 by 127 / the
// row's largest |value| (nearest even), summed exactly with pack_int8's weights, scaled back
// with one fused multiply-add. The kernels follow these steps, so they must give these bits.
std::vector<float> int8_reference(const std::vector<float>& x, int rows, int in,
                                  const infer::PackedInt8& weights, const std::vector<float>& bias,
                                  int stride) {
  std::vector<float> y(static_cast<std::size_t>(rows) * stride);
  for (int r = 0; r < rows; ++r) {
    const float* row = x.data() + static_cast<std::size_t>(r) * in;
    float most = 0.0f;
    bool unordered = false;
    for (int k = 0; k < in; ++k) {
      most = std::max(most, std::abs(row[k]));
      unordered = unordered || std::isnan(row[k]);
    }
    if (unordered) {  // a NaN in the row: all its outputs NaN
      std::fill_n(y.begin() + static_cast<long>(r) * stride, stride,
                  std::numeric_limits<float>::quiet_NaN());
      continue;
    }
    const float row_scale = most / 127.0f;
    const float inverse = most > 0.0f ? 127.0f / most : 0.0f;
    for (int c = 0; c < stride; ++c) {
      std::int64_t sum = 0;
      for (int k = 0; k < in; ++k) {
        const auto q_x = static_cast<std::int64_t>(std::nearbyint(row[k] * inverse));
        const std::uint32_t quad = weights.quads[static_cast<std::size_t>(k / 4) * stride + c];
        sum += q_x * static_cast<std::int8_t>(quad >> (8 * (k % 4)));
      }
      const float scale = row_scale * weights.scales[static_cast<std::size_t>(c)];
      y[static_cast<std::size_t>(r) * stride + c] =
          std::fma(static_cast<float>(sum), scale, bias[static_cast<std::size_t>(c)]);
    }
  }
  return y;
}

LinearParameters random_linear(std::mt19937& rng, int in, int out) {
  LinearParameters linear{Tensor({in, out}), Tensor({out})};
  for (Tensor* tensor : {&linear.weight, &linear.bias}) {
    const std::vector<float> values = random_values(rng, tensor->data.size());
    tensor->data.assign(values.begin(), values.end());
  }
  return linear;
}

}  // namespace

TEST_CASE("cpu levels: baseline always, ordered, and SAWTAG_CPU names one of them", "[kernels]") {
  const std::vector<CpuLevel> supported = infer::supported_cpu_levels();
  REQUIRE(supported.front() == CpuLevel::baseline);
  for (std::size_t i = 1; i < supported.size(); ++i) REQUIRE(supported[i - 1] < supported[i]);
  CHECK(infer::choose_cpu_level("", supported) == supported.back());
  for (const CpuLevel level : supported) {
    CHECK(infer::choose_cpu_level(infer::cpu_level_name(level), supported) == level);
  }
  CHECK_THROWS_WITH(infer::choose_cpu_level("sse9", supported),
                    Catch::Contains("SAWTAG_CPU=sse9: unknown level"));
  CHECK_THROWS_WITH(infer::choose_cpu_level("amx", {CpuLevel::baseline, CpuLevel::avx2}),
                    Catch::Contains("SAWTAG_CPU=amx: this CPU cannot run it (it can run: "
                                    "baseline, avx2)"));
}

TEST_CASE("cpu levels: a level is supported when the CPU has its extensions, not by rank",
          "[kernels]") {
  using Levels = std::vector<CpuLevel>;
  infer::CpuFeatures none;
  CHECK(infer::levels_supported_by(none) == Levels{CpuLevel::baseline});
  infer::CpuFeatures alder_lake;  // AVX-VNNI, no AVX-512
  alder_lake.avx2 = alder_lake.avx_vnni = true;
  const Levels hybrid = infer::levels_supported_by(alder_lake);
  CHECK(hybrid == Levels{CpuLevel::baseline, CpuLevel::avx2, CpuLevel::avxvnni});
  infer::CpuFeatures zen4;  // AVX-512 with VNNI and BF16, no AVX-VNNI
  zen4.avx2 = zen4.avx512 = zen4.avx512_vnni = zen4.avx512_bf16 = true;
  CHECK(infer::levels_supported_by(zen4) == Levels{CpuLevel::baseline, CpuLevel::avx2,
                                                   CpuLevel::avx512, CpuLevel::avx512vnni,
                                                   CpuLevel::avx512bf16});
  infer::CpuFeatures cascade_lake = zen4;
  cascade_lake.avx512_bf16 = false;
  CHECK(infer::levels_supported_by(cascade_lake) ==
        Levels{CpuLevel::baseline, CpuLevel::avx2, CpuLevel::avx512, CpuLevel::avx512vnni});
  infer::CpuFeatures zen5 = zen4;
  zen5.avx_vnni = true;
  CHECK(infer::levels_supported_by(zen5) == Levels{CpuLevel::baseline, CpuLevel::avx2,
                                                   CpuLevel::avxvnni, CpuLevel::avx512,
                                                   CpuLevel::avx512vnni, CpuLevel::avx512bf16});
  infer::CpuFeatures sapphire_rapids = zen5;
  sapphire_rapids.amx = true;
  CHECK(infer::levels_supported_by(sapphire_rapids) ==
        Levels(std::begin(kAllLevels), std::end(kAllLevels)));
  // Without the ymm registers saved (avx2 false) no AVX level runs, AVX-VNNI or not.
  infer::CpuFeatures vnni_only;
  vnni_only.avx_vnni = true;
  CHECK(infer::levels_supported_by(vnni_only) == Levels{CpuLevel::baseline});

  // Without SAWTAG_CPU the last is taken; a level beside the CPU's is refused, not run.
  CHECK(infer::choose_cpu_level("", hybrid) == CpuLevel::avxvnni);
  CHECK_THROWS_WITH(infer::choose_cpu_level("avx512", hybrid),
                    Catch::Contains("SAWTAG_CPU=avx512: this CPU cannot run it (it can run: "
                                    "baseline, avx2, avxvnni)"));
  CHECK_THROWS_WITH(infer::choose_cpu_level("avxvnni", infer::levels_supported_by(zen4)),
                    Catch::Contains("SAWTAG_CPU=avxvnni: this CPU cannot run it"));
  CHECK_THROWS_WITH(infer::choose_cpu_level("vnni", hybrid),
                    Catch::Contains("unknown level (known: baseline, avx2, avxvnni, avx512, "
                                    "avx512vnni, avx512bf16, amx; this CPU: baseline, avx2, "
                                    "avxvnni)"));
  CHECK(infer::supported_cpu_levels() == infer::levels_supported_by(infer::cpu_features()));
}

TEST_CASE("a level this CPU lacks is refused, never run", "[kernels]") {
  CpuLevel lacking = CpuLevel::baseline;
  if (!missing_level(lacking)) return;  // a CPU with every level: nothing to refuse
  CHECK_THROWS_WITH(infer::kernels_for(lacking), Catch::Contains("this CPU cannot run it"));
  const std::string name = infer::cpu_level_name(lacking);
  const testing::RunResult result =
      testing::run_sawtag({"-m", std::string(SAWTAG_TEST_DATA) + "/tiny-model-v1.json"},
                          "I saw a saw\n", {{"SAWTAG_CPU", name}});
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find("SAWTAG_CPU=" + name + ": this CPU cannot run it") != std::string::npos);
  CHECK(result.err.find('\n') == result.err.size() - 1);  // one line
}

TEST_CASE("every level's linear kernels equal x W + b, the same bits for any rows", "[kernels]") {
  std::mt19937 rng(11);
  // in = 77: odd, and not a multiple of the 32 values a bfloat16 block reads.
  constexpr int kIn = 77, kOut = 130, kRows = 9;
  LinearParameters linear{Tensor({kIn, kOut}), Tensor({kOut})};
  for (Tensor* tensor : {&linear.weight, &linear.bias}) {
    const std::vector<float> values = random_values(rng, tensor->data.size());
    tensor->data.assign(values.begin(), values.end());
  }
  const std::vector<float> x = random_values(rng, static_cast<std::size_t>(kRows) * kIn);
  for (const CpuLevel level : infer::supported_cpu_levels()) {
    const infer::Kernels kernels = infer::kernels_for(level);
    for (const infer::Precision precision :
         {infer::Precision::float32, infer::Precision::reduced}) {
      const bool reduced = precision == infer::Precision::reduced;
      const bool int8 = reduced && kernels.code.linear_int8 != nullptr;
      const bool bfloat16 = reduced && !int8 && kernels.code.linear_bfloat16 != nullptr;
      INFO("level " << infer::cpu_level_name(level)
                    << (int8       ? ", int8"
                        : bfloat16 ? ", bfloat16"
                                   : ", float32"));
      const infer::PackedLinear packed({&linear}, precision, kernels);
      const int stride = packed.stride();
      std::vector<float> all(static_cast<std::size_t>(kRows) * stride);
      packed.apply(x.data(), kIn, kRows, all.data());
      for (int rows = 1; rows < kRows; ++rows) {  // and starting at another row
        std::vector<float> some(static_cast<std::size_t>(rows) * stride);
        packed.apply(x.data() + kIn, kIn, rows, some.data());
        for (std::size_t i = 0; i < some.size(); ++i) REQUIRE(some[i] == all[i + stride]);
      }
      for (int r = 0; r < kRows; ++r) {
        for (int c = 0; c < kOut; ++c) {
          double expected = linear.bias.data[static_cast<std::size_t>(c)];
          double magnitude = 0.0;  // sum |x w|: what bfloat16 rounding errs in proportion to
          double largest_x = 0.0, largest_w = 0.0;  // int8's steps are 1/127 of these
          for (int k = 0; k < kIn; ++k) {
            const double xk = x[static_cast<std::size_t>(r * kIn + k)];
            const double wk = linear.weight.data[static_cast<std::size_t>(k * kOut + c)];
            expected += xk * wk;
            magnitude += std::abs(xk * wk);
            largest_x = std::max(largest_x, std::abs(xk));
            largest_w = std::max(largest_w, std::abs(wk));
          }
          // bfloat16 keeps 8 significant bits: each product is off by at most 2 x 2^-9.
          // int8: x and w each off by at most half a step, so a product by at most
          // |x| dw + |w| dx + dx dw, summed over k.
          const double dx = largest_x / 254.0, dw = largest_w / 254.0;
          const double margin = int8       ? kIn * (largest_x * dw + largest_w * dx + dx * dw)
                                : bfloat16 ? magnitude / 256.0
                                           : 1e-5 * (1.0 + magnitude);
          REQUIRE(all[static_cast<std::size_t>(r) * stride + c] == Approx(expected).margin(margin));
        }
        for (int c = kOut; c < stride; ++c) {
          REQUIRE(all[static_cast<std::size_t>(r) * stride + c] == 0.0f);
        }
      }
    }
  }
}

// pack_int8 one column at a time, as its contract says: each column scaled by 127 / its largest
// |value|, rounded to nearest even, four k to a quad (k % 4 the byte); a zero column scale 1.
infer::PackedInt8 pack_int8_reference(const std::vector<float>& weight, int in, int stride) {
  infer::PackedInt8 packed;
  packed.quads.assign(static_cast<std::size_t>((in + 3) / 4) * stride, 0u);
  packed.scales.assign(static_cast<std::size_t>(stride), 1.0f);
  packed.column_sums.assign(static_cast<std::size_t>(stride), 0);
  for (int c = 0; c < stride; ++c) {
    const auto at = [&](int k) { return weight[static_cast<std::size_t>(k) * stride + c]; };
    float largest = 0.0f;
    for (int k = 0; k < in; ++k) largest = std::max(largest, std::abs(at(k)));
    if (largest > 0.0f) packed.scales[static_cast<std::size_t>(c)] = largest / 127.0f;
    const float inverse = largest > 0.0f ? 127.0f / largest : 0.0f;
    for (int k = 0; k < in; ++k) {
      const auto q = static_cast<std::int32_t>(std::nearbyint(at(k) * inverse));
      packed.column_sums[static_cast<std::size_t>(c)] += q;
      packed.quads[static_cast<std::size_t>(k / 4) * stride + c] |=
          static_cast<std::uint32_t>(static_cast<std::uint8_t>(static_cast<std::int8_t>(q)))
          << (8 * (k % 4));
    }
  }
  return packed;
}

TEST_CASE("pack_int8 gives every column's scale, rounded bytes and sum", "[kernels]") {
  std::mt19937 rng(31);
  // in: less than a quad, not a multiple of 4, the shipped models' 256.
  for (const int in : {3, 77, 256}) {
    INFO("in " << in);
    constexpr int kStride = 48;
    std::vector<float> weight = random_values(rng, static_cast<std::size_t>(in) * kStride);
    for (int k = 0; k < in; ++k) weight[static_cast<std::size_t>(k) * kStride + 5] = 0.0f;
    // Column 7: largest 127, so scaled by 1, and halfway values rounded to even: 63.5 -> 64,
    // -2.5 -> -2. Its first quad holds k = 0, 1, 2: 127, -2 (0xfe), 64.
    for (int k = 0; k < in; ++k) {
      weight[static_cast<std::size_t>(k) * kStride + 7] = k % 2 == 0 ? 63.5f : -2.5f;
    }
    weight[7] = 127.0f;
    const infer::PackedInt8 expected = pack_int8_reference(weight, in, kStride);
    const infer::PackedInt8 actual = infer::pack_int8(weight.data(), in, kStride);
    CHECK(actual.scales == expected.scales);
    CHECK(actual.column_sums == expected.column_sums);
    CHECK(actual.quads == expected.quads);
    CHECK(actual.scales[5] == 1.0f);
    CHECK(actual.scales[7] == 1.0f);
    CHECK((actual.quads[7] & 0xffffffu) == 0x40fe7fu);
  }
}

TEST_CASE("avxvnni: int8 products give the reference's bits (and avx512vnni's), float32 avx2's",
          "[kernels][avxvnni]") {
  if (!supports(CpuLevel::avxvnni)) {
    WARN("skipped: this CPU has no AVX-VNNI (or lacks AVX2): " << infer::cpu_model());
    return;
  }
  const infer::Kernels avxvnni = infer::kernels_for(CpuLevel::avxvnni);
  REQUIRE(avxvnni.code.linear_int8 != nullptr);
  const bool compare_avx512vnni = supports(CpuLevel::avx512vnni);
  if (!compare_avx512vnni) WARN("avx512vnni not compared: this CPU has no AVX512_VNNI");
  std::mt19937 rng(29);
  // in: less than a quad, not a multiple of 64, the shipped models' 256 and 512.
  for (const int in : {3, 77, 256, 512}) {
    constexpr int kRows = 37, kStride = 128;  // rows: whole and partial tiles of 5 and 8
    std::vector<float> weight = random_values(rng, static_cast<std::size_t>(in) * kStride);
    for (int k = 0; k < in; ++k) weight[static_cast<std::size_t>(k) * kStride + 5] = 0.0f;
    const std::vector<float> bias = random_values(rng, kStride);
    std::vector<float> x = random_values(rng, static_cast<std::size_t>(kRows) * in);
    for (int k = 0; k < in; ++k) x[static_cast<std::size_t>(in + k)] = 0.0f;  // an all-zero row
    x[static_cast<std::size_t>(2 * in)] = 40.0f;  // one large value: the rest round to 0, +-1
    x[static_cast<std::size_t>(3 * in + in / 2)] = std::numeric_limits<float>::quiet_NaN();
    const infer::PackedInt8 packed = infer::pack_int8(weight.data(), in, kStride);
    const std::vector<float> expected = int8_reference(x, kRows, in, packed, bias, kStride);
    for (int rows = 1; rows <= kRows; rows += 6) {
      INFO("in " << in << ", rows " << rows);
      infer::LinearCall call;
      call.x = x.data();
      call.x_stride = in;
      call.rows = rows;
      call.in = in;
      call.bias = bias.data();
      call.stride = kStride;
      std::vector<float> y(static_cast<std::size_t>(rows) * kStride);
      call.y = y.data();
      std::vector<std::uint8_t> scratch(infer::int8_scratch_size(rows, in));
      avxvnni.code.linear_int8(call, packed.view(), scratch.data());
      std::vector<float> y_512(y.size());
      if (compare_avx512vnni) {
        call.y = y_512.data();
        infer::kernels_for(CpuLevel::avx512vnni)
            .code.linear_int8(call, packed.view(), scratch.data());
      }
      for (std::size_t i = 0; i < y.size(); ++i) {
        INFO("row " << i / kStride << ", column " << i % kStride);
        if (std::isnan(expected[i])) {  // the NaN row
          REQUIRE(std::isnan(y[i]));
          if (compare_avx512vnni) REQUIRE(std::isnan(y_512[i]));
          continue;
        }
        REQUIRE(y[i] == expected[i]);
        if (compare_avx512vnni) REQUIRE(y_512[i] == expected[i]);
      }
    }
  }

  // Float32: the avx2 level's kernel, so the same bits.
  const LinearParameters linear = random_linear(rng, 77, 100);
  const std::vector<float> x = random_values(rng, 9 * 77);
  const infer::Kernels avx2 = infer::kernels_for(CpuLevel::avx2);  // PackedLinear keeps a pointer
  const infer::PackedLinear on_avx2({&linear}, infer::Precision::float32, avx2);
  const infer::PackedLinear on_avxvnni({&linear}, infer::Precision::float32, avxvnni);
  std::vector<float> y_avx2(static_cast<std::size_t>(9) * on_avx2.stride());
  std::vector<float> y_avxvnni(y_avx2.size());
  on_avx2.apply(x.data(), 77, 9, y_avx2.data());
  on_avxvnni.apply(x.data(), 77, 9, y_avxvnni.data());
  CHECK(y_avxvnni == y_avx2);
}

TEST_CASE("every level's layer norm, GELU and softmax equal their definitions", "[kernels]") {
  std::mt19937 rng(5);
  constexpr int kDim = 37, kStride = 48, kRows = 3;
  const std::vector<float> x = random_values(rng, static_cast<std::size_t>(kRows) * kStride);
  const std::vector<float> gamma = random_values(rng, kDim), beta = random_values(rng, kDim);
  constexpr int kN = 21, kPadded = 32, kReach = 3;
  const std::vector<float> scores = random_values(rng, static_cast<std::size_t>(kN) * kPadded);
  const std::vector<float> bias = random_values(rng, 2 * kReach + 1);
  for (const CpuLevel level : infer::supported_cpu_levels()) {
    INFO("level " << infer::cpu_level_name(level));
    const infer::Kernels kernels = infer::kernels_for(level);

    std::vector<float> normed(x.size(), 7.0f);
    infer::LayerNormCall norm;
    norm.x = x.data();
    norm.out = normed.data();
    norm.rows = kRows;
    norm.dim = kDim;
    norm.stride = kStride;
    norm.gamma = gamma.data();
    norm.beta = beta.data();
    norm.epsilon = 1e-5f;
    kernels.code.layer_norm(norm);
    for (int r = 0; r < kRows; ++r) {
      const float* row = x.data() + r * kStride;
      double mean = 0, variance = 0;
      for (int c = 0; c < kDim; ++c) mean += row[c] / static_cast<double>(kDim);
      for (int c = 0; c < kDim; ++c) variance += (row[c] - mean) * (row[c] - mean) / kDim;
      for (int c = 0; c < kDim; ++c) {
        const double expected = (row[c] - mean) / std::sqrt(variance + 1e-5) * gamma[c] + beta[c];
        REQUIRE(normed[static_cast<std::size_t>(r * kStride + c)] == Approx(expected).margin(1e-5));
      }
      REQUIRE(normed[static_cast<std::size_t>(r * kStride + kDim)] == 7.0f);  // past dim: kept
    }

    std::vector<float> activated = x;
    for (float& value : activated) value *= 5.0f;  // also beyond erf's clamp at 4
    const std::vector<float> inputs = activated;
    kernels.code.gelu(activated.data(), kStride, kRows, kDim);
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kStride; ++c) {
        const std::size_t i = static_cast<std::size_t>(r * kStride + c);
        const double z = inputs[i];
        const double expected = c < kDim ? 0.5 * z * (1.0 + std::erf(z / std::sqrt(2.0))) : z;
        REQUIRE(activated[i] == Approx(expected).margin(2e-6));
      }
    }

    for (const bool with_bias : {false, true}) {
      std::vector<float> weights = scores;
      infer::SoftmaxCall softmax;
      softmax.scores = weights.data();
      softmax.n = kN;
      softmax.padded = kPadded;
      softmax.rows = kN;
      softmax.scale = 3.0f;
      softmax.bias = with_bias ? bias.data() : nullptr;
      softmax.reach = kReach;
      kernels.code.attention_weights(softmax);
      for (int i = 0; i < kN; ++i) {
        std::vector<double> logits(kN);
        double largest = -1e30, sum = 0;
        for (int j = 0; j < kN; ++j) {
          const int offset = std::min(std::max(j - i, -kReach), kReach) + kReach;
          logits[j] = 3.0 * scores[static_cast<std::size_t>(i * kPadded + j)] +
                      (with_bias ? bias[static_cast<std::size_t>(offset)] : 0.0);
          largest = std::max(largest, logits[j]);
        }
        for (int j = 0; j < kN; ++j) sum += std::exp(logits[j] - largest);
        for (int j = 0; j < kPadded; ++j) {
          const double expected = j < kN ? std::exp(logits[j] - largest) / sum : 0.0;
          REQUIRE(weights[static_cast<std::size_t>(i * kPadded + j)] ==
                  Approx(expected).margin(1e-6));
        }
      }
    }
  }
}

// A hostile model can make scores NaN or infinite; the kernels stay defined (under UBSan, the
// softmax once converted a NaN to int) and say so in their output instead of hiding it.
TEST_CASE("every level's softmax is defined for NaN and infinite scores", "[kernels]") {
  constexpr int kN = 19, kPadded = 32;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> scores(static_cast<std::size_t>(kN) * kPadded, 0.0f);
  for (int j = 0; j < kN; ++j) {
    scores[static_cast<std::size_t>(0 * kPadded + j)] = 0.25f * static_cast<float>(j % 5);
    scores[static_cast<std::size_t>(1 * kPadded + j)] = j == 17 ? nan : 1.0f;  // NaN late
    scores[static_cast<std::size_t>(2 * kPadded + j)] = j == 0 ? nan : 1.0f;   // NaN first
    scores[static_cast<std::size_t>(3 * kPadded + j)] = j == 5 ? inf : 1.0f;
    scores[static_cast<std::size_t>(4 * kPadded + j)] = j % 2 == 0 ? -inf : 2.0f;
  }
  for (const CpuLevel level : infer::supported_cpu_levels()) {
    INFO("level " << infer::cpu_level_name(level));
    std::vector<float> weights = scores;
    infer::SoftmaxCall softmax;
    softmax.scores = weights.data();
    softmax.n = kN;
    softmax.padded = kPadded;
    softmax.rows = kN;
    softmax.scale = 1.0f;
    infer::kernels_for(level).code.attention_weights(softmax);
    const auto weight = [&](int row, int column) {
      return weights[static_cast<std::size_t>(row * kPadded + column)];
    };
    double sum = 0;
    for (int j = 0; j < kN; ++j) sum += std::exp(0.25 * (j % 5));
    for (int j = 0; j < kN; ++j) {
      REQUIRE(weight(0, j) == Approx(std::exp(0.25 * (j % 5)) / sum).margin(1e-6));
      REQUIRE(std::isnan(weight(1, j)));  // one NaN score: the whole row is NaN
      REQUIRE(std::isnan(weight(2, j)));
      REQUIRE(std::isnan(weight(3, j)));                                         // inf - inf
      REQUIRE(weight(4, j) == Approx(j % 2 == 0 ? 0.0 : 1.0 / 9).margin(1e-6));  // -inf: 0
    }
    for (int row = 0; row < 5; ++row) {
      for (int j = kN; j < kPadded; ++j) REQUIRE(weight(row, j) == 0.0f);
    }
  }
}

// InferenceNetwork's last layer computes the attention of the query rows whose logits are
// wanted alone (a long sentence's window owns only some of its words): under 64 words, where
// these kernels run, each row must come out with the bits it has when all n rows run.
TEST_CASE("every level's attention gives a query row its bits whichever rows run with it",
          "[kernels]") {
  std::mt19937 rng(31);
  constexpr int kReach = 3;
  const std::vector<float> bias = random_values(rng, 2 * kReach + 1);
  for (const CpuLevel level : infer::supported_cpu_levels()) {
    const infer::LevelKernels& code = infer::kernels_for(level).code;
    // head_dim 16 and 32 take weighted_values' rows four at a time, 4 one at a time.
    for (const int head_dim : {4, 16, 32}) {
      for (const int n : {1, 6, 19, 63}) {
        INFO("level " << infer::cpu_level_name(level) << ", head_dim " << head_dim << ", n " << n);
        const int padded = (n + 15) / 16 * 16;
        const int query_stride = head_dim + 3;
        const std::vector<float> queries =
            random_values(rng, static_cast<std::size_t>(n) * query_stride);
        std::vector<float> keys_t = random_values(rng, static_cast<std::size_t>(head_dim) * padded);
        for (int c = 0; c < head_dim; ++c) {
          std::fill_n(keys_t.begin() + c * padded + n, padded - n, 0.0f);
        }
        const std::vector<float> values =
            random_values(rng, static_cast<std::size_t>(n) * head_dim);
        // Query rows [first, last) -> their attention weights [rows, padded] and outputs
        // [rows, head_dim].
        const auto attend = [&](int first, int last, std::vector<float>& weights,
                                std::vector<float>& outputs) {
          weights.assign(static_cast<std::size_t>(last - first) * padded, 0.0f);
          outputs.assign(static_cast<std::size_t>(last - first) * head_dim, 0.0f);
          infer::HeadCall call;
          call.queries = queries.data() + first * query_stride;
          call.query_stride = query_stride;
          call.rows = last - first;
          call.keys_t = keys_t.data();
          call.values = values.data();
          call.n = n;
          call.padded = padded;
          call.head_dim = head_dim;
          call.scores = weights.data();
          call.output = outputs.data();
          call.output_stride = head_dim;
          code.head_scores(call);
          infer::SoftmaxCall softmax;
          softmax.scores = weights.data();
          softmax.n = n;
          softmax.padded = padded;
          softmax.first_row = first;
          softmax.rows = last - first;
          softmax.scale = 0.5f;
          softmax.bias = bias.data();
          softmax.reach = kReach;
          code.attention_weights(softmax);
          code.weighted_values(call);
        };
        std::vector<float> all_weights, all_outputs;
        attend(0, n, all_weights, all_outputs);
        const std::vector<std::pair<int, int>> ranges = {
            {0, 1}, {n - 1, n}, {1, n}, {n / 3, n - n / 4}, {n / 2, n / 2 + 5}, {3, 12}};
        for (const auto& [first, last] : ranges) {
          if (first < 0 || last > n || first >= last) continue;
          INFO("rows " << first << " to " << last);
          std::vector<float> weights, outputs;
          attend(first, last, weights, outputs);
          for (int r = first; r < last; ++r) {
            const auto row = static_cast<std::size_t>(r - first);
            for (int j = 0; j < padded; ++j) {
              REQUIRE(weights[row * padded + j] ==
                      all_weights[static_cast<std::size_t>(r) * padded + j]);
            }
            for (int c = 0; c < head_dim; ++c) {
              REQUIRE(outputs[row * head_dim + c] ==
                      all_outputs[static_cast<std::size_t>(r) * head_dim + c]);
            }
          }
        }
      }
    }
  }
}
