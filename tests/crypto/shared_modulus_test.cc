#include "crypto/keygen/shared_modulus.h"

#include <chrono>
#include <cstdio>
#include <mutex>

#include "base/status_macros.h"
#include "crypto/keygen/big_field_mpc.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

// Runs the generation with 3 parties in one process; the test harness (and
// only it) adds the shares up to check p and q.
struct Generated {
  mpz_class n, p, q;
  SharedModulusStats stats;
  uint64_t rounds = 0;
  uint64_t bytes_party0 = 0;
};

Generated Generate(int bits, uint64_t seed, int pairs_per_batch = 0) {
  auto bed = MpcTestbed::Create(3, 1, seed).value();
  SharedModulusOptions options;
  options.modulus_bits = bits;
  options.pairs_per_batch = pairs_per_batch;
  std::mutex mu;
  Generated g;
  std::vector<mpz_class> ns(3);
  const absl::Status s = bed->Run([&](MpcEngine& engine) -> absl::Status {
    absl::StatusOr<SharedModulus> m = GenerateSharedModulus(options, engine);
    if (!m.ok()) return m.status();
    std::lock_guard<std::mutex> lock(mu);
    ns[engine.party_id()] = m->n;
    g.p += m->p_share.value();
    g.q += m->q_share.value();
    if (engine.party_id() == 0) {
      g.stats = m->stats;
      g.rounds = engine.rounds();
    }
    return absl::OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s;
  EXPECT_EQ(ns[0], ns[1]);
  EXPECT_EQ(ns[1], ns[2]);
  g.n = ns[0];
  g.bytes_party0 = bed->network().Stats().parties[0].bytes_sent;
  return g;
}

void ExpectBiprimeOfSize(const Generated& g, int bits) {
  EXPECT_EQ(BitLength(g.n), static_cast<size_t>(bits));
  EXPECT_EQ(g.p * g.q, g.n);
  EXPECT_NE(g.p, g.q);
  EXPECT_GT(mpz_probab_prime_p(g.p.get_mpz_t(), 40), 0) << "p is not prime";
  EXPECT_GT(mpz_probab_prime_p(g.q.get_mpz_t(), 40), 0) << "q is not prime";
  EXPECT_EQ(BitLength(g.p), static_cast<size_t>(bits / 2));
  EXPECT_EQ(BitLength(g.q), static_cast<size_t>(bits / 2));
  EXPECT_EQ(mpz_fdiv_ui(g.p.get_mpz_t(), 4), 3u);
  EXPECT_EQ(mpz_fdiv_ui(g.q.get_mpz_t(), 4), 3u);
  for (unsigned l = 3; l < 1u << 16; l += 2) {
    ASSERT_NE(mpz_fdiv_ui(g.n.get_mpz_t(), l), 0u) << "N has the small factor " << l;
  }
}

TEST(SharedModulusTest, ThreePartiesMakeA512BitBiprime) {
  const Generated g = Generate(512, 1);
  ExpectBiprimeOfSize(g, 512);
  EXPECT_GE(g.stats.candidate_pairs, 1);
  EXPECT_GE(g.stats.biprimality_tests, 1);
}

TEST(SharedModulusTest, DifferentSeedsGiveDifferentModuli) {
  const Generated a = Generate(256, 2), b = Generate(256, 3);
  ExpectBiprimeOfSize(a, 256);
  ExpectBiprimeOfSize(b, 256);
  EXPECT_NE(a.n, b.n);
}

void GenerateAndReport(int bits, uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  const Generated g = Generate(bits, seed);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ExpectBiprimeOfSize(g, bits);
  std::printf("%d-bit N: %.1f s, %lld candidate pairs, %lld tests, %d batches, %llu rounds, "
              "%.1f MB sent by party 0\n",
              bits, seconds, static_cast<long long>(g.stats.candidate_pairs),
              static_cast<long long>(g.stats.biprimality_tests), g.stats.batches,
              static_cast<unsigned long long>(g.rounds), g.bytes_party0 / 1e6);
}

TEST(SharedModulusTest, ThreePartiesMakeA1024BitBiprime) { GenerateAndReport(1024, 4); }


TEST(SharedModulusTest, SievePlanKeepsTheSizesApart) {
  for (int bits : {256, 1024, 2048}) {
    SharedModulusOptions o;
    o.modulus_bits = bits;
    const ModulusSievePlan plan = PlanModulusSieve(o, 3).value();
    const int half = bits / 2;
    // n bits(M) + 66 <= half; p = A + M (O + R) stays in [3 2^(half-2), 2^half).
    EXPECT_LE(3 * static_cast<int>(BitLength(plan.sieve_modulus)) + 66, half) << bits;
    EXPECT_EQ(mpz_fdiv_ui(plan.sieve_modulus.get_mpz_t(), 4), 0u);
    const mpz_class m = plan.sieve_modulus;
    const mpz_class lowest = m * plan.offset;
    const mpz_class highest = m * m * m + m * (plan.offset + plan.r_sum_bound);
    EXPECT_GE(lowest, mpz_class(3) << (half - 2)) << bits;
    EXPECT_LT(highest, mpz_class(1) << half) << bits;
    EXPECT_GT(BitLength(plan.r_sum_bound), 64u) << bits;
    EXPECT_GT(mpz_probab_prime_p(plan.field_prime.get_mpz_t(), 30), 0);
    EXPECT_GE(plan.pairs_per_batch, 64);
  }
}

TEST(SharedModulusTest, BiprimalityTestSeparatesBiprimesFromOthers) {
  SeededRng rng(11);
  auto split = [&](const mpz_class& x, std::vector<mpz_class>& shares) {
    // party 0 = x (mod 4), the others = 0 (mod 4), as the generation's shares
    shares = {0, mpz_class(rng.RandomBits(100) << 2), mpz_class(-(rng.RandomBits(90) << 2))};
    shares[0] = x - shares[1] - shares[2];
  };
  auto passes = [&](const mpz_class& p, const mpz_class& q, int rounds) {
    const mpz_class n = p * q;
    std::vector<mpz_class> ps, qs;
    split(p, ps);
    split(q, qs);
    for (int j = 0; j < rounds; ++j) {
      const mpz_class g = BiprimalityBase(n, j);
      EXPECT_EQ(mpz_jacobi(g.get_mpz_t(), n.get_mpz_t()), 1);
      std::vector<mpz_class> values;
      for (int i = 0; i < 3; ++i) values.push_back(BiprimalityValue(i, n, g, ps[i], qs[i]));
      if (!BiprimalityValuesAgree(n, values)) return false;
    }
    return true;
  };
  // Primes = 3 mod 4 pass every base.
  const mpz_class p("170141183460469231731687303715884105727");  // 2^127 - 1
  mpz_class q;
  mpz_class start = mpz_class(1) << 126;
  do {
    mpz_nextprime(q.get_mpz_t(), start.get_mpz_t());
    start = q;
  } while (mpz_fdiv_ui(q.get_mpz_t(), 4) != 3);
  EXPECT_TRUE(passes(p, q, 40));
  // A composite factor (3 mod 4, no small factor) fails within 40 bases
  // (each base catches it with probability >= 1/2: false pass <= 2^-40).
  mpz_class r, s;
  mpz_class from = mpz_class(1) << 63;
  mpz_nextprime(r.get_mpz_t(), from.get_mpz_t());
  mpz_nextprime(s.get_mpz_t(), r.get_mpz_t());
  mpz_class composite = r * s;
  while (mpz_fdiv_ui(composite.get_mpz_t(), 4) != 3) {
    mpz_nextprime(s.get_mpz_t(), s.get_mpz_t());
    composite = r * s;
  }
  EXPECT_FALSE(passes(composite, q, 40));
}

TEST(SharedModulusTest, OptionsOutOfRangeAreRefused) {
  auto bed = MpcTestbed::Create(3, 1, 5).value();
  for (int bits : {128, 255, 257, 10000}) {
    SharedModulusOptions o;
    o.modulus_bits = bits;
    const absl::Status s = GenerateSharedModulus(o, bed->engine(0)).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bits;
    EXPECT_THAT(s.message(), HasSubstr("modulus_bits")) << bits;
  }
  SharedModulusOptions o;
  o.modulus_bits = 512;
  o.biprimality_rounds = 0;
  EXPECT_EQ(GenerateSharedModulus(o, bed->engine(0)).status().code(),
            absl::StatusCode::kInvalidArgument);
  o.biprimality_rounds = 40;
  o.sigma = 10;
  EXPECT_EQ(GenerateSharedModulus(o, bed->engine(0)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SharedModulusTest, TooFewBatchesIsResourceExhausted) {
  auto bed = MpcTestbed::Create(3, 1, 6).value();
  SharedModulusOptions o;
  o.modulus_bits = 1024;
  o.pairs_per_batch = 1;
  o.max_batches = 1;
  std::vector<absl::Status> results(3);
  (void)bed->Run([&](MpcEngine& engine) {
    results[engine.party_id()] = GenerateSharedModulus(o, engine).status();
    return absl::OkStatus();
  });
  // One pair is a biprime with probability about 1/800 at this size; the
  // seed is fixed and this one is not.
  for (const absl::Status& s : results) {
    EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
    EXPECT_THAT(s.message(), HasSubstr("max_batches"));
  }
}

TEST(BigFieldMpcTest, MulAndOpenAgreeWithIntegers) {
  auto bed = MpcTestbed::Create(3, 1, 7).value();
  mpz_class prime;
  mpz_class start = mpz_class(1) << 300;
  mpz_nextprime(prime.get_mpz_t(), start.get_mpz_t());
  const BigFieldShamir scheme = BigFieldShamir::Create(3, 1, prime).value();
  std::vector<std::vector<mpz_class>> opened(3);
  ASSERT_TRUE(bed->Run([&](MpcEngine& engine) -> absl::Status {
                  BigFieldMpc mpc(scheme, engine);
                  const mpz_class mine = mpz_class(1000 + engine.party_id()) << 100;
                  ASSIGN_OR_RETURN(auto dealt, mpc.Deal({mine, -mine}, {1, 2}));
                  // x = sum of the three dealt values, y = their product.
                  mpz_class x = 0;
                  for (int d = 0; d < 3; ++d) x += dealt[d][0];
                  ASSIGN_OR_RETURN(auto xy, mpc.Mul({dealt[0][0], x}, {dealt[1][0], x}));
                  ASSIGN_OR_RETURN(auto xyz, mpc.Mul({xy[0]}, {dealt[2][0]}));
                  ASSIGN_OR_RETURN(auto out, mpc.Open({xyz[0], xy[1], scheme.Reduce(x)}, 1));
                  ASSIGN_OR_RETURN(auto negative, mpc.Open({dealt[1][1]}, 2));
                  out.push_back(negative[0]);
                  opened[engine.party_id()] = out;
                  return absl::OkStatus();
                }).ok());
  const mpz_class a = mpz_class(1000) << 100, b = mpz_class(1001) << 100,
                  c = mpz_class(1002) << 100;
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(opened[p][0], a * b * c % prime);
    EXPECT_EQ(opened[p][1], (a + b + c) * (a + b + c) % prime);
    EXPECT_EQ(opened[p][2], a + b + c);
    EXPECT_EQ(opened[p][3], prime - b);  // -b reduced
  }
}

TEST(BigFieldMpcTest, KnownPublicPrimesArePrimesOfTheirSize) {
  for (int bits : {1720, 2232, 3256, 4280}) {
    const mpz_class& p = BigFieldShamir::PublicPrime(bits);
    EXPECT_GT(mpz_probab_prime_p(p.get_mpz_t(), 30), 0) << bits;
    EXPECT_EQ(BitLength(p), static_cast<size_t>(bits));
  }
  // A size without a known delta is searched for: the first prime above 2^299.
  const mpz_class& searched = BigFieldShamir::PublicPrime(300);
  mpz_class expected, start = mpz_class(1) << 299;
  mpz_nextprime(expected.get_mpz_t(), start.get_mpz_t());
  EXPECT_EQ(searched, expected);
}

TEST(BigFieldMpcTest, InconsistentSharesAreRefused) {
  mpz_class prime;
  mpz_class start = mpz_class(1) << 100;
  mpz_nextprime(prime.get_mpz_t(), start.get_mpz_t());
  const BigFieldShamir scheme = BigFieldShamir::Create(3, 1, prime).value();
  SeededRng rng(3);
  std::vector<mpz_class> shares = scheme.Share(mpz_class(42), 1, rng);
  EXPECT_TRUE(scheme.Consistent(shares, 1));
  EXPECT_EQ(scheme.Reconstruct(shares, 1), 42);
  shares[2] += 1;
  EXPECT_FALSE(scheme.Consistent(shares, 1));
  EXPECT_FALSE(BigFieldShamir::Create(3, 1, mpz_class(91)).ok());  // 7 * 13
  EXPECT_FALSE(BigFieldShamir::Create(3, 2, prime).ok());          // 2t >= n
}

}  // namespace
}  // namespace pplda::crypto
