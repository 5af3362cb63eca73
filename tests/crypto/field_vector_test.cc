#include "crypto/arith/field_vector.h"

#include "absl/status/status.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

using ::testing::HasSubstr;

TEST(FieldVectorTest, EncodeDecodeRoundTrip) {
  SeededRng rng(1);
  FieldVector v = RandomFieldVector(rng, 33);
  v[0] = FieldElement::FromInt64(-1);  // p - 1, the largest canonical value
  std::vector<uint8_t> bytes;
  AppendEncoded(v, bytes);
  ASSERT_EQ(bytes.size(), 33u * 16);
  auto decoded = DecodeFieldVector(bytes, 33, "test payload");
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, v);
}

TEST(FieldVectorTest, EncodingIsLittleEndian) {
  std::vector<uint8_t> bytes;
  const FieldElement x = FieldElement::FromUint64(0x0102);
  AppendEncoded(absl::MakeConstSpan(&x, 1), bytes);
  EXPECT_EQ(bytes[0], 0x02);
  EXPECT_EQ(bytes[1], 0x01);
  for (int i = 2; i < 16; ++i) EXPECT_EQ(bytes[i], 0);
}

TEST(FieldVectorTest, DecodeRejectsWrongLength) {
  std::vector<uint8_t> bytes(40, 0);
  auto decoded = DecodeFieldVector(bytes, 2, "round 3 message from party 1");
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(decoded.status().message(), HasSubstr("round 3 message from party 1"));
  EXPECT_THAT(decoded.status().message(), HasSubstr("40 bytes"));
}

TEST(FieldVectorTest, DecodeRejectsNonCanonicalElement) {
  std::vector<uint8_t> bytes(32, 0);
  for (int i = 16; i < 32; ++i) bytes[i] = 0xff;  // element 1 = 2^128 - 1
  auto decoded = DecodeFieldVector(bytes, 2, "shares");
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(decoded.status().message(), HasSubstr("element 1"));
  EXPECT_THAT(decoded.status().message(), HasSubstr("not a canonical field element"));
  // p itself (127 one bits) is also rejected.
  bytes[31] = 0x7f;
  decoded = DecodeFieldVector(bytes, 2, "shares");
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(FieldVectorTest, BoundedSamplesStayInRangeAndUseAllBits) {
  SeededRng rng(2);
  for (int bits : {0, 1, 5, 64, 65, 100, 126}) {
    FieldVector v = RandomBoundedVector(rng, 400, bits);
    uint128 seen_or = 0;
    for (FieldElement x : v) {
      ASSERT_LT(x.value(), bits == 0 ? uint128{1} : uint128{1} << bits);
      seen_or |= x.value();
    }
    const uint128 all = bits == 0 ? 0 : (~uint128{0}) >> (128 - bits);
    EXPECT_EQ(seen_or, all) << bits;  // every bit position occurs (400 draws)
  }
}

TEST(FieldVectorTest, ElementwiseOperations) {
  FieldVector a = {FieldElement::FromInt64(3), FieldElement::FromInt64(-2)};
  const FieldVector b = {FieldElement::FromInt64(5), FieldElement::FromInt64(7)};
  AddInPlace(absl::MakeSpan(a), b);
  EXPECT_EQ(a[0].ToSigned(), 8);
  EXPECT_EQ(a[1].ToSigned(), 5);
  SubInPlace(absl::MakeSpan(a), b);
  EXPECT_EQ(a[1].ToSigned(), -2);
  MulInPlace(absl::MakeSpan(a), b);
  EXPECT_EQ(a[0].ToSigned(), 15);
  EXPECT_EQ(a[1].ToSigned(), -14);
  ScaleInPlace(absl::MakeSpan(a), FieldElement::FromInt64(-1));
  EXPECT_EQ(a[0].ToSigned(), -15);
  AddScaledInPlace(absl::MakeSpan(a), FieldElement::FromInt64(2), b);
  EXPECT_EQ(a[0].ToSigned(), -5);
  EXPECT_EQ(a[1].ToSigned(), 28);
}

}  // namespace
}  // namespace pplda::crypto
