// Benchmarks of the Shamir MPC engine over the in-process simulated network
// (n parties on n threads, one process): multiplications, comparisons,
// reciprocals and the secure weighted draw of secure LDA.
//
// Counters (per iteration): rounds; bytes_per_item_party = the largest
// number of payload bytes any one party sent, divided by the batch size;
// bytes_per_item_total = all parties' bytes divided by the batch size;
// net_<link>_s: the network cost model (network_cost_model.h) of the whole
// batch's rounds and the busiest party's bytes.
// Inputs are shared by the seeded test dealer outside the timed region.
// Run: build-<dir>/tests/bench/bench_mpc --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "base/status_macros.h"
#include "crypto/conversion/share_conversion.h"
#include "crypto/mpc/cnf_ring.h"
#include "crypto/mpc/comparison.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/mpc/reciprocal.h"
#include "crypto/mpc/replicated_ring.h"
#include "crypto/paillier/paillier_testing.h"
#include "protocol/secure_draw.h"
#include "tests/bench/network_cost_model.h"
#include "tests/bench/tuned_benchmark_main.h"

namespace pplda::crypto {
namespace {

// The engines have agreed their pseudo-random sharing keys (one round per
// engine lifetime), so counted rounds are those of the measured operation.
std::unique_ptr<MpcTestbed> MakeBed(int n, uint64_t seed) {
  int t = (n - 1) / 2;
  auto bed = MpcTestbed::Create(n, t, seed).value();
  if (!bed->Run([](MpcEngine& e) { return e.Random(1).status(); }).ok()) return nullptr;
  return bed;
}

void ReportTraffic(benchmark::State& state, MpcTestbed& bed, double items) {
  const NetworkStats stats = bed.network().Stats();
  state.counters["rounds"] = static_cast<double>(stats.rounds);
  state.counters["bytes_per_item_party"] = static_cast<double>(stats.max_bytes_sent()) / items;
  state.counters["bytes_per_item_total"] = static_cast<double>(stats.total_bytes()) / items;
  bench::ReportNetworkModel(state, static_cast<double>(stats.rounds),
                            static_cast<double>(stats.max_bytes_sent()));
}

void RunOrFail(benchmark::State& state, MpcTestbed& bed,
               const std::function<absl::Status(MpcEngine&)>& fn) {
  absl::Status status = bed.Run(fn);
  if (!status.ok()) state.SkipWithError(std::string(status.message()).c_str());
}

// Runs fn at every party once per benchmark iteration (traffic counters
// reset each time) and reports items per second and the traffic per item.
void TimeBatch(benchmark::State& state, MpcTestbed& bed, size_t batch,
               const std::function<absl::Status(MpcEngine&)>& fn) {
  for (auto _ : state) {
    bed.network().ResetStats();
    RunOrFail(state, bed, fn);
  }
  state.SetItemsProcessed(state.iterations() * batch);
  ReportTraffic(state, bed, batch);
}

// Args: parties, batch size.
void BM_Multiplication(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const size_t batch = state.range(1);
  auto bed = MakeBed(n, 1);
  SeededRng rng(2);
  auto a = bed->Share(RandomFieldVector(rng, batch));
  auto b = bed->Share(RandomFieldVector(rng, batch));
  TimeBatch(state, *bed, batch,
            [&](MpcEngine& e) { return e.Mul(a[e.party_id()], b[e.party_id()]).status(); });
}
BENCHMARK(BM_Multiplication)
    ->ArgNames({"parties", "batch"})
    ->Args({3, 100000})
    ->Args({5, 100000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Args: bits, batch size; 3 parties. Masks are generated inside the timed
// region (the comparison's full cost).
void BM_LessThan(benchmark::State& state) {
  const int bits = static_cast<int>(state.range(0));
  const size_t batch = state.range(1);
  auto bed = MakeBed(3, 3);
  SeededRng rng(4);
  auto a = bed->Share(RandomBoundedVector(rng, batch, bits));
  auto b = bed->Share(RandomBoundedVector(rng, batch, bits));
  TimeBatch(state, *bed, batch, [&](MpcEngine& e) {
    return LessThan(e, a[e.party_id()], b[e.party_id()], bits).status();
  });
}
BENCHMARK(BM_LessThan)
    ->ArgNames({"bits", "batch"})
    ->Args({32, 10000})
    ->Args({64, 10000})
    ->Args({82, 10000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// [a < b] with replicated sharing (replicated_ring.h) from the same field
// shares as BM_LessThan: both operands to the ring in one round, then the
// sign of a - b on bits + 1 bits. The result is a boolean sharing (what the
// draw opens to the token's owner), not a field sharing.
// Args: bits, batch size; 3 parties.
void BM_ReplicatedLessThan(benchmark::State& state) {
  const int bits = static_cast<int>(state.range(0));
  const size_t batch = state.range(1);
  auto bed = MakeBed(3, 3);
  SeededRng rng(4);
  auto a = bed->Share(RandomBoundedVector(rng, batch, bits));
  auto b = bed->Share(RandomBoundedVector(rng, batch, bits));
  TimeBatch(state, *bed, batch, [&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(ReplicatedRing ring, ReplicatedRing::Create(e));
    Shares both = a[e.party_id()];
    both.Append(b[e.party_id()]);
    ASSIGN_OR_RETURN(RingShares r, ring.FromField(both, bits));
    RingShares diff;
    for (size_t i = 0; i < batch; ++i) {
      diff.own.push_back(r.own[i] - r.own[batch + i]);
      diff.next.push_back(r.next[i] - r.next[batch + i]);
    }
    return ring.LessThanZero(diff, bits + 1).status();
  });
}
BENCHMARK(BM_ReplicatedLessThan)
    ->ArgNames({"bits", "batch"})
    ->Args({32, 10000})
    ->Args({64, 10000})
    ->Args({82, 10000})
    ->Args({64, 100000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The same with CNF replicated sharing (cnf_ring.h) for any odd committee:
// what the draw of a committee of five uses where Shamir sharing needs the
// full-range comparison (BM_LessThanFullRange/parties:5 is the baseline).
// Args: parties, bits, batch size.
void BM_CnfLessThan(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int bits = static_cast<int>(state.range(1));
  const size_t batch = state.range(2);
  auto bed = MakeBed(n, 9);
  SeededRng rng(10);
  auto a = bed->Share(RandomBoundedVector(rng, batch, bits));
  auto b = bed->Share(RandomBoundedVector(rng, batch, bits));
  TimeBatch(state, *bed, batch, [&](MpcEngine& e) -> absl::Status {
    ASSIGN_OR_RETURN(CnfRing ring, CnfRing::Create(e));
    Shares both = a[e.party_id()];
    both.Append(b[e.party_id()]);
    ASSIGN_OR_RETURN(CnfShares r, ring.FromField(both, bits));
    CnfShares diff;
    for (const std::vector<uint128>& part : r.parts) {
      std::vector<uint128> d(batch);
      for (size_t i = 0; i < batch; ++i) d[i] = part[i] - part[batch + i];
      diff.parts.push_back(std::move(d));
    }
    return ring.LessThanZero(diff, bits + 1).status();
  });
}
BENCHMARK(BM_CnfLessThan)
    ->ArgNames({"parties", "bits", "batch"})
    ->Args({3, 64, 10000})
    ->Args({5, 64, 10000})
    ->Args({5, 103, 10000})
    ->Args({7, 64, 10000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Equal(benchmark::State& state) {
  const int bits = static_cast<int>(state.range(0));
  const size_t batch = state.range(1);
  auto bed = MakeBed(3, 5);
  SeededRng rng(6);
  auto a = bed->Share(RandomBoundedVector(rng, batch, bits));
  auto b = bed->Share(RandomBoundedVector(rng, batch, bits));
  TimeBatch(state, *bed, batch, [&](MpcEngine& e) {
    return Equal(e, a[e.party_id()], b[e.party_id()], bits).status();
  });
}
BENCHMARK(BM_Equal)
    ->ArgNames({"bits", "batch"})
    ->Args({32, 10000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Args: batch size, parties.
void BM_LessThanFullRange(benchmark::State& state) {
  const size_t batch = state.range(0);
  auto bed = MakeBed(static_cast<int>(state.range(1)), 7);
  SeededRng rng(8);
  auto a = bed->Share(RandomBoundedVector(rng, batch, 125));
  auto b = bed->Share(RandomBoundedVector(rng, batch, 125));
  TimeBatch(state, *bed, batch, [&](MpcEngine& e) {
    return LessThanFullRange(e, a[e.party_id()], b[e.party_id()]).status();
  });
}
BENCHMARK(BM_LessThanFullRange)
    ->ArgNames({"batch", "parties"})
    ->Args({10000, 3})
    ->Args({10000, 5})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Args: input bits k, batch (e.g. 2K normalisers per iteration).
void BM_Reciprocal(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  const size_t batch = state.range(1);
  auto bed = MakeBed(3, 9);
  SeededRng rng(10);
  FieldVector x = RandomBoundedVector(rng, batch, k);
  for (FieldElement& v : x) v += FieldElement::One() * FieldElement::FromUint64(v.IsZero());
  auto shares = bed->Share(x);
  TimeBatch(state, *bed, batch,
            [&](MpcEngine& e) { return Reciprocal(e, shares[e.party_id()], k, k + 40).status(); });
}
BENCHMARK(BM_Reciprocal)
    ->ArgNames({"k", "batch"})
    ->Args({40, 40})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Args: K, tokens, method (protocol::DrawMethod: 0 parallel tree, 1 binary search, 2
// inverse CDF), weight bits, comparison (protocol::DrawComparison: 0 auto, which is
// replicated sharing for methods 1 and 2; 1 statistical, 2 full range: the
// field comparisons). Owners rotate over the 3 parties; weights are random
// below 2^(bits-5).
void BM_SecureDraw(benchmark::State& state) {
  const int num_topics = static_cast<int>(state.range(0));
  const size_t tokens = state.range(1);
  const protocol::DrawMethod method = static_cast<protocol::DrawMethod>(state.range(2));
  const int weight_bits = static_cast<int>(state.range(3));
  auto bed = MakeBed(3, 11);
  SeededRng rng(12);
  auto weights = bed->Share(RandomBoundedVector(rng, tokens * num_topics, weight_bits - 5));
  std::vector<int> owners(tokens);
  for (size_t tau = 0; tau < tokens; ++tau) owners[tau] = static_cast<int>(tau % 3);
  const auto comparison = static_cast<protocol::DrawComparison>(state.range(4));
  const protocol::SecureDrawOptions options{num_topics, weight_bits, method, comparison};
  TimeBatch(state, *bed, tokens, [&](MpcEngine& e) {
    return protocol::SecureDraw(e, weights[e.party_id()], owners, options).status();
  });
}
BENCHMARK(BM_SecureDraw)
    ->ArgNames({"K", "tokens", "method", "wbits", "cmp"})
    ->Args({5, 3000, 0, 32, 0})
    ->Args({20, 3000, 0, 32, 0})
    ->Args({5, 3000, 1, 32, 0})
    ->Args({5, 3000, 1, 32, 1})
    ->Args({20, 3000, 1, 32, 0})
    ->Args({20, 3000, 1, 32, 1})
    ->Args({20, 3000, 1, 64, 0})
    ->Args({5, 3000, 2, 32, 0})
    ->Args({5, 3000, 2, 32, 1})
    ->Args({20, 3000, 2, 32, 0})
    ->Args({5, 3000, 1, 60, 0})
    ->Args({5, 3000, 1, 60, 2})
    ->Args({5, 3000, 2, 60, 0})
    ->Args({5, 3000, 2, 60, 2})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Args: modulus bits, values. Ciphertext-to-share conversion of `values`
// packed slot values (30-bit values, 3 mask parties) at 3 parties: each
// party encrypts its packed masks, partially decrypts every masked
// ciphertext and combines all of them (no thread pool: one core per party).
void BM_ShareConversion(benchmark::State& state) {
  const size_t modulus_bits = state.range(0);
  const size_t values = state.range(1);
  auto dealt = MakeTestKey(modulus_bits, SharingScheme::kShamir, 3, 2, 13).value();
  PackingOptions options;
  options.value_bits = 30;
  options.mask_parties = 3;
  auto layout = PackingLayout::Create(options, dealt.public_key->paillier()).value();
  SeededRng rng(14);
  auto encryptor = PaillierEncryptor::Create(dealt.public_key->paillier(), rng).value();
  std::vector<int64_t> plain(values);
  for (size_t i = 0; i < values; ++i) plain[i] = static_cast<int64_t>(rng.UniformUint64(1 << 30));
  const auto cts = encryptor->EncryptBatch(layout.Pack(plain).value(), nullptr).value();
  std::vector<CiphertextToShares> converters;
  for (int p = 0; p < 3; ++p) {
    converters.push_back(CiphertextToShares::Create(dealt.shares[p], layout, *encryptor).value());
  }
  auto bed = MakeBed(3, 15);
  for (auto _ : state) {
    bed->network().ResetStats();
    RunOrFail(state, *bed, [&](MpcEngine& e) {
      return converters[e.party_id()].Convert(e, cts, values).status();
    });
  }
  state.SetItemsProcessed(state.iterations() * values);
  state.counters["ciphertexts"] = static_cast<double>(cts.size());
  state.counters["slots"] = static_cast<double>(layout.slots());
  ReportTraffic(state, *bed, values);
}
BENCHMARK(BM_ShareConversion)
    ->ArgNames({"modulus", "values"})
    ->Args({2048, 3000})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace pplda::crypto

int main(int argc, char** argv) { return pplda::TunedBenchmarkMain(argc, argv); }
