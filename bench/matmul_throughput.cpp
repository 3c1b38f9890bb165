// Prints this machine's single-core matrix-multiply throughput and a model's FLOPs per word,
// for bench/tag_speed.sh:
//   sawtag_matmul_bench MODEL [AVERAGE_SENTENCE_LENGTH]
// Figures in GFLOP/s on one thread, each for [2048 x 256] x [256 x 768], the shape of the
// encoder's query/key/value product: Eigen's float32 GEMM (a well-tuned reference, compiled
// for this build's flags), then, for each CPU level this machine supports (infer/kernels.hpp),
// sawtag's float32 kernel and its reduced-precision kernel (bfloat16 or int8) where the level
// has one ("level NAME FLOAT32 REDUCED", 0 for none). The figures of the level the tagger runs come
// last again.
#include <Eigen/Core>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "infer/kernels.hpp"
#include "infer/packed_linear.hpp"
#include "sawtag/model.hpp"

using namespace sawtag;

namespace {

constexpr int kRows = 2048, kIn = 256, kOut = 768;
constexpr double kFlops = 2.0 * kRows * kIn * kOut;

template <class Run>
double best_gflops(Run run) {
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    const auto start = std::chrono::steady_clock::now();
    constexpr int kRepeats = 20;
    for (int r = 0; r < kRepeats; ++r) run();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, kRepeats * kFlops / seconds / 1e9);
  }
  return best;
}

double packed_gflops(infer::Precision precision, const infer::Kernels& kernels,
                     const LinearParameters& linear, const std::vector<float>& x) {
  const infer::PackedLinear packed({&linear}, precision, kernels);
  std::vector<float> y(static_cast<std::size_t>(kRows) * packed.stride());
  return best_gflops([&] { packed.apply(x.data(), kIn, kRows, y.data()); });
}

// Multiply-adds x 2 per word: the encoder layers at sentence length n, then the tag heads.
double flops_per_word(const ModelConfig& config, double n) {
  const double d = config.d_model, ff = config.d_ff;
  const double layer = 2 * (3 * d * d + d * d + 2 * d * ff + 2 * n * d);
  return config.num_layers * layer + 2 * d * (config.num_upos + config.num_xpos);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL [AVERAGE_SENTENCE_LENGTH]\n", argv[0]);
    return 2;
  }
  const double sentence_length = argc > 2 ? std::atof(argv[2]) : 17.0;
  std::mt19937 random(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  LinearParameters linear{Tensor({kIn, kOut}), Tensor({kOut})};
  for (float& value : linear.weight.data) value = uniform(random);
  std::vector<float> x(static_cast<std::size_t>(kRows) * kIn);
  for (float& value : x) value = uniform(random);

  Eigen::setNbThreads(1);
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Matrix a = Matrix::Random(kRows, kIn), b = Matrix::Random(kIn, kOut);
  Matrix c(kRows, kOut);
  const double eigen = best_gflops([&] { c.noalias() = a * b; });
  const Model model = load_model(argv[1], Int8WordTable::keep);  // for its config
  std::printf("eigen_float32_gflops %.1f\n", eigen);
  double float32 = 0, fastest = 0;
  for (const infer::CpuLevel level : infer::supported_cpu_levels()) {
    const infer::Kernels kernels = infer::kernels_for(level);
    float32 = packed_gflops(infer::Precision::float32, kernels, linear, x);
    const bool has_reduced =
        kernels.code.linear_bfloat16 != nullptr || kernels.code.linear_int8 != nullptr;
    const double reduced =
        has_reduced ? packed_gflops(infer::Precision::reduced, kernels, linear, x) : 0.0;
    std::printf("level %s %.1f %.1f\n", infer::cpu_level_name(level), float32, reduced);
    if (level == infer::kernels().level) fastest = std::max(float32, reduced);
  }
  std::printf("sawtag_fastest_gflops %.1f\n", fastest);
  std::printf("fastest_kernel %s\n", infer::kernels().description);
  std::printf("flops_per_word %.0f\n", flops_per_word(model.config, sentence_length));
  return 0;
}
