// Benchmark of the whole secure LDA protocol (simulation/local_consortium.h)
// at the reference paper's scale: 3 parties, the deterministic SOTU slice of
// tests/protocol/protocol_test_util.h (50 sentence windows per era party,
// default preprocessing with min_df = 1, each window capped at 20 tokens:
// 150 documents, 3,000 tokens), K = 5, 1024- and 2048-bit fixed test keys.
// Case arguments: modulus bits / K / documents per party (100 doubles the
// tokens) / verify (1: proofs of correct decryption in every conversion,
// verified by every party) / draw (protocol::DrawMethod: 1 binary search, 2
// inverse CDF) / bits_by_squares (crypto::MpcConfig::SharedRandomness: 0
// auto = random bits by the XOR of dealt bits, 1 = by pseudo-random squares). Each case runs
// `kIterations` secure iterations once (set-up,
// initial encryption and publication are outside the per-iteration figure).
//
// Counters: s_per_iteration; phase seconds per iteration (party 0:
// selection, exchange, conversion, weights, draw, update; coordinator fold);
// partial_decryptions and mpc_rounds per iteration; MB sent per party per
// iteration (busiest party, MPC traffic); powm_ms = one mpz_powm mod N^2
// with a 2|N| + 64-bit exponent measured in the same run; and
// exp_bound_ratio = s_per_iteration / (partial decryptions per iteration x
// powm): the distance from the exponentiation bound with GMP's rate;
// modexp_active_ms and exp_bound_ratio_active: the same with one
// exponentiation on the path partial decryptions take (the IFMA kernel
// when the CPU has it, crypto/modexp/batch_modexp.h); net_<link>_s: the
// network cost model (network_cost_model.h) for the iteration's rounds and
// the busiest party's bytes.
// Run: build-<dir>/tests/bench/bench_secure_lda --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <gmpxx.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "crypto/modexp/batch_modexp.h"
#include "crypto/paillier/paillier_testing.h"
#include "simulation/local_consortium.h"
#include "tests/bench/network_cost_model.h"
#include "tests/bench/powm_baseline.h"
#include "tests/bench/tuned_benchmark_main.h"
#include "tests/protocol/protocol_test_util.h"

namespace pplda {
namespace {

constexpr int kIterations = 2;

// One exponentiation of the same shape on the path the protocol's partial
// decryptions take (BatchModExp: the AVX-512 IFMA kernel when present, else
// GMP), one thread, constant time as for key shares: the per-exponentiation
// cost of a batch of 64.
double ActivePathModExpSeconds(const crypto::DealtKey& key) {
  const mpz_class& n2 = key.public_key->paillier().n_squared();
  const crypto::ModExpContext ctx(n2);
  crypto::SeededRng rng(98);
  std::vector<mpz_class> bases(64), out(64);
  for (mpz_class& b : bases) b = rng.UniformBelow(n2);
  const mpz_class e = rng.RandomBits(2 * key.public_key->paillier().modulus_bits() + 64);
  auto start = std::chrono::steady_clock::now();
  if (!crypto::BatchModExp(ctx, bases, e, absl::MakeSpan(out), nullptr, true).ok()) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
         static_cast<double>(bases.size());
}

void BM_SecureLda(benchmark::State& state) {
  const size_t bits = static_cast<size_t>(state.range(0));
  const int K = static_cast<int>(state.range(1));
  const int docs = static_cast<int>(state.range(2));
  const bool verify = state.range(3) != 0;
  const protocol::DrawMethod draw = static_cast<protocol::DrawMethod>(state.range(4));
  const auto randomness = static_cast<crypto::MpcConfig::SharedRandomness>(state.range(5));
  auto slice = protocol_testing::SotuSlice(docs, 20, 0);
  auto key = crypto::MakeTestKey(bits, crypto::SharingScheme::kShamir, 3, 2, 5);
  if (!slice.ok() || !key.ok()) {
    state.SkipWithError("set-up failed");
    return;
  }
  simulation::LocalConsortiumOptions options;
  options.lda.num_topics = K;
  options.lda.verify_conversion = verify;
  options.lda.draw_method = draw;
  options.shared_randomness = randomness;
  options.iterations = kIterations;
  options.threads = 0;
  simulation::LocalConsortiumResult result;
  for (auto _ : state) {
    auto r = simulation::RunLocalConsortium(
        protocol_testing::SplitParties(slice->train, slice->docs_per_party),
        slice->train.vocabulary, *key, protocol_testing::SeededRngs(3), options);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return;
    }
    result = *std::move(r);
  }
  const simulation::ConsortiumStats& s = result.stats;
  const double it = kIterations;
  const double per_it = s.iteration_seconds / it;
  const double pdec = static_cast<double>(s.partial_decryptions_per_iteration);
  const double powm = bench::PowmSeconds(*key);
  state.counters["tokens"] = static_cast<double>(slice->train.num_tokens());
  state.counters["V"] = slice->train.vocabulary.size();
  state.counters["s_per_iteration"] = per_it;
  state.counters["selection"] = s.phases.selection / it;
  state.counters["exchange"] = s.phases.exchange / it;
  state.counters["conversion"] = s.phases.conversion / it;
  state.counters["weights"] = s.phases.weights / it;
  state.counters["draw"] = s.phases.draw / it;
  state.counters["update"] = s.phases.update / it;
  state.counters["fold"] = s.aggregation_seconds / it;
  state.counters["partial_decryptions"] = pdec;
  state.counters["mpc_rounds"] = static_cast<double>(s.iteration_rounds) / it;
  const double bytes_per_it =
      static_cast<double>(*std::max_element(s.bytes_sent.begin(), s.bytes_sent.end())) / it;
  state.counters["MB_per_party"] = bytes_per_it / 1e6;
  bench::ReportNetworkModel(state, static_cast<double>(s.iteration_rounds) / it, bytes_per_it);
  state.counters["powm_ms"] = powm * 1e3;
  state.counters["exp_bound_ratio"] = per_it / (pdec * powm);
  const double active = ActivePathModExpSeconds(*key);
  state.counters["modexp_active_ms"] = active * 1e3;
  state.counters["exp_bound_ratio_active"] = active > 0 ? per_it / (pdec * active) : 0;
}

constexpr int64_t kBinary = static_cast<int64_t>(protocol::DrawMethod::kBinarySearch);
constexpr int64_t kInverseCdf = static_cast<int64_t>(protocol::DrawMethod::kInverseCdf);
constexpr int64_t kAuto = static_cast<int64_t>(crypto::MpcConfig::SharedRandomness::kAuto);
constexpr int64_t kSquares =
    static_cast<int64_t>(crypto::MpcConfig::SharedRandomness::kPseudoRandom);

BENCHMARK(BM_SecureLda)
    ->ArgNames({"bits", "K", "docs", "verify", "draw", "bits_by_squares"})
    ->Args({1024, 5, 50, 0, kBinary, kAuto})
    ->Args({2048, 5, 50, 0, kBinary, kAuto})
    ->Args({1024, 10, 50, 0, kBinary, kAuto})
    ->Args({1024, 5, 100, 0, kBinary, kAuto})
    ->Args({1024, 5, 50, 1, kBinary, kAuto})
    ->Args({2048, 5, 50, 1, kBinary, kAuto})
    ->Args({1024, 5, 50, 0, kInverseCdf, kAuto})
    ->Args({2048, 5, 50, 0, kInverseCdf, kAuto})
    ->Args({1024, 5, 50, 0, kBinary, kSquares})
    ->Args({1024, 5, 50, 0, kInverseCdf, kSquares})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace
}  // namespace pplda

int main(int argc, char** argv) { return pplda::TunedBenchmarkMain(argc, argv); }
