#include "crypto/arith/big_int.h"

#include <string>

#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;

TEST(BigIntTest, FixedBytesAreBigEndianAndPadded) {
  auto b = ToFixedBytes(mpz_class(0x0102), 4);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, std::string("\x00\x00\x01\x02", 4));
  EXPECT_EQ(FromBytes(*b), 0x0102);
  EXPECT_EQ(ToFixedBytes(mpz_class(0), 3).value(), std::string(3, '\0'));
  EXPECT_EQ(ToFixedBytes(mpz_class(255), 1).value(), "\xff");
}

TEST(BigIntTest, FixedBytesRejectValuesThatDoNotFit) {
  EXPECT_THAT(ToFixedBytes(mpz_class(256), 1),
              StatusIs(absl::StatusCode::kOutOfRange,
                       "integer of 2 bytes does not fit the fixed length of 1 bytes"));
  EXPECT_THAT(ToFixedBytes(mpz_class(-1), 8), StatusIs(absl::StatusCode::kOutOfRange, "negative"));
}

TEST(BigIntTest, MinimalBytesAndLengths) {
  EXPECT_EQ(ToMinimalBytes(mpz_class(0)), "");
  EXPECT_EQ(ToMinimalBytes(mpz_class(0x10000)), std::string("\x01\x00\x00", 3));
  EXPECT_EQ(FromBytes(""), 0);
  EXPECT_EQ(BitLength(mpz_class(0)), 0u);
  EXPECT_EQ(BitLength(mpz_class(255)), 8u);
  EXPECT_EQ(BitLength(mpz_class(-256)), 9u);
  EXPECT_EQ(ByteLength(mpz_class(256)), 2u);
  const mpz_class big("123456789abcdef0123456789abcdef", 16);
  EXPECT_EQ(FromBytes(ToMinimalBytes(big)), big);
}

TEST(BigIntTest, WipeZeroesEveryAllocatedLimb) {
  mpz_class x("ffffffffffffffffffffffffffffffffffffffffffffffff", 16);
  mpz_ptr p = x.get_mpz_t();
  const int alloc = p->_mp_alloc;
  ASSERT_GE(alloc, 3);
  Wipe(x);
  EXPECT_EQ(x, 0);
  for (int i = 0; i < alloc; ++i) EXPECT_EQ(p->_mp_d[i], 0u) << i;
}

TEST(BigIntTest, SecretIntWipesOnMoveAssignAndMovesValue) {
  SecretInt a(mpz_class(12345));
  SecretInt b(std::move(a));
  EXPECT_EQ(b.value(), 12345);
  EXPECT_EQ(a.value(), 0);  // moved-from is a fresh zero
  SecretInt c(mpz_class(7));
  c = std::move(b);
  EXPECT_EQ(c.value(), 12345);
}

TEST(BigIntTest, WipeStringAndFactorial) {
  std::string s = "secret";
  WipeString(s);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(Factorial(0), 1);
  EXPECT_EQ(Factorial(5), 120);
  EXPECT_EQ(Factorial(20), mpz_class("2432902008176640000"));
}

TEST(BigIntTest, HashToIntegerIsDeterministicLongEnoughAndInputBound) {
  const mpz_class a = HashToInteger("input a", 300);
  EXPECT_EQ(a, HashToInteger("input a", 300));
  EXPECT_NE(a, HashToInteger("input b", 300));
  // At least 300 bytes of output (whole 64-byte blocks): 320 bytes here.
  EXPECT_GT(BitLength(a), 320u * 8 - 64);
  EXPECT_LE(BitLength(a), 320u * 8);
  // A longer request extends the same stream.
  const mpz_class longer = HashToInteger("input a", 400);
  EXPECT_EQ(longer >> (64 * 8 * 2), a);
}

}  // namespace
}  // namespace pplda::crypto
