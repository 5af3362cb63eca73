// The IFMA fixed-base table against GMP's mpz_powm: random and edge
// exponents (0, 1, 2^L - 1, a top window only partly used) at lane counts
// 1..8, every window width, the Paillier randomiser's shape (N^2 of 1024-,
// 2048- and 3072-bit N, L = |N| / 2), and every refused input. Kernel cases
// are skipped (GTEST_SKIP, with the reason) on a CPU without AVX-512 IFMA;
// the refusal without IFMA (ScopedHideAvx512Ifma) runs everywhere.
#include "crypto/ifma/ifma_fixed_base.h"

#include <string>
#include <vector>

#include "crypto/arith/big_int.h"
#include "crypto/arith/cpu_features.h"
#include "crypto/arith/cpu_features_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/modexp_test_util.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::IsOk;
using ::pplda::crypto::testing::Powm;
using ::pplda::crypto::testing::RandomOddModulus;
using ::pplda::crypto::testing::StatusIs;

#define SKIP_WITHOUT_IFMA()                                                        \
  if (!CpuHasAvx512Ifma()) {                                                       \
    GTEST_SKIP() << "this CPU lacks AVX-512 IFMA: the kernel cannot run here; the " \
                    "GMP table is tested in fixed_base_table_test";                \
  }

// Pow on `exponents` and every lane against mpz_powm.
void ExpectMatchesGmp(const IfmaFixedBaseTable& table, const mpz_class& base,
                      const mpz_class& modulus, const std::vector<mpz_class>& exponents,
                      const std::string& what) {
  std::vector<mpz_class> out(exponents.size());
  ASSERT_THAT(table.Pow(exponents, absl::MakeSpan(out)), IsOk()) << what;
  for (size_t k = 0; k < exponents.size(); ++k) {
    EXPECT_EQ(out[k], Powm(base, exponents[k], modulus))
        << what << ", lane " << k << " of " << exponents.size() << ", modulus bits "
        << BitLength(modulus) << ", window " << table.window_bits();
  }
}

TEST(IfmaFixedBaseTableTest, MatchesGmpOnRandomAndEdgeExponentsAtEveryLaneCount) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(11);
  for (size_t modulus_bits : {2048, 4096, 6144, 4158}) {
    const mpz_class m = RandomOddModulus(rng, modulus_bits);
    const mpz_class g = rng.UniformBelow(m - 1) + 1;
    const size_t bits = modulus_bits / 4;  // ell = |N| / 2 for m = N^2
    auto table = IfmaFixedBaseTable::Create(g, m, bits);
    ASSERT_TRUE(table.ok()) << table.status();
    const mpz_class top = (mpz_class(1) << bits) - 1;
    for (size_t lanes = 1; lanes <= kIfmaLanes; ++lanes) {
      std::vector<mpz_class> e(lanes);
      for (mpz_class& x : e) x = rng.RandomBits(bits);
      ExpectMatchesGmp(*table, g, m, e, "random exponents");
    }
    ExpectMatchesGmp(*table, g, m, {0, 1, top, mpz_class(1) << (bits - 1), 2, top - 1, 31, 32},
                     "edge exponents");
    ExpectMatchesGmp(*table, g, m, {0}, "zero alone");
  }
}

TEST(IfmaFixedBaseTableTest, MatchesGmpAtEveryWindowWidth) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(12);
  const mpz_class m = RandomOddModulus(rng, 2048);
  const mpz_class g = rng.UniformBelow(m - 1) + 1;
  for (int w = 1; w <= 8; ++w) {
    // 301 bits: no width from 2 to 8 divides it, so the top window is partial.
    auto table = IfmaFixedBaseTable::Create(g, m, 301, w);
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_EQ(table->window_bits(), w);
    std::vector<mpz_class> e(kIfmaLanes);
    for (mpz_class& x : e) x = rng.RandomBits(301);
    e[0] = (mpz_class(1) << 301) - 1;
    ExpectMatchesGmp(*table, g, m, e, "window " + std::to_string(w));
  }
}

TEST(IfmaFixedBaseTableTest, ComputesTheDjnRandomiserOfEveryPaillierSize) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(13);
  for (size_t n_bits : {1024, 2048, 3072}) {
    const mpz_class n = RandomOddModulus(rng, n_bits);
    const mpz_class n2 = n * n;
    const mpz_class h = Powm(rng.UniformBelow(n), n, n2);  // an N-th power, as h_N
    auto table = IfmaFixedBaseTable::Create(h, n2, (n_bits + 1) / 2);
    ASSERT_TRUE(table.ok()) << table.status();
    std::vector<mpz_class> e(kIfmaLanes);
    for (mpz_class& x : e) x = rng.RandomBits((n_bits + 1) / 2);
    ExpectMatchesGmp(*table, h, n2, e, "N of " + std::to_string(n_bits) + " bits");
  }
}

TEST(IfmaFixedBaseTableTest, RefusesBadInputs) {
  SKIP_WITHOUT_IFMA();
  SeededRng rng(14);
  const mpz_class m = RandomOddModulus(rng, 2048);
  const mpz_class g = 5;
  EXPECT_THAT(IfmaFixedBaseTable::Create(g, m, 0), StatusIs(absl::StatusCode::kInvalidArgument,
                                                            "exponent_bits = 0"));
  EXPECT_THAT(IfmaFixedBaseTable::Create(g, m, 65537),
              StatusIs(absl::StatusCode::kInvalidArgument, "exponent_bits = 65537"));
  EXPECT_THAT(IfmaFixedBaseTable::Create(g, m, 64, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, "window_bits = 0"));
  EXPECT_THAT(IfmaFixedBaseTable::Create(g, m, 64, 9),
              StatusIs(absl::StatusCode::kInvalidArgument, "window_bits = 9"));
  EXPECT_THAT(IfmaFixedBaseTable::Create(g, m + 1, 64),
              StatusIs(absl::StatusCode::kInvalidArgument, "is even"));
  EXPECT_THAT(IfmaFixedBaseTable::Create(g, RandomOddModulus(rng, 1024), 64),
              StatusIs(absl::StatusCode::kInvalidArgument, "1025 to 6144 bits"));
  EXPECT_THAT(IfmaFixedBaseTable::Create(0, m, 64),
              StatusIs(absl::StatusCode::kInvalidArgument, "base must be in (0, modulus)"));
  EXPECT_THAT(IfmaFixedBaseTable::Create(m, m, 64),
              StatusIs(absl::StatusCode::kInvalidArgument, "base must be in (0, modulus)"));

  auto table = IfmaFixedBaseTable::Create(g, m, 64);
  ASSERT_TRUE(table.ok()) << table.status();
  std::vector<mpz_class> out(9);
  EXPECT_THAT(table->Pow({}, absl::MakeSpan(out).subspan(0, 0)),
              StatusIs(absl::StatusCode::kInvalidArgument, "0 exponents given"));
  EXPECT_THAT(table->Pow(std::vector<mpz_class>(9, 1), absl::MakeSpan(out)),
              StatusIs(absl::StatusCode::kInvalidArgument, "9 exponents given"));
  EXPECT_THAT(table->Pow(std::vector<mpz_class>(2, 1), absl::MakeSpan(out).subspan(0, 3)),
              StatusIs(absl::StatusCode::kInvalidArgument, "2 exponents but 3 outputs"));
  EXPECT_THAT(table->Pow({mpz_class(1), mpz_class(1) << 64}, absl::MakeSpan(out).subspan(0, 2)),
              StatusIs(absl::StatusCode::kInvalidArgument, "exponent 1 is outside [0, 2^64)"));
  EXPECT_THAT(table->Pow({mpz_class(-1)}, absl::MakeSpan(out).subspan(0, 1)),
              StatusIs(absl::StatusCode::kInvalidArgument, "exponent 0 is outside"));
}

// Without IFMA the table is refused up front, so the kernel never runs.
TEST(IfmaFixedBaseTableTest, RefusesWithoutIfma) {
  ScopedHideAvx512Ifma no_ifma;
  SeededRng rng(15);
  EXPECT_THAT(IfmaFixedBaseTable::Create(5, RandomOddModulus(rng, 2048), 64),
              StatusIs(absl::StatusCode::kFailedPrecondition, "does not support AVX-512F"));
}

}  // namespace
}  // namespace pplda::crypto
