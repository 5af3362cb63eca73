// The AVX-512 IFMA kernel against GMP's mpz_powm: random and edge inputs at
// every supported modulus size, lane counts 1..8, per-lane exponents, and
// the rejected inputs. Kernel cases are skipped (GTEST_SKIP, with the
// reason) on a CPU without AVX-512 IFMA; the context tests and the refusal
// test (ScopedHideAvx512Ifma) run everywhere.
#include "crypto/ifma/ifma_modexp.h"

#include <string>
#include <vector>

#include "crypto/arith/big_int.h"
#include "crypto/arith/cpu_features.h"
#include "crypto/arith/cpu_features_testing.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/modexp_test_util.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::IsOk;
using ::pplda::crypto::testing::StatusIs;

#define SKIP_WITHOUT_IFMA()                                                        \
  if (!CpuHasAvx512Ifma()) {                                                       \
    GTEST_SKIP() << "this CPU lacks AVX-512 IFMA: the kernel cannot run here; the " \
                    "portable path is tested in batch_modexp_test";                \
  }

using ::pplda::crypto::testing::Powm;
using ::pplda::crypto::testing::RandomOddModulus;

// Runs the kernel on bases with one exponent and compares every lane.
void ExpectMatchesGmp(const IfmaMontgomeryContext& ctx, const std::vector<mpz_class>& bases,
                      const mpz_class& e, const std::string& what) {
  std::vector<mpz_class> out(bases.size());
  ASSERT_THAT(IfmaModExp(ctx, bases, e, absl::MakeSpan(out)), IsOk()) << what;
  for (size_t k = 0; k < bases.size(); ++k) {
    EXPECT_EQ(out[k], Powm(bases[k], e, ctx.modulus()))
        << what << ", lane " << k << ", modulus bits " << BitLength(ctx.modulus());
  }
}

// Moduli of the four Paillier sizes (N^2 for N = 1024, 1536, 2048, 3072)
// plus the largest modulus each limb count serves (52 L - 2 bits), which
// has the least headroom for the almost-Montgomery bound R >= 4m.
std::vector<size_t> ModulusBits() { return {2048, 3072, 4096, 6144, 2078, 3118, 4158, 1025}; }

TEST(IfmaMontgomeryContextTest, SupportsOddModuliOf1025To6144Bits) {
  SeededRng rng(1);
  EXPECT_TRUE(IfmaMontgomeryContext::SupportsModulus(RandomOddModulus(rng, 1025)));
  EXPECT_TRUE(IfmaMontgomeryContext::SupportsModulus(RandomOddModulus(rng, 6144)));
  EXPECT_FALSE(IfmaMontgomeryContext::SupportsModulus(RandomOddModulus(rng, 1024)));
  EXPECT_FALSE(IfmaMontgomeryContext::SupportsModulus(RandomOddModulus(rng, 6145)));
  EXPECT_FALSE(IfmaMontgomeryContext::SupportsModulus(RandomOddModulus(rng, 4096) + 1));
  EXPECT_FALSE(IfmaMontgomeryContext::SupportsModulus(mpz_class(-7)));
}

TEST(IfmaMontgomeryContextTest, PicksTheSmallestLimbCountWithTwoBitsOfHeadroom) {
  SeededRng rng(2);
  const std::pair<size_t, int> cases[] = {{1025, 40}, {2078, 40}, {2079, 60}, {3118, 60},
                                          {3119, 80}, {4096, 80}, {4158, 80}, {4159, 120},
                                          {6144, 120}};
  for (const auto& [bits, limbs] : cases) {
    ASSERT_OK_AND_ASSIGN(IfmaMontgomeryContext ctx,
                         IfmaMontgomeryContext::Create(RandomOddModulus(rng, bits)));
    EXPECT_EQ(ctx.limbs(), limbs) << bits << " bits";
    // k0 m = -1 mod 2^52.
    const uint64_t m0 = mpz_getlimbn(ctx.modulus().get_mpz_t(), 0);
    EXPECT_EQ((ctx.k0() * m0 + 1) & ((uint64_t{1} << 52) - 1), 0u) << bits << " bits";
  }
}

TEST(IfmaMontgomeryContextTest, RejectsEvenAndOutOfRangeModuli) {
  SeededRng rng(3);
  EXPECT_THAT(IfmaMontgomeryContext::Create(RandomOddModulus(rng, 4096) - 1),
              StatusIs(absl::StatusCode::kInvalidArgument, "4096 bits is even"));
  EXPECT_THAT(IfmaMontgomeryContext::Create(RandomOddModulus(rng, 1024)),
              StatusIs(absl::StatusCode::kInvalidArgument, "modulus of 1024 bits"));
  EXPECT_THAT(IfmaMontgomeryContext::Create(RandomOddModulus(rng, 8192)),
              StatusIs(absl::StatusCode::kInvalidArgument, "odd modulus of 1025 to 6144 bits"));
}

TEST(IfmaWindowBitsTest, GrowsWithTheExponentUpToFive) {
  EXPECT_EQ(IfmaWindowBits(0), 1);
  EXPECT_EQ(IfmaWindowBits(1), 1);
  EXPECT_EQ(IfmaWindowBits(64), 3);
  EXPECT_EQ(IfmaWindowBits(4093), 5);
  EXPECT_EQ(IfmaWindowBits(12289), 5);
}

TEST(IfmaModExpTest, RandomInputsMatchGmpAtEverySize) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(4);
  for (size_t bits : ModulusBits()) {
    const mpz_class m = RandomOddModulus(rng, bits);
    ASSERT_OK_AND_ASSIGN(IfmaMontgomeryContext ctx, IfmaMontgomeryContext::Create(m));
    std::vector<mpz_class> bases;
    for (int k = 0; k < 8; ++k) bases.push_back(rng.UniformBelow(m));
    ExpectMatchesGmp(ctx, bases, rng.RandomBits(bits), "random exponent");
    ExpectMatchesGmp(ctx, bases, rng.RandomBits(64), "64-bit exponent");
  }
}

TEST(IfmaModExpTest, PaillierModuliMatchGmp) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(5);
  for (size_t n_bits : {1024, 2048, 3072}) {
    ASSERT_OK_AND_ASSIGN(const auto primes, TestSafePrimes(n_bits));
    const mpz_class n = primes.first * primes.second;
    const mpz_class n2 = n * n;
    ASSERT_OK_AND_ASSIGN(IfmaMontgomeryContext ctx, IfmaMontgomeryContext::Create(n2));
    std::vector<mpz_class> bases;
    for (int k = 0; k < 8; ++k) bases.push_back(rng.UniformUnit(n2));
    // A partial decryption exponent's length: 2 Delta s_i ~ bits(N^2) + 4.
    ExpectMatchesGmp(ctx, bases, rng.RandomBits(2 * n_bits + 4), "partial-decryption-sized");
    ExpectMatchesGmp(ctx, bases, n, "exponent N (textbook randomiser)");
  }
}

TEST(IfmaModExpTest, EdgeBasesAndExponentsMatchGmp) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(6);
  for (size_t bits : {2048, 3072, 4096, 6144, 2078, 4158}) {
    const mpz_class m = RandomOddModulus(rng, bits);
    ASSERT_OK_AND_ASSIGN(IfmaMontgomeryContext ctx, IfmaMontgomeryContext::Create(m));
    // Bases >= m and negative bases are reduced mod m first, as mpz_powm does.
    const std::vector<mpz_class> bases = {0, 1, m - 1, m, m + 5, 3 * m + 2, -2, 2};
    const mpz_class all_ones = (mpz_class(1) << (2 * bits + 64)) - 1;
    for (const mpz_class& e : {mpz_class(0), mpz_class(1), mpz_class(2), mpz_class(31),
                               mpz_class(32), m, all_ones}) {
      ExpectMatchesGmp(ctx, bases, e, "edge exponent " + std::to_string(BitLength(e)) + " bits");
    }
  }
}

TEST(IfmaModExpTest, EveryLaneCountFromOneToEight) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(7);
  const mpz_class m = RandomOddModulus(rng, 4096);
  ASSERT_OK_AND_ASSIGN(IfmaMontgomeryContext ctx, IfmaMontgomeryContext::Create(m));
  const mpz_class e = rng.RandomBits(300);
  for (size_t count = 1; count <= 8; ++count) {
    std::vector<mpz_class> bases;
    for (size_t k = 0; k < count; ++k) bases.push_back(rng.UniformBelow(m));
    ExpectMatchesGmp(ctx, bases, e, std::to_string(count) + " lanes");
  }
}

TEST(IfmaModExpTest, PerLaneExponentsOfDifferentLengthsMatchGmp) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(8);
  for (size_t bits : ModulusBits()) {
    const mpz_class m = RandomOddModulus(rng, bits);
    ASSERT_OK_AND_ASSIGN(IfmaMontgomeryContext ctx, IfmaMontgomeryContext::Create(m));
    std::vector<mpz_class> bases, exps = {0, 1, rng.RandomBits(5), rng.RandomBits(64),
                                          rng.RandomBits(bits), m - 1, rng.RandomBits(bits / 2),
                                          (mpz_class(1) << (2 * bits)) - 1};
    for (int k = 0; k < 8; ++k) bases.push_back(rng.UniformBelow(m));
    std::vector<mpz_class> out(8);
    ASSERT_THAT(IfmaModExpPerLane(ctx, bases, exps, absl::MakeSpan(out)), IsOk());
    for (size_t k = 0; k < 8; ++k) {
      EXPECT_EQ(out[k], Powm(bases[k], exps[k], m)) << bits << " bits, lane " << k;
    }
    // Fewer lanes, all exponents zero: every result is 1.
    std::vector<mpz_class> zeros(3, 0), out3(3);
    ASSERT_THAT(IfmaModExpPerLane(ctx, absl::MakeConstSpan(bases).subspan(0, 3), zeros,
                                  absl::MakeSpan(out3)),
                IsOk());
    for (const mpz_class& v : out3) EXPECT_EQ(v, 1);
  }
}

TEST(IfmaModExpTest, OutputsMayAliasTheBases) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(9);
  const mpz_class m = RandomOddModulus(rng, 2048);
  ASSERT_OK_AND_ASSIGN(IfmaMontgomeryContext ctx, IfmaMontgomeryContext::Create(m));
  std::vector<mpz_class> values;
  for (int k = 0; k < 5; ++k) values.push_back(rng.UniformBelow(m));
  const std::vector<mpz_class> expected_in = values;
  const mpz_class e = rng.RandomBits(100);
  ASSERT_THAT(IfmaModExp(ctx, values, e, absl::MakeSpan(values)), IsOk());
  for (size_t k = 0; k < values.size(); ++k) EXPECT_EQ(values[k], Powm(expected_in[k], e, m));
}

TEST(IfmaModExpTest, RejectsBadLaneCountsAndNegativeExponents) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(10);
  const mpz_class m = RandomOddModulus(rng, 2048);
  ASSERT_OK_AND_ASSIGN(IfmaMontgomeryContext ctx, IfmaMontgomeryContext::Create(m));
  std::vector<mpz_class> nine(9, 3), out9(9), two(2, 3), out1(1), out2(2);
  EXPECT_THAT(IfmaModExp(ctx, nine, 5, absl::MakeSpan(out9)),
              StatusIs(absl::StatusCode::kInvalidArgument, "9 bases given, expected 1 to 8"));
  EXPECT_THAT(IfmaModExp(ctx, {}, 5, {}),
              StatusIs(absl::StatusCode::kInvalidArgument, "0 bases given"));
  EXPECT_THAT(IfmaModExp(ctx, two, 5, absl::MakeSpan(out1)),
              StatusIs(absl::StatusCode::kInvalidArgument, "2 bases but 1 outputs"));
  const std::vector<mpz_class> one_exp = {5};
  EXPECT_THAT(IfmaModExpPerLane(ctx, two, one_exp, absl::MakeSpan(out2)),
              StatusIs(absl::StatusCode::kInvalidArgument, "2 bases but 1 exponents"));
  const std::vector<mpz_class> negative = {5, -1};
  EXPECT_THAT(IfmaModExpPerLane(ctx, two, negative, absl::MakeSpan(out2)),
              StatusIs(absl::StatusCode::kInvalidArgument, "exponent of lane 1 is negative"));
}

// On a CPU without the extension the kernel refuses instead of executing an
// illegal instruction (simulated here, so the path runs on every machine).
TEST(IfmaModExpTest, RefusesWithoutIfma) {
  ScopedHideAvx512Ifma no_ifma;
  SeededRng rng(41);
  auto ctx = IfmaMontgomeryContext::Create(RandomOddModulus(rng, 2048));
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  std::vector<mpz_class> bases(8, 3), out(8);
  EXPECT_THAT(IfmaModExp(*ctx, bases, mpz_class(5), absl::MakeSpan(out)),
              StatusIs(absl::StatusCode::kFailedPrecondition, "does not support AVX-512F"));
}

}  // namespace
}  // namespace pplda::crypto
