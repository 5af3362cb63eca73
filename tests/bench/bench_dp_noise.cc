// Cost of the exact DP noise (privacy/discrete_gaussian.h): one discrete
// Gaussian sample at sigma 1 and at the sigmas the docs' audit rows use
// (34.5, 64.8, 245: what the removed --dp-epsilon 8, 4 and 1 added for
// L = 50, delta 1e-5), against a floating-point std::normal_distribution
// draw (not private; the baseline) in the same run, and the final-count
// noise (no DP guarantee, privacy/final_count_noise.h) of a whole K = 10 x
// V = 6,579 model (the bundled corpus in sentence windows). Randomness: crypto::SeededRng
// (ChaCha20), as the
// audit's shadows use; `pplda train` uses libsodium's CSPRNG.
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "crypto/random/secure_rng_testing.h"
#include "lda/lda_model.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/final_count_noise.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {
namespace {

// sigma^2 for L = 50, delta = 1e-5 at the nominal epsilon of the
// benchmark's argument (0 = sigma 1).
mpq_class Variance(int64_t epsilon) {
  if (epsilon == 0) return mpq_class(1);
  return DiscreteGaussianVariance(50, static_cast<double>(epsilon), 1e-5).value();
}

void BM_DiscreteGaussianSample(benchmark::State& state) {
  const DiscreteGaussian g = DiscreteGaussian::Create(Variance(state.range(0))).value();
  crypto::SeededRng rng(1);
  for (auto _ : state) benchmark::DoNotOptimize(g.Sample(rng));
  state.counters["sigma"] = g.sigma();
}
BENCHMARK(BM_DiscreteGaussianSample)->Arg(0)->Arg(8)->Arg(4)->Arg(1);

void BM_FloatingGaussianBaseline(benchmark::State& state) {
  std::mt19937_64 gen(1);
  std::normal_distribution<double> normal(0, 34.5);
  for (auto _ : state) benchmark::DoNotOptimize(normal(gen));
}
BENCHMARK(BM_FloatingGaussianBaseline);

void BM_NoiseWholeModel(benchmark::State& state) {
  lda::LdaModel model;
  for (int t = 0; t < 6579; ++t) model.vocabulary.Add("w" + std::to_string(t));
  model.num_topics = 10;
  const FinalCountNoiseOptions options{
      *NominalSigmaForEpsilon(50, static_cast<double>(state.range(0)), 1e-5)};
  crypto::SeededRng rng(2);
  for (auto _ : state) {
    model.topic_term_counts.assign(10 * 6579, 10);
    benchmark::DoNotOptimize(AddFinalCountNoise(options, rng, &model));
  }
  state.counters["cells"] = 10 * 6579;
}
BENCHMARK(BM_NoiseWholeModel)->Arg(8)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace pplda::privacy

BENCHMARK_MAIN();
