// BatchModExp against mpz_powm on both paths (forced with ScopedModExpPath):
// every Paillier size, batch sizes 1..9 and 17 (partial groups of 8), one
// exponent or one per element, edge inputs, moduli the kernel does not
// take, the thread pool, constant-time GMP, the dispatch rule, and every
// rejected input. The IFMA cases skip (saying why) on a CPU without it.
#include "crypto/modexp/batch_modexp.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/cpu_features.h"
#include "crypto/arith/cpu_features_testing.h"
#include "crypto/modexp/batch_modexp_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/modexp_test_util.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::IsOk;
using ::pplda::crypto::testing::StatusIs;

using ::pplda::crypto::testing::Powm;
using ::pplda::crypto::testing::RandomOddModulus;

class BatchModExpTest : public ::testing::TestWithParam<ModExpPath> {
 protected:
  void SetUp() override {
    if (GetParam() == ModExpPath::kIfma && !CpuHasAvx512Ifma()) {
      GTEST_SKIP() << "this CPU lacks AVX-512 IFMA: only the portable path can run here";
    }
    path_.emplace(GetParam());
  }

  // Checks out[i] == bases[i]^e_i mod m for every i.
  static void ExpectMatches(const mpz_class& m, const std::vector<mpz_class>& bases,
                            const std::vector<mpz_class>& exps, const std::vector<mpz_class>& out,
                            const std::string& what) {
    ASSERT_EQ(out.size(), bases.size());
    for (size_t i = 0; i < bases.size(); ++i) {
      EXPECT_EQ(out[i], Powm(bases[i], exps[exps.size() == 1 ? 0 : i], m))
          << what << ", element " << i << ", modulus bits " << BitLength(m);
    }
  }

  std::optional<ScopedModExpPath> path_;
};

TEST_P(BatchModExpTest, SharedExponentEveryPaillierSizeAndBatchSize) {
  SeededRng rng(21);
  ThreadPool pool(2);
  for (size_t bits : {2048, 3072, 4096, 6144}) {
    const ModExpContext ctx(RandomOddModulus(rng, bits));
    EXPECT_NE(ctx.ifma(), nullptr) << bits;
    const mpz_class e = rng.RandomBits(bits / 8);
    for (size_t n : {1, 2, 3, 7, 8, 9, 17}) {
      std::vector<mpz_class> bases(n), out(n);
      for (auto& b : bases) b = rng.UniformBelow(ctx.modulus());
      ASSERT_THAT(BatchModExp(ctx, bases, e, absl::MakeSpan(out), n > 8 ? &pool : nullptr, false),
                  IsOk());
      ExpectMatches(ctx.modulus(), bases, {e}, out, std::to_string(n) + " elements");
    }
  }
}

TEST_P(BatchModExpTest, PartialGroupsFromOneToNine) {
  SeededRng rng(22);
  const ModExpContext ctx(RandomOddModulus(rng, 4096));
  const mpz_class e = rng.RandomBits(1500);
  std::vector<mpz_class> all(9);
  for (auto& b : all) b = rng.UniformBelow(ctx.modulus());
  for (size_t n = 1; n <= 9; ++n) {
    const std::vector<mpz_class> bases(all.begin(), all.begin() + n);
    std::vector<mpz_class> out(n);
    ASSERT_THAT(BatchModExp(ctx, bases, e, absl::MakeSpan(out), nullptr, false), IsOk());
    ExpectMatches(ctx.modulus(), bases, {e}, out, std::to_string(n) + " elements");
  }
}

TEST_P(BatchModExpTest, PerElementExponentsIncludingEdgeValues) {
  SeededRng rng(23);
  ThreadPool pool(2);
  for (size_t bits : {2048, 4096}) {
    const ModExpContext ctx(RandomOddModulus(rng, bits));
    const mpz_class& m = ctx.modulus();
    std::vector<mpz_class> bases = {0, 1, m - 1, m, m + 3, -5, 2, rng.UniformBelow(m),
                                    rng.UniformBelow(m), 7, 11};
    std::vector<mpz_class> exps = {rng.RandomBits(bits), 0, 1, 2, m - 1, m,
                                   (mpz_class(1) << (2 * bits + 32)) - 1, rng.RandomBits(7),
                                   0, 1, rng.RandomBits(bits)};
    std::vector<mpz_class> out(bases.size());
    ASSERT_THAT(BatchModExp(ctx, bases, exps, absl::MakeSpan(out), &pool, false), IsOk());
    ExpectMatches(m, bases, exps, out, "per-element");
  }
}

TEST_P(BatchModExpTest, ConstantTimeRequestGivesTheSameResults) {
  SeededRng rng(24);
  const ModExpContext ctx(RandomOddModulus(rng, 2048));
  const mpz_class& m = ctx.modulus();
  const std::vector<mpz_class> bases = {0, 1, m - 1, m + 9, -3, rng.UniformBelow(m)};
  for (const mpz_class& e : {mpz_class(0), mpz_class(1), rng.RandomBits(2050)}) {
    std::vector<mpz_class> out(bases.size());
    ASSERT_THAT(BatchModExp(ctx, bases, e, absl::MakeSpan(out), nullptr, true), IsOk());
    ExpectMatches(m, bases, {e}, out, "constant time, exponent bits " +
                                          std::to_string(BitLength(e)));
  }
}

TEST_P(BatchModExpTest, ModuliOutsideTheKernelUseGmpWithTheSameResults) {
  SeededRng rng(25);
  const mpz_class odd_1024 = RandomOddModulus(rng, 1024);
  const mpz_class odd_8192 = RandomOddModulus(rng, 8192);
  const mpz_class even_4096 = RandomOddModulus(rng, 4096) + 1;
  for (const mpz_class& m : {odd_1024, odd_8192, even_4096, mpz_class(2), mpz_class(15)}) {
    const ModExpContext ctx(m);
    EXPECT_EQ(ctx.ifma(), nullptr) << BitLength(m) << " bits";
    std::vector<mpz_class> bases(10), out(10);
    for (auto& b : bases) b = rng.RandomBits(BitLength(m) + 5);
    const mpz_class e = rng.RandomBits(300);
    for (bool constant_time : {false, true}) {
      ASSERT_THAT(BatchModExp(ctx, bases, e, absl::MakeSpan(out), nullptr, constant_time),
                  IsOk());
      ExpectMatches(m, bases, {e}, out, constant_time ? "GMP, constant time" : "GMP");
    }
  }
}

TEST_P(BatchModExpTest, EmptyBatchIsFine) {
  const ModExpContext ctx(mpz_class(1) << 2047 | 1);
  EXPECT_THAT(BatchModExp(ctx, {}, mpz_class(5), {}, nullptr, false), IsOk());
}

TEST_P(BatchModExpTest, RejectsMismatchedLengthsNegativeExponentsAndTinyModuli) {
  SeededRng rng(26);
  const ModExpContext ctx(RandomOddModulus(rng, 2048));
  std::vector<mpz_class> three(3, 5), out2(2), out3(3);
  EXPECT_THAT(BatchModExp(ctx, three, mpz_class(3), absl::MakeSpan(out2), nullptr, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "3 bases but 2 outputs"));
  const std::vector<mpz_class> two_exps = {1, 2};
  EXPECT_THAT(BatchModExp(ctx, three, two_exps, absl::MakeSpan(out3), nullptr, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "3 bases but 2 exponents"));
  const std::vector<mpz_class> negative = {1, 2, -4};
  EXPECT_THAT(BatchModExp(ctx, three, negative, absl::MakeSpan(out3), nullptr, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "exponent 2 is negative"));
  EXPECT_THAT(BatchModExp(ctx, three, mpz_class(-1), absl::MakeSpan(out3), nullptr, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "exponent 0 is negative"));
  EXPECT_THAT(BatchModExp(ModExpContext(mpz_class(1)), three, mpz_class(3),
                          absl::MakeSpan(out3), nullptr, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "modulus must be at least 2"));
}

INSTANTIATE_TEST_SUITE_P(BothPaths, BatchModExpTest,
                         ::testing::Values(ModExpPath::kPortableGmp, ModExpPath::kIfma),
                         [](const ::testing::TestParamInfo<ModExpPath>& info) {
                           return info.param == ModExpPath::kIfma ? std::string("Ifma")
                                                                  : std::string("PortableGmp");
                         });

TEST(ModExpDispatchTest, FollowsTheEnvironmentAndTheCpu) {
  const char* v = std::getenv("PPLDA_CRYPTO_PORTABLE");
  const bool portable = v != nullptr && v[0] != '\0' && std::string(v) != "0";
  const ModExpPath expected =
      !portable && CpuHasAvx512Ifma() ? ModExpPath::kIfma : ModExpPath::kPortableGmp;
  EXPECT_EQ(ActiveModExpPath(), expected)
      << "PPLDA_CRYPTO_PORTABLE=" << (v ? v : "(unset)") << ", CPU has IFMA "
      << CpuHasAvx512Ifma();
}

TEST(ModExpDispatchTest, ScopedOverridesNestAndRestore) {
  const ModExpPath process = ActiveModExpPath();
  {
    ScopedModExpPath portable(ModExpPath::kPortableGmp);
    EXPECT_EQ(ActiveModExpPath(), ModExpPath::kPortableGmp);
    {
      ScopedModExpPath ifma(ModExpPath::kIfma);
      EXPECT_EQ(ActiveModExpPath(), ModExpPath::kIfma);
    }
    EXPECT_EQ(ActiveModExpPath(), ModExpPath::kPortableGmp);
  }
  EXPECT_EQ(ActiveModExpPath(), process);
  EXPECT_STREQ(ModExpPathName(ModExpPath::kIfma), "AVX-512 IFMA");
  EXPECT_STREQ(ModExpPathName(ModExpPath::kPortableGmp), "portable GMP");
}

TEST(ModExpDispatchTest, ForcedKernelOnACpuWithoutIfmaFailsInsteadOfCrashing) {
  ScopedHideAvx512Ifma no_ifma;  // as on a CPU without the extension
  ASSERT_FALSE(CpuHasAvx512Ifma());
  ScopedModExpPath ifma(ModExpPath::kIfma);
  SeededRng rng(27);
  const ModExpContext ctx(RandomOddModulus(rng, 2048));
  std::vector<mpz_class> bases(8, 3), out(8);
  EXPECT_THAT(BatchModExp(ctx, bases, mpz_class(5), absl::MakeSpan(out), nullptr, false),
              StatusIs(absl::StatusCode::kFailedPrecondition, "AVX-512 IFMA"));
}

}  // namespace
}  // namespace pplda::crypto
