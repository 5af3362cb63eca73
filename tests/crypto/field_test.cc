#include "crypto/arith/field.h"

#include <gmpxx.h>

#include "crypto/arith/field_vector.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

const mpz_class kP = (mpz_class(1) << 127) - 1;

mpz_class ToMpz(uint128 v) {
  mpz_class hi(static_cast<unsigned long>(v >> 64));
  mpz_class lo(static_cast<unsigned long>(static_cast<uint64_t>(v)));
  return (hi << 64) + lo;
}

uint128 FromMpz(const mpz_class& z) {
  mpz_class lo = z & mpz_class("18446744073709551615");
  mpz_class hi = z >> 64;
  return (static_cast<uint128>(hi.get_ui()) << 64) | lo.get_ui();
}

// Edge values: 0, 1, 2, p-1, p-2, 2^63, 2^64, 2^64-1, 2^126, 2^126 +- 1.
std::vector<FieldElement> EdgeValues() {
  std::vector<uint128> raw = {0,
                              1,
                              2,
                              FieldElement::kModulus - 1,
                              FieldElement::kModulus - 2,
                              uint128{1} << 63,
                              uint128{1} << 64,
                              (uint128{1} << 64) - 1,
                              uint128{1} << 126,
                              (uint128{1} << 126) + 1,
                              (uint128{1} << 126) - 1};
  std::vector<FieldElement> out;
  for (uint128 v : raw) out.push_back(FieldElement::FromUint128(v));
  return out;
}

TEST(FieldTest, ArithmeticMatchesGmpOnEdgeAndRandomValues) {
  SeededRng rng(11);
  std::vector<FieldElement> values = EdgeValues();
  FieldVector random = RandomFieldVector(rng, 200);
  values.insert(values.end(), random.begin(), random.end());
  for (FieldElement a : values) {
    for (FieldElement b : values) {
      const mpz_class za = ToMpz(a.value()), zb = ToMpz(b.value());
      mpz_class sum = (za + zb) % kP;
      mpz_class diff = ((za - zb) % kP + kP) % kP;
      mpz_class prod = (za * zb) % kP;
      ASSERT_EQ(ToMpz((a + b).value()), sum);
      ASSERT_EQ(ToMpz((a - b).value()), diff);
      ASSERT_EQ(ToMpz((a * b).value()), prod) << a.ToString() << " * " << b.ToString();
    }
  }
}

TEST(FieldTest, ReductionOfNonCanonicalInputs) {
  EXPECT_EQ(FieldElement::FromUint128(FieldElement::kModulus).value(), 0u);
  EXPECT_EQ(FieldElement::FromUint128(FieldElement::kModulus + 5).value(), 5u);
  const uint128 all_ones = ~uint128{0};  // 2^128 - 1 = 2p + 1
  EXPECT_EQ(FieldElement::FromUint128(all_ones).value(), 1u);
}

TEST(FieldTest, SignedRepresentation) {
  EXPECT_EQ(FieldElement::FromInt64(-1).value(), FieldElement::kModulus - 1);
  EXPECT_EQ(FieldElement::FromInt64(-1).ToSigned(), -1);
  EXPECT_EQ(FieldElement::FromInt64(INT64_MIN).ToSigned(), static_cast<int128>(INT64_MIN));
  EXPECT_EQ(FieldElement::FromInt64(12345).ToSigned(), 12345);
  EXPECT_EQ((FieldElement::FromInt64(-7) + FieldElement::FromInt64(3)).ToSigned(), -4);
  const int128 big = -(static_cast<int128>(1) << 100);
  EXPECT_EQ(FieldElement::FromInt128(big).ToSigned(), big);
}

TEST(FieldTest, InverseAndPowers) {
  SeededRng rng(12);
  for (FieldElement a : RandomFieldVector(rng, 100)) {
    if (a.IsZero()) continue;
    EXPECT_EQ(a * a.Inverse(), FieldElement::One());
  }
  EXPECT_EQ(FieldElement::Zero().Inverse(), FieldElement::Zero());
  for (int k = -130; k <= 260; ++k) {
    mpz_class expected;
    const long e = ((k % 127) + 127) % 127;
    mpz_powm_ui(expected.get_mpz_t(), mpz_class(2).get_mpz_t(), e, kP.get_mpz_t());
    ASSERT_EQ(ToMpz(FieldElement::PowerOfTwo(k).value()), expected) << k;
    ASSERT_EQ(FieldElement::PowerOfTwo(k) * FieldElement::PowerOfTwo(-k), FieldElement::One());
  }
  const FieldElement x = FieldElement::FromUint64(987654321);
  mpz_class expected;
  mpz_powm_ui(expected.get_mpz_t(), mpz_class(987654321).get_mpz_t(), 1000003, kP.get_mpz_t());
  EXPECT_EQ(ToMpz(x.Pow(1000003).value()), expected);
  for (int k = 0; k <= 130; ++k) {
    const mpz_class e = (mpz_class(1) << k) - 1;
    mpz_powm(expected.get_mpz_t(), mpz_class(987654321).get_mpz_t(), e.get_mpz_t(),
             kP.get_mpz_t());
    ASSERT_EQ(ToMpz(x.PowTwoToTheMinusOne(k).value()), expected) << k;
  }
}

TEST(FieldTest, InverseSquareRootOfSquaresIsPlusMinusInverse) {
  SeededRng rng(13);
  for (FieldElement r : RandomFieldVector(rng, 100)) {
    if (r.IsZero()) continue;
    const FieldElement sign = r * (r * r).InverseSquareRoot();
    EXPECT_TRUE(sign == FieldElement::One() || sign == -FieldElement::One());
  }
}

TEST(FieldTest, BatchInversionKeepsZeros) {
  SeededRng rng(14);
  FieldVector v = RandomFieldVector(rng, 50);
  v[0] = FieldElement::Zero();
  v[17] = FieldElement::Zero();
  v[49] = FieldElement::Zero();
  FieldVector inv = v;
  BatchInvertInPlace(absl::MakeSpan(inv));
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i].IsZero()) {
      EXPECT_TRUE(inv[i].IsZero());
    } else {
      EXPECT_EQ(inv[i], v[i].Inverse());
    }
  }
}

TEST(FieldTest, ToStringIsDecimal) {
  EXPECT_EQ(FieldElement::Zero().ToString(), "0");
  EXPECT_EQ(FieldElement::FromInt64(-1).ToString(), mpz_class(kP - 1).get_str());
  EXPECT_EQ(FieldElement::FromUint128(FromMpz(mpz_class("123456789012345678901234567"))).ToString(),
            "123456789012345678901234567");
}

}  // namespace
}  // namespace pplda::crypto
