// Packing: layout arithmetic, round trips at slot boundaries, homomorphic
// sums through real encryption, masks, and overflow detection.
#include "crypto/paillier/packing.h"

#include <cstdint>
#include <vector>

#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_evaluator.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;

PaillierPublicKey KeyOfSize(size_t bits) {
  auto primes = TestSafePrimes(bits).value();
  return PaillierPublicKey::Create(primes.first * primes.second).value();
}

TEST(PackingLayoutTest, WorkedExampleFromTheDocs) {
  PackingOptions o;
  o.value_bits = 24;
  o.max_terms = 3;
  o.mask_parties = 3;
  o.sigma = 40;
  o.guard_bits = 8;
  auto layout = PackingLayout::Create(o, KeyOfSize(2048));
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->sum_bits(), 26);
  EXPECT_EQ(layout->slot_bits(), 77);
  EXPECT_EQ(layout->slots(), 26u);
  EXPECT_EQ(layout->mask_bound(), mpz_class(1) << 66);
  EXPECT_EQ(layout->NumPlaintexts(0), 0u);
  EXPECT_EQ(layout->NumPlaintexts(26), 1u);
  EXPECT_EQ(layout->NumPlaintexts(27), 2u);
}

TEST(PackingLayoutTest, WithoutMasksSlotIsSumPlusSignPlusGuard) {
  PackingOptions o;
  o.value_bits = 20;
  o.max_terms = 1000;  // ceil(log2) = 10
  o.guard_bits = 0;
  auto layout = PackingLayout::Create(o, KeyOfSize(1024));
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->sum_bits(), 30);
  EXPECT_EQ(layout->slot_bits(), 31);
  EXPECT_EQ(layout->slots(), 1022u / 31);
  EXPECT_EQ(layout->mask_bound(), 0);
}

TEST(PackingLayoutTest, RejectsBadOptions) {
  const PaillierPublicKey key = KeyOfSize(1024);
  PackingOptions o;
  o.value_bits = 0;
  EXPECT_THAT(PackingLayout::Create(o, key),
              StatusIs(absl::StatusCode::kInvalidArgument, "value_bits = 0"));
  o = {};
  o.max_terms = 0;
  EXPECT_THAT(PackingLayout::Create(o, key),
              StatusIs(absl::StatusCode::kInvalidArgument, "max_terms"));
  o = {};
  o.mask_parties = 2;
  o.sigma = 39;
  EXPECT_THAT(PackingLayout::Create(o, key),
              StatusIs(absl::StatusCode::kInvalidArgument, "sigma = 39"));
  o = {};
  o.mask_parties = -1;
  EXPECT_THAT(PackingLayout::Create(o, key),
              StatusIs(absl::StatusCode::kInvalidArgument, "mask_parties = -1"));
  o = {};
  o.guard_bits = 65;
  EXPECT_THAT(PackingLayout::Create(o, key),
              StatusIs(absl::StatusCode::kInvalidArgument, "guard_bits = 65"));
  o = {};
  o.value_bits = 1025;
  EXPECT_THAT(PackingLayout::Create(o, key),
              StatusIs(absl::StatusCode::kInvalidArgument, "value_bits = 1025"));
  o.value_bits = 1000;
  o.mask_parties = 1;
  EXPECT_THAT(PackingLayout::Create(o, key),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "a slot of 1050 bits does not fit a 1024-bit plaintext (at most 1022"));
}

class PackingTest : public ::testing::Test {
 protected:
  PackingTest() {
    PackingOptions o;
    o.value_bits = 8;
    o.max_terms = 4;   // A = 10
    o.guard_bits = 4;  // W = 15
    layout_ = PackingLayout::Create(o, key_).value();
  }
  PaillierPublicKey key_ = KeyOfSize(1024);
  PackingLayout layout_ = PackingLayout::Create(PackingOptions{}, key_).value();
};

TEST_F(PackingTest, RoundTripsSlotBoundariesAndPartialLastPlaintext) {
  ASSERT_EQ(layout_.slot_bits(), 15);
  const size_t slots = layout_.slots();  // 1022 / 15 = 68
  ASSERT_EQ(slots, 68u);
  std::vector<int64_t> values;
  for (size_t i = 0; i < 2 * slots + 5; ++i) {
    const int64_t pattern[] = {255, -255, 0, 1, -1, 128, -128};
    values.push_back(pattern[i % 7]);
  }
  auto packed = layout_.Pack(values);
  ASSERT_TRUE(packed.ok());
  EXPECT_EQ(packed->size(), 3u);
  for (const mpz_class& p : *packed) EXPECT_TRUE(key_.ValidatePlaintext(p, "p").ok());
  auto back = layout_.UnpackInt64(*packed, values.size());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, values);
  auto empty = layout_.Pack(std::vector<int64_t>{});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST_F(PackingTest, PackRejectsValuesOutsideTheBound) {
  EXPECT_THAT(layout_.Pack(std::vector<int64_t>{1, 2, 256}),
              StatusIs(absl::StatusCode::kInvalidArgument, "value 2 is outside [-255, 256)"));
  EXPECT_THAT(layout_.Pack(std::vector<int64_t>{-256}),
              StatusIs(absl::StatusCode::kInvalidArgument, "value 0 is outside"));
  EXPECT_THAT(layout_.PackMasks(std::vector<mpz_class>{1}),
              StatusIs(absl::StatusCode::kFailedPrecondition, "no mask headroom"));
}

TEST_F(PackingTest, HomomorphicSumOfMaxTermsVectorsIsExact) {
  SeededRng rng(3);
  auto enc = PaillierEncryptor::Create(key_, rng).value();
  auto key = MakeTestKey(1024, SharingScheme::kAdditive, 2, 2, 5).value();
  PaillierEvaluator eval(key_);
  const size_t count = 100;
  std::vector<int64_t> total(count, 0);
  std::vector<Ciphertext> acc;
  for (int term = 0; term < 4; ++term) {  // extreme values: sums reach +-1020
    std::vector<int64_t> v(count);
    for (size_t i = 0; i < count; ++i) {
      const int64_t magnitude = 255 - (term == 3 ? static_cast<int64_t>(i % 3) : 0);
      v[i] = i % 2 == 0 ? magnitude : -magnitude;
    }
    for (size_t i = 0; i < count; ++i) total[i] += v[i];
    auto packed = layout_.Pack(v).value();
    std::vector<Ciphertext> cts;
    for (const mpz_class& p : packed) cts.push_back(enc->Encrypt(p).value());
    acc = acc.empty() ? cts : eval.AddBatch(acc, cts, nullptr).value();
  }
  std::vector<mpz_class> plain;
  for (const Ciphertext& c : acc) plain.push_back(DecryptForTest(key, c).value());
  auto back = layout_.UnpackInt64(plain, count);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, total);
}

TEST_F(PackingTest, OverflowBeyondHeadroomIsDetectedNotAliased) {
  // Five terms of 255 exceed the 4-term headroom (|sum| < 2^10 = 1024).
  std::vector<int64_t> v = {0, 255, 0};
  auto packed = layout_.Pack(v).value();
  mpz_class sum = 0;
  for (int t = 0; t < 5; ++t) sum += packed[0];
  sum %= key_.n();
  EXPECT_THAT(layout_.Unpack({sum}, 3),
              StatusIs(absl::StatusCode::kOutOfRange,
                       "slot 1 of plaintext 0 (value 1) is outside the sum range [-1023, 1024)"));
  // Negative direction, last slot.
  std::vector<int64_t> w = {0, 0, -255};
  auto packed_w = layout_.Pack(w).value();
  mpz_class neg = 0;
  for (int t = 0; t < 9; ++t) neg += packed_w[0];
  neg %= key_.n();
  EXPECT_THAT(layout_.Unpack({neg}, 3), StatusIs(absl::StatusCode::kOutOfRange, "slot 2"));
}

TEST_F(PackingTest, UnpackRejectsGarbageAndWrongCounts) {
  SeededRng rng(4);
  const mpz_class garbage = rng.UniformBelow(key_.n());
  EXPECT_THAT(layout_.Unpack({garbage}, 3), StatusIs(absl::StatusCode::kOutOfRange, "plaintext 0"));
  auto packed = layout_.Pack(std::vector<int64_t>{1, 2, 3}).value();
  // Three values packed, two asked for: the third is bits above the last used slot.
  EXPECT_THAT(layout_.Unpack(packed, 2),
              StatusIs(absl::StatusCode::kOutOfRange, "non-zero bits above its last used slot 2"));
  EXPECT_THAT(layout_.Unpack(packed, 200),
              StatusIs(absl::StatusCode::kInvalidArgument, "needs 3 plaintexts of 68 slots, got 1"));
  EXPECT_THAT(layout_.Unpack({key_.n()}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, "plaintext 0 is outside [0, N)"));
}

TEST(PackingMaskTest, MaskedSumsUnpackExactlyAndMasksAreBounded) {
  const PaillierPublicKey key = KeyOfSize(1024);
  PackingOptions o;
  o.value_bits = 16;
  o.max_terms = 2;
  o.mask_parties = 3;
  auto layout = PackingLayout::Create(o, key).value();
  EXPECT_EQ(layout.sum_bits(), 17);
  EXPECT_EQ(layout.slot_bits(), 17 + 1 + 8 + 40 + 2);
  SeededRng rng(6);
  const size_t count = layout.slots() + 3;
  std::vector<int64_t> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = static_cast<int64_t>(i % 5) * 30000 - 60000;
  v[0] = -65535;
  v[1] = 65535;
  std::vector<mpz_class> expected(count);
  mpz_class sum_packed_0 = 0, sum_packed_1 = 0;
  auto pv = layout.Pack(v).value();
  sum_packed_0 += pv[0];
  sum_packed_1 += pv[1];
  for (size_t i = 0; i < count; ++i) expected[i] = v[i];
  for (int party = 0; party < 3; ++party) {
    std::vector<mpz_class> masks(count);
    for (size_t i = 0; i < count; ++i) {
      masks[i] = i < 2 ? mpz_class(layout.mask_bound() - 1) : rng.UniformBelow(layout.mask_bound());
      expected[i] += masks[i];
    }
    auto pm = layout.PackMasks(masks).value();
    sum_packed_0 += pm[0];
    sum_packed_1 += pm[1];
  }
  sum_packed_0 %= key.n();
  sum_packed_1 %= key.n();
  auto back = layout.UnpackMasked({sum_packed_0, sum_packed_1}, count);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, expected);
  // Masked sums are outside the plain sum range: Unpack refuses them.
  EXPECT_THAT(layout.Unpack({sum_packed_0, sum_packed_1}, count),
              StatusIs(absl::StatusCode::kOutOfRange, "outside the sum range"));
  EXPECT_THAT(layout.PackMasks(std::vector<mpz_class>{layout.mask_bound()}),
              StatusIs(absl::StatusCode::kInvalidArgument, "mask 0 is outside [0, "));
  EXPECT_THAT(layout.PackMasks(std::vector<mpz_class>{-1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "mask 0 is outside"));
}

TEST(PackingMaskTest, UnpackMaskedNeedsMaskHeadroom) {
  auto layout = PackingLayout::Create(PackingOptions{}, KeyOfSize(1024)).value();
  EXPECT_THAT(layout.UnpackMasked({}, 0),
              StatusIs(absl::StatusCode::kFailedPrecondition, "mask_parties = 0"));
}

TEST(PackingInt64Test, UnpackInt64RefusesValuesBeyond64Bits) {
  PackingOptions o;
  o.value_bits = 100;
  auto layout = PackingLayout::Create(o, KeyOfSize(1024)).value();
  const mpz_class big = mpz_class(1) << 80;
  auto packed = layout.Pack(std::vector<mpz_class>{5, big}).value();
  EXPECT_EQ(layout.Unpack(packed, 2).value(), (std::vector<mpz_class>{5, big}));
  EXPECT_THAT(layout.UnpackInt64(packed, 2),
              StatusIs(absl::StatusCode::kOutOfRange, "value 1 does not fit in 64 bits"));
}

}  // namespace
}  // namespace pplda::crypto
