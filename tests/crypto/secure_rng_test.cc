#include "crypto/random/secure_rng.h"

#include <array>
#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

std::vector<uint8_t> Draw(SecureRng& rng, size_t n) {
  std::vector<uint8_t> out(n);
  rng.Fill(absl::MakeSpan(out));
  return out;
}

TEST(SeededRngTest, SameSeedSameStreamRegardlessOfChunking) {
  SeededRng a(7), b(7);
  std::vector<uint8_t> whole = Draw(a, 200);
  std::vector<uint8_t> pieces;
  for (size_t n : {1u, 63u, 64u, 5u, 67u}) {
    std::vector<uint8_t> part = Draw(b, n);
    pieces.insert(pieces.end(), part.begin(), part.end());
  }
  EXPECT_EQ(whole, pieces);
}

TEST(SeededRngTest, DifferentSeedsDiffer) {
  SeededRng a(1), b(2);
  EXPECT_NE(Draw(a, 32), Draw(b, 32));
}

TEST(SecureRngTest, RandomBitsStaysBelowPowerAndUsesTopBit) {
  SeededRng rng(3);
  const mpz_class limit = mpz_class(1) << 13;
  bool top_bit_seen = false;
  for (int i = 0; i < 200; ++i) {
    mpz_class v = rng.RandomBits(13);
    ASSERT_GE(v, 0);
    ASSERT_LT(v, limit);
    if (mpz_tstbit(v.get_mpz_t(), 12)) top_bit_seen = true;
  }
  EXPECT_TRUE(top_bit_seen);
  EXPECT_EQ(rng.RandomBits(0), 0);
}

TEST(SecureRngTest, UniformBelowCoversSmallRangeEvenly) {
  SeededRng rng(4);
  std::array<int, 6> counts{};
  for (int i = 0; i < 6000; ++i) {
    mpz_class v = rng.UniformBelow(mpz_class(6));
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 6);
    counts[v.get_ui()]++;
  }
  // Fixed seed: deterministic. Expected 1000 each, sd ~ 29; +-150 is > 5 sd.
  for (int c : counts) {
    EXPECT_GT(c, 850);
    EXPECT_LT(c, 1150);
  }
}

TEST(SecureRngTest, UniformUint64StaysInRange) {
  SodiumRng rng;
  for (uint64_t bound : {1ull, 2ull, 3ull, 1000ull, (1ull << 63) + 5}) {
    for (int i = 0; i < 50; ++i) EXPECT_LT(rng.UniformUint64(bound), bound);
  }
  EXPECT_EQ(rng.UniformUint64(0), 0u);
}

TEST(SecureRngTest, UniformUnitIsCoprime) {
  SeededRng rng(5);
  const mpz_class m = 2 * 3 * 5 * 7 * 11;
  for (int i = 0; i < 100; ++i) {
    mpz_class v = rng.UniformUnit(m);
    mpz_class g;
    mpz_gcd(g.get_mpz_t(), v.get_mpz_t(), m.get_mpz_t());
    EXPECT_EQ(g, 1);
    EXPECT_GE(v, 1);
    EXPECT_LT(v, m);
  }
}

TEST(SodiumRngTest, TwoDrawsDiffer) {
  SodiumRng rng;
  EXPECT_NE(Draw(rng, 32), Draw(rng, 32));
}

}  // namespace
}  // namespace pplda::crypto
