// bench_paillier: threshold Paillier costs at 1024, 2048 and 3072 bits, each
// reported as a ratio to a plain GMP mpz_powm measured in the same run.
//
// Cases (modulus size in the name, e.g. BM_PartialDecrypt/2048):
//   BM_PowmBaseline      mpz_powm mod N^2, exponent as long as 2 Delta s_i
//                        (the baseline: what a share holder must at least do)
//   BM_PowmSecBaseline   the same with constant-time mpz_powm_sec
//   BM_PartialDecrypt    c^(2 Delta s_i) mod N^2 incl. ciphertext validation
//   BM_PartialDecryptWithProof / BM_VerifyProof   Shoup proof, prove / verify
//   BM_Combine           2-of-3 combination of one ciphertext
//   BM_FullRandomiser    r^N mod N^2, r in Z*_N: the textbook randomiser
//   BM_EncryptClassic    textbook encryption (full r^N, no table)
//   BM_EncryptDjnPowm    DJN short exponent, mpz_powm, no table
//   BM_EncryptTable      DJN short exponent from the fixed-base table
//   BM_EncryptBatch8Table, BM_EncryptBatch8Ifma   EncryptBatch of 8 values,
//                        one thread: randomisers from the GMP table, and
//                        from the IFMA fixed-base kernel (ifma_fixed_base.h;
//                        skipped without IFMA); the targets block prints
//                        their ratio
//   BM_EncryptPooled     online cost with a stocked randomiser pool
//   BM_Add, BM_MulScalar64, BM_Pack, BM_Unpack
//   BM_PartialDecryptBatch/<bits>/threads:<k>   1000 partial decryptions
//                        on a ThreadPool of k threads (real time)
//   BM_PairedPartialDecrypt, BM_PairedEncryptTable   the two single-thread
//                        targets measured pairwise: each iteration times the
//                        baseline and the operation back to back (thread CPU
//                        clock, order alternating) and the counter "ratio" is
//                        sum(operation) / sum(baseline), which cancels drift
//                        in machine load between separate cases.
//   BM_DecryptPaths/<bits>  1000 partial decryptions on ONE thread on the
//                        portable GMP path and with the AVX-512 IFMA 8-lane
//                        kernel (same ciphertexts, same share, results
//                        compared; 10 slices of 100, each on both paths back
//                        to back), thread CPU time; counters gmp_per_s,
//                        ifma_per_s and speedup. Sizes 1024, 1536, 2048, 3072;
//                        there is no 1536-bit key (ValidateModulusBits), so at
//                        1536 the same work is done with BatchModExp on
//                        N^2 = (pq)^2 (random 768-bit primes) and an exponent
//                        of 2 bits(N) bits, like 2 Delta s_i. Skipped without
//                        IFMA.
// After the runs a table prints every time and its ratio to BM_PowmBaseline
// of the same size, plus the three targets:
//   partial decryption <= 1.1 x baseline, table encryption <= 0.15 x
//   BM_FullRandomiser, 2-thread batch throughput >= 1.8 x 1 thread.
// Single-threaded cases use CPU time of the benchmark thread (robust to other
// load); batch cases use wall-clock time and need an otherwise idle machine;
// their counter process_cpu_s (CPU seconds of all threads) shows whether the
// 2-thread split adds work, which load on the machine does not distort.
// Keys are dealt from the fixed test primes (crypto/paillier/paillier_testing.h).
#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/cpu_features.h"
#include "crypto/modexp/batch_modexp.h"
#include "crypto/modexp/batch_modexp_testing.h"
#include "crypto/paillier/packing.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_evaluator.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"

namespace pplda::crypto {
namespace {

constexpr size_t kBatchSize = 1000;
const size_t kSizes[] = {1024, 2048, 3072};

struct Setup {
  explicit Setup(size_t bits)
      : rng(bits),
        key(MakeTestKey(bits, SharingScheme::kShamir, 3, 2, bits).value()),
        enc(PaillierEncryptor::Create(key.public_key->paillier(), rng).value()),
        eval(key.public_key->paillier()),
        combiner(key.public_key) {
    const mpz_class& n = key.public_key->n();
    for (size_t i = 0; i < kBatchSize; ++i) {
      batch.push_back(enc->Encrypt(rng.UniformBelow(n)).value());
    }
    // The partial decryption exponent 2 Delta s_i of party 1, by size only.
    exponent_bits = BitLength(2 * key.public_key->delta() * key.shares[0].secret_share());
    PackingOptions o;
    o.value_bits = 24;
    o.max_terms = 3;
    o.mask_parties = 3;
    layout = std::make_unique<PackingLayout>(
        PackingLayout::Create(o, key.public_key->paillier()).value());
  }
  SeededRng rng;
  DealtKey key;
  std::unique_ptr<PaillierEncryptor> enc;
  PaillierEvaluator eval;
  PaillierCombiner combiner;
  std::vector<Ciphertext> batch;
  size_t exponent_bits = 0;
  std::unique_ptr<PackingLayout> layout;
};

Setup& GetSetup(size_t bits) {
  static std::map<size_t, std::unique_ptr<Setup>> setups;
  auto& s = setups[bits];
  if (!s) s = std::make_unique<Setup>(bits);
  return *s;
}

void BM_PowmBaseline(benchmark::State& state, size_t bits, bool sec) {
  Setup& s = GetSetup(bits);
  const mpz_class& n2 = s.key.public_key->n_squared();
  const mpz_class base = s.rng.UniformUnit(n2);
  mpz_class e = s.rng.RandomBits(s.exponent_bits);
  mpz_setbit(e.get_mpz_t(), s.exponent_bits - 1);
  mpz_class out;
  for (auto _ : state) {
    if (sec) {
      mpz_powm_sec(out.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(), n2.get_mpz_t());
    } else {
      mpz_powm(out.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(), n2.get_mpz_t());
    }
    benchmark::DoNotOptimize(out.get_mpz_t());
  }
  state.counters["exponent_bits"] = static_cast<double>(s.exponent_bits);
}

void BM_PartialDecrypt(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  size_t i = 0;
  for (auto _ : state) {
    auto v = s.key.shares[0].PartialDecrypt(s.batch[i++ % kBatchSize]);
    benchmark::DoNotOptimize(v);
  }
}

void BM_PartialDecryptWithProof(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  size_t i = 0;
  for (auto _ : state) {
    auto v = s.key.shares[0].PartialDecryptBatchWithProofs(
        absl::MakeConstSpan(&s.batch[i++ % kBatchSize], 1), s.rng, nullptr);
    benchmark::DoNotOptimize(v);
  }
}

void BM_VerifyProof(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const auto one = absl::MakeConstSpan(&s.batch[0], 1);
  const PartialDecryptionBatch proved =
      s.key.shares[0].PartialDecryptBatchWithProofs(one, s.rng, nullptr).value();
  for (auto _ : state) {
    absl::Status st = s.combiner.VerifyBatch(one, proved, nullptr);
    if (!st.ok()) state.SkipWithError("proof did not verify");
  }
}

void BM_Combine(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const std::vector<PartialDecryption> partials = {
      {1, s.key.shares[0].PartialDecrypt(s.batch[0]).value()},
      {3, s.key.shares[2].PartialDecrypt(s.batch[0]).value()}};
  for (auto _ : state) {
    auto m = s.combiner.Combine(partials);
    benchmark::DoNotOptimize(m);
  }
}

void BM_FullRandomiser(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  for (auto _ : state) benchmark::DoNotOptimize(s.enc->ClassicRandomiser());
}

void BM_EncryptClassic(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const mpz_class m = 12345;
  for (auto _ : state) benchmark::DoNotOptimize(s.enc->EncryptClassic(m));
}

void BM_EncryptDjnPowm(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  for (auto _ : state) benchmark::DoNotOptimize(s.enc->PowmRandomiser());
}

void BM_EncryptTable(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const mpz_class m = 12345;
  for (auto _ : state) benchmark::DoNotOptimize(s.enc->Encrypt(m));  // no pool: table
  state.counters["table_MB"] = static_cast<double>(s.enc->table().memory_bytes()) / 1e6;
}

// EncryptBatch of 8 values on one thread (no pool): the unit of the IFMA
// kernel's fixed-base randomisers, against the same batch with the GMP
// table (use_ifma = false) and the same rng.
void BM_EncryptBatch8(benchmark::State& state, size_t bits, bool use_ifma) {
  Setup& s = GetSetup(bits);
  EncryptorOptions o;
  o.use_ifma = use_ifma;
  auto enc = PaillierEncryptor::Create(s.key.public_key->paillier(), s.rng, o).value();
  if (use_ifma && enc->ifma_table() == nullptr) {
    state.SkipWithError("no IFMA kernel on this CPU (or PPLDA_CRYPTO_PORTABLE is set)");
    return;
  }
  const std::vector<mpz_class> m(8, mpz_class(12345));
  for (auto _ : state) benchmark::DoNotOptimize(enc->EncryptBatch(m, nullptr));
}

constexpr int kPooledIterations = 2000;

void BM_EncryptPooled(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  EncryptorOptions o;
  o.pool_capacity = kPooledIterations;
  auto pooled = PaillierEncryptor::Create(s.key.public_key->paillier(), s.rng, o).value();
  const_cast<RandomiserPool*>(pooled->pool())->WaitUntilStocked(kPooledIterations);
  const mpz_class m = 12345;
  for (auto _ : state) benchmark::DoNotOptimize(pooled->Encrypt(m));
  state.counters["computed_inline"] = static_cast<double>(pooled->pool()->computed_inline());
}

void BM_Add(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s.eval.Add(s.batch[i % kBatchSize], s.batch[(i + 1) % kBatchSize]));
    ++i;
  }
}

void BM_MulScalar64(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const mpz_class k("fedcba9876543210", 16);
  for (auto _ : state) benchmark::DoNotOptimize(s.eval.MulScalar(s.batch[0], k));
}

std::vector<int64_t> PackInput(const PackingLayout& layout) {
  std::vector<int64_t> v(layout.slots());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i * 7919 % 16000000) - 8000000;
  return v;
}

void BM_Pack(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const std::vector<int64_t> v = PackInput(*s.layout);
  for (auto _ : state) benchmark::DoNotOptimize(s.layout->Pack(v));
  state.counters["slots"] = static_cast<double>(v.size());
}

void BM_Unpack(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const std::vector<int64_t> v = PackInput(*s.layout);
  const std::vector<mpz_class> packed = s.layout->Pack(v).value();
  for (auto _ : state) benchmark::DoNotOptimize(s.layout->UnpackInt64(packed, v.size()));
  state.counters["slots"] = static_cast<double>(v.size());
}

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double ProcessCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Times baseline() and op() back to back each iteration, alternating order.
template <typename Base, typename Op>
void Paired(benchmark::State& state, Base baseline, Op op) {
  double base_s = 0, op_s = 0;
  bool op_first = false;
  for (auto _ : state) {
    const double t0 = ThreadCpuSeconds();
    op_first ? op() : baseline();
    const double t1 = ThreadCpuSeconds();
    op_first ? baseline() : op();
    const double t2 = ThreadCpuSeconds();
    (op_first ? op_s : base_s) += t1 - t0;
    (op_first ? base_s : op_s) += t2 - t1;
    op_first = !op_first;
  }
  state.counters["ratio"] = base_s > 0 ? op_s / base_s : 0;
}

void BM_PairedPartialDecrypt(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const mpz_class& n2 = s.key.public_key->n_squared();
  const mpz_class base = s.rng.UniformUnit(n2);
  mpz_class e = s.rng.RandomBits(s.exponent_bits);
  mpz_setbit(e.get_mpz_t(), s.exponent_bits - 1);
  mpz_class out;
  size_t i = 0;
  Paired(
      state,
      [&] { mpz_powm(out.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(), n2.get_mpz_t()); },
      [&] { benchmark::DoNotOptimize(s.key.shares[0].PartialDecrypt(s.batch[i++ % kBatchSize])); });
}

void BM_PairedEncryptTable(benchmark::State& state, size_t bits) {
  Setup& s = GetSetup(bits);
  const mpz_class m = 12345;
  Paired(
      state, [&] { benchmark::DoNotOptimize(s.enc->ClassicRandomiser()); },
      [&] { benchmark::DoNotOptimize(s.enc->Encrypt(m)); });
}

void BM_PartialDecryptBatch(benchmark::State& state, size_t bits, int threads) {
  Setup& s = GetSetup(bits);
  ThreadPool pool(threads);
  double cpu_s = 0;
  for (auto _ : state) {
    const double t0 = ProcessCpuSeconds();
    auto b = s.key.shares[0].PartialDecryptBatch(s.batch, &pool);
    benchmark::DoNotOptimize(b);
    cpu_s += ProcessCpuSeconds() - t0;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatchSize));
  // CPU seconds of all threads: equal for 1 and 2 threads means the split
  // adds no work, so on an idle 2-core machine the wall time halves.
  state.counters["process_cpu_s"] = cpu_s / static_cast<double>(state.iterations());
}

const size_t kPathSizes[] = {1024, 1536, 2048, 3072};

// Partial decryptions [begin, begin + count) of BM_DecryptPaths' 1000 at
// `bits`, on the active path.
using PathWork = std::function<std::vector<mpz_class>(size_t begin, size_t count)>;

PathWork DecryptPathsWork(size_t bits) {
  if (bits != 1536) {
    Setup& s = GetSetup(bits);
    return [&s](size_t begin, size_t count) {
      const auto cts = absl::MakeConstSpan(s.batch).subspan(begin, count);
      return s.key.shares[0].PartialDecryptBatch(cts, nullptr).value().values;
    };
  }
  static SeededRng rng(1536);
  auto prime = [&] {
    mpz_class p = rng.RandomBits(768);
    mpz_setbit(p.get_mpz_t(), 767);
    mpz_nextprime(p.get_mpz_t(), p.get_mpz_t());
    return p;
  };
  const mpz_class n = prime() * prime();
  auto ctx = std::make_shared<const ModExpContext>(n * n);
  auto bases = std::make_shared<std::vector<mpz_class>>();
  for (size_t i = 0; i < kBatchSize; ++i) bases->push_back(rng.UniformUnit(ctx->modulus()));
  mpz_class e = rng.RandomBits(2 * bits);
  mpz_setbit(e.get_mpz_t(), 2 * bits - 1);
  return [ctx, bases, e](size_t begin, size_t count) {
    std::vector<mpz_class> out(count);
    const auto b = absl::MakeConstSpan(*bases).subspan(begin, count);
    if (!BatchModExp(*ctx, b, e, absl::MakeSpan(out), nullptr, false).ok()) out.clear();
    return out;
  };
}

// The 1000 decryptions run in 10 slices of 100; each slice is timed on
// both paths back to back, the order alternating, so that load changes on
// the machine affect both paths alike.
constexpr size_t kPathSlices = 10;

void BM_DecryptPaths(benchmark::State& state, size_t bits) {
  if (!CpuHasAvx512Ifma()) {
    state.SkipWithError("this CPU lacks AVX-512 IFMA: no kernel to compare");
    return;
  }
  const PathWork work = DecryptPathsWork(bits);
  const size_t slice = kBatchSize / kPathSlices;
  double seconds[2] = {0, 0};  // GMP, IFMA
  for (auto _ : state) {
    for (size_t k = 0; k < kPathSlices; ++k) {
      std::vector<mpz_class> results[2];
      for (int step = 0; step < 2; ++step) {
        const int which = (step + static_cast<int>(k)) % 2;
        ScopedModExpPath path(which == 0 ? ModExpPath::kPortableGmp : ModExpPath::kIfma);
        const double t0 = ThreadCpuSeconds();
        results[which] = work(k * slice, slice);
        seconds[which] += ThreadCpuSeconds() - t0;
      }
      if (results[0].size() != slice || results[0] != results[1]) {
        state.SkipWithError("the kernel's results differ from GMP's");
        return;
      }
    }
  }
  const double ops = static_cast<double>(state.iterations() * kBatchSize);
  state.counters["gmp_per_s"] = ops / seconds[0];
  state.counters["ifma_per_s"] = ops / seconds[1];
  state.counters["speedup"] = seconds[0] / seconds[1];
}

// Collects per-iteration times (seconds) by run name while printing as usual.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "median") continue;
      const double unit = benchmark::GetTimeUnitMultiplier(r.time_unit);
      const std::string& name = r.run_name.function_name;
      const bool wall = name.find("Batch") != std::string::npos;
      seconds_[name] = (wall ? r.GetAdjustedRealTime() : r.GetAdjustedCPUTime()) / unit;
      auto ratio = r.counters.find("ratio");
      if (ratio != r.counters.end()) paired_[name] = ratio->second.value;
      auto cpu = r.counters.find("process_cpu_s");
      if (cpu != r.counters.end()) process_cpu_[name] = cpu->second.value;
      for (const char* c : {"gmp_per_s", "ifma_per_s", "speedup"}) {
        auto it = r.counters.find(c);
        if (it != r.counters.end()) paths_[name][c] = it->second.value;
      }
    }
  }

  // The kernel-versus-GMP table of BM_DecryptPaths and its target.
  void PrintPaths() const {
    if (paths_.empty()) return;
    std::printf("\n1000 partial decryptions, one thread:\n");
    std::printf("| N | GMP: decryptions/s | IFMA: decryptions/s | speed-up |\n");
    std::printf("|---:|---:|---:|---:|\n");
    for (size_t bits : kPathSizes) {
      auto it = paths_.find("BM_DecryptPaths/" + std::to_string(bits));
      if (it == paths_.end()) continue;
      const auto& c = it->second;
      std::printf("| %zu | %.1f | %.1f | %.2f |\n", bits, c.at("gmp_per_s"), c.at("ifma_per_s"),
                  c.at("speedup"));
    }
    auto it = paths_.find("BM_DecryptPaths/2048");
    if (it != paths_.end()) {
      Target("IFMA / GMP throughput per core", 2048, it->second.at("speedup"), 1, 4.0, false);
    }
  }

  void PrintRatios() const {
    static const char* kCases[] = {
        "BM_PowmBaseline", "BM_PowmSecBaseline", "BM_PartialDecrypt",
        "BM_PartialDecryptWithProof", "BM_VerifyProof", "BM_Combine", "BM_FullRandomiser",
        "BM_EncryptClassic", "BM_EncryptDjnPowm", "BM_EncryptTable", "BM_EncryptBatch8Table",
        "BM_EncryptBatch8Ifma", "BM_EncryptPooled",
        "BM_Add", "BM_MulScalar64", "BM_Pack", "BM_Unpack"};
    std::printf("\n| case | 1024: ms | ratio | 2048: ms | ratio | 3072: ms | ratio |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (const char* c : kCases) {
      std::printf("| %s |", c);
      for (size_t bits : kSizes) {
        const double t = Get(c, bits), base = Get("BM_PowmBaseline", bits);
        if (t > 0 && base > 0) {
          std::printf(" %.4f | %.4f |", t * 1e3, t / base);
        } else if (t > 0) {
          std::printf(" %.4f | - |", t * 1e3);
        } else {
          std::printf(" - | - |");
        }
      }
      std::printf("\n");
    }
    std::printf("\nTargets:\n");
    for (size_t bits : kSizes) {
      const std::string b = "/" + std::to_string(bits);
      Target("partial decryption / mpz_powm (paired)", bits, Paired("BM_PairedPartialDecrypt" + b),
             1, 1.1, true);
      Target("partial decryption / mpz_powm (separate)", bits,
             Get("BM_PartialDecrypt", bits), Get("BM_PowmBaseline", bits), 1.1, true);
      Target("table encryption / full r^N (paired)", bits, Paired("BM_PairedEncryptTable" + b),
             1, 0.15, true);
      Target("table encryption / full r^N (separate)", bits, Get("BM_EncryptTable", bits),
             Get("BM_FullRandomiser", bits), 0.15, true);
      if (Get("BM_EncryptBatch8Ifma", bits) > 0) {
        std::printf("  %4zu bits  %-46s %.2f\n", bits, "8 encryptions: GMP table / IFMA kernel",
                    Get("BM_EncryptBatch8Table", bits) / Get("BM_EncryptBatch8Ifma", bits));
      }
      const std::string batch = "BM_PartialDecryptBatch" + b;
      Target("batch of 1000: 2-thread / 1-thread throughput", bits,
             At(batch + "/threads:1"), At(batch + "/threads:2"), 1.8, false);
      const double cpu1 = Cpu(batch + "/threads:1"), cpu2 = Cpu(batch + "/threads:2");
      if (cpu1 > 0 && cpu2 > 0) {
        std::printf("  %4zu bits  %-46s %.3f  (1.0 = no extra work from the split)\n", bits,
                    "batch of 1000: CPU s 1-thread / 2-thread", cpu1 / cpu2);
      }
    }
  }

 private:
  double At(const std::string& name) const {
    auto it = seconds_.find(name);
    return it == seconds_.end() ? 0 : it->second;
  }
  double Cpu(const std::string& name) const {
    auto it = process_cpu_.find(name);
    return it == process_cpu_.end() ? 0 : it->second;
  }
  double Paired(const std::string& name) const {
    auto it = paired_.find(name);
    return it == paired_.end() ? 0 : it->second;
  }
  double Get(const std::string& c, size_t bits) const {
    return At(c + "/" + std::to_string(bits));
  }
  static void Target(const char* what, size_t bits, double num, double den, double bound,
                     bool at_most) {
    if (num <= 0 || den <= 0) return;
    const double ratio = num / den;
    const bool ok = at_most ? ratio <= bound : ratio >= bound;
    std::printf("  %4zu bits  %-46s %.3f  (target %s %.2f)  %s\n", bits, what, ratio,
                at_most ? "<=" : ">=", bound, ok ? "MET" : "MISSED");
  }

  std::map<std::string, double> seconds_;
  std::map<std::string, double> paired_;
  std::map<std::string, double> process_cpu_;
  std::map<std::string, std::map<std::string, double>> paths_;
};

void RegisterAll() {
  for (size_t bits : kPathSizes) {
    benchmark::RegisterBenchmark(("BM_DecryptPaths/" + std::to_string(bits)).c_str(),
                                 BM_DecryptPaths, bits)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  for (size_t bits : kSizes) {
    const std::string b = "/" + std::to_string(bits);
    benchmark::RegisterBenchmark(("BM_PowmBaseline" + b).c_str(), BM_PowmBaseline, bits, false);
    benchmark::RegisterBenchmark(("BM_PowmSecBaseline" + b).c_str(), BM_PowmBaseline, bits, true);
    benchmark::RegisterBenchmark(("BM_PartialDecrypt" + b).c_str(), BM_PartialDecrypt, bits);
    benchmark::RegisterBenchmark(("BM_PartialDecryptWithProof" + b).c_str(),
                                 BM_PartialDecryptWithProof, bits);
    benchmark::RegisterBenchmark(("BM_VerifyProof" + b).c_str(), BM_VerifyProof, bits);
    benchmark::RegisterBenchmark(("BM_Combine" + b).c_str(), BM_Combine, bits);
    benchmark::RegisterBenchmark(("BM_FullRandomiser" + b).c_str(), BM_FullRandomiser, bits);
    benchmark::RegisterBenchmark(("BM_EncryptClassic" + b).c_str(), BM_EncryptClassic, bits);
    benchmark::RegisterBenchmark(("BM_EncryptDjnPowm" + b).c_str(), BM_EncryptDjnPowm, bits);
    benchmark::RegisterBenchmark(("BM_EncryptTable" + b).c_str(), BM_EncryptTable, bits);
    benchmark::RegisterBenchmark(("BM_EncryptBatch8Table" + b).c_str(), BM_EncryptBatch8, bits,
                                 false);
    benchmark::RegisterBenchmark(("BM_EncryptBatch8Ifma" + b).c_str(), BM_EncryptBatch8, bits,
                                 true);
    benchmark::RegisterBenchmark(("BM_EncryptPooled" + b).c_str(), BM_EncryptPooled, bits)
        ->Iterations(kPooledIterations);
    benchmark::RegisterBenchmark(("BM_PairedPartialDecrypt" + b).c_str(),
                                 BM_PairedPartialDecrypt, bits);
    benchmark::RegisterBenchmark(("BM_PairedEncryptTable" + b).c_str(), BM_PairedEncryptTable,
                                 bits);
    benchmark::RegisterBenchmark(("BM_Add" + b).c_str(), BM_Add, bits);
    benchmark::RegisterBenchmark(("BM_MulScalar64" + b).c_str(), BM_MulScalar64, bits);
    benchmark::RegisterBenchmark(("BM_Pack" + b).c_str(), BM_Pack, bits);
    benchmark::RegisterBenchmark(("BM_Unpack" + b).c_str(), BM_Unpack, bits);
    for (int threads : {1, 2}) {
      benchmark::RegisterBenchmark(
          ("BM_PartialDecryptBatch" + b + "/threads:" + std::to_string(threads)).c_str(),
          BM_PartialDecryptBatch, bits, threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->Iterations(1);
    }
  }
}

}  // namespace
}  // namespace pplda::crypto

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  pplda::crypto::RegisterAll();
  pplda::crypto::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();
  reporter.PrintPaths();
  benchmark::Shutdown();
  return 0;
}
