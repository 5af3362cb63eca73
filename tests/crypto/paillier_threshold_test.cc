// Threshold decryption: every t-subset decrypts exactly, fewer cannot, and
// every bad partial / party / ciphertext is rejected with a clear error.
#include <algorithm>
#include <vector>

#include "base/thread_pool.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;

// Dealt once per test binary (fixed primes, fixed seeds).
const DealtKey& ShamirKey() {
  static const DealtKey key = MakeTestKey(1024, SharingScheme::kShamir, 5, 3, 11).value();
  return key;
}
const DealtKey& AdditiveKey() {
  static const DealtKey key = MakeTestKey(1024, SharingScheme::kAdditive, 3, 3, 12).value();
  return key;
}

class ThresholdTest : public ::testing::Test {
 protected:

  Ciphertext Encrypt(const DealtKey& key, const mpz_class& m) {
    auto enc = PaillierEncryptor::Create(key.public_key->paillier(), rng_);
    EXPECT_TRUE(enc.ok());
    return (*enc)->Encrypt(m).value();
  }

  std::vector<PartialDecryption> Partials(const DealtKey& key, const Ciphertext& c,
                                          const std::vector<int>& parties) {
    std::vector<PartialDecryption> out;
    for (int p : parties) {
      out.push_back({p, key.shares[static_cast<size_t>(p - 1)].PartialDecrypt(c).value()});
    }
    return out;
  }

  const DealtKey* shamir_ = &ShamirKey();
  const DealtKey* additive_ = &AdditiveKey();
  SeededRng rng_{99};
};

TEST_F(ThresholdTest, EveryThreeSubsetOfFiveDecryptsExactly) {
  const mpz_class& n = shamir_->public_key->n();
  PaillierCombiner combiner(shamir_->public_key);
  const std::vector<mpz_class> plaintexts = {0, 1, n - 1, n / 2, rng_.UniformBelow(n)};
  for (const mpz_class& m : plaintexts) {
    const Ciphertext c = Encrypt(*shamir_, m);
    int subsets = 0;
    for (int mask = 0; mask < 32; ++mask) {
      if (__builtin_popcount(mask) != 3) continue;
      std::vector<int> parties;
      for (int p = 1; p <= 5; ++p) {
        if (mask & (1 << (p - 1))) parties.push_back(p);
      }
      auto got = combiner.Combine(Partials(*shamir_, c, parties));
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(*got, m) << "subset mask " << mask;
      ++subsets;
    }
    EXPECT_EQ(subsets, 10);
  }
}

TEST_F(ThresholdTest, MoreThanThresholdPartialsInAnyOrderAlsoDecrypt) {
  PaillierCombiner combiner(shamir_->public_key);
  const Ciphertext c = Encrypt(*shamir_, mpz_class(424242));
  auto got = combiner.Combine(Partials(*shamir_, c, {5, 2, 4, 1}));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, 424242);
}

TEST_F(ThresholdTest, FewerThanThresholdIsRefused) {
  PaillierCombiner combiner(shamir_->public_key);
  const Ciphertext c = Encrypt(*shamir_, mpz_class(7));
  EXPECT_THAT(combiner.Combine(Partials(*shamir_, c, {1, 4})),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "needs partial decryptions from 3 of 5 parties"));
}

TEST_F(ThresholdTest, FewerThanThresholdCannotDecryptEvenWithLagrangeOverThem) {
  // Pretend the threshold were 2: interpolating two shares of a degree-2
  // polynomial does not give Delta d, so the plaintext does not come out.
  const ThresholdPublicKey& k = *shamir_->public_key;
  std::vector<mpz_class> vks;
  for (int i = 1; i <= 5; ++i) vks.push_back(k.verification_key(i));
  auto weaker = ThresholdPublicKey::Create(k.paillier(), SharingScheme::kShamir, 5, 2,
                                           k.verification_base(), vks, k.origin());
  ASSERT_TRUE(weaker.ok());
  PaillierCombiner combiner(*weaker);
  const mpz_class m = 123456789;
  const Ciphertext c = Encrypt(*shamir_, m);
  for (const std::vector<int>& pair :
       std::vector<std::vector<int>>{{1, 2}, {2, 5}, {3, 4}}) {
    auto got = combiner.Combine(Partials(*shamir_, c, pair));
    EXPECT_TRUE(!got.ok() || *got != m);
  }
}

TEST_F(ThresholdTest, AdditiveNeedsAllParties) {
  PaillierCombiner combiner(additive_->public_key);
  const mpz_class m = 31337;
  const Ciphertext c = Encrypt(*additive_, m);
  auto got = combiner.Combine(Partials(*additive_, c, {3, 1, 2}));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, m);
  EXPECT_THAT(combiner.Combine(Partials(*additive_, c, {1, 2})),
              StatusIs(absl::StatusCode::kFailedPrecondition, "got 2"));
}

TEST_F(ThresholdTest, RejectsDuplicateAndUnknownParties) {
  PaillierCombiner combiner(shamir_->public_key);
  const Ciphertext c = Encrypt(*shamir_, mpz_class(5));
  auto partials = Partials(*shamir_, c, {1, 2, 3});
  auto dup = partials;
  dup[2] = dup[1];
  EXPECT_THAT(combiner.Combine(dup),
              StatusIs(absl::StatusCode::kInvalidArgument, "party 2 is given twice"));
  auto unknown = partials;
  unknown[0].party = 7;
  EXPECT_THAT(combiner.Combine(unknown),
              StatusIs(absl::StatusCode::kInvalidArgument, "party 7 is not in this key"));
  unknown[0].party = 0;
  EXPECT_THAT(combiner.Combine(unknown),
              StatusIs(absl::StatusCode::kInvalidArgument, "party 0 is not in this key"));
}

TEST_F(ThresholdTest, RejectsPartialsOfAnotherKeyOrCiphertext) {
  auto other = MakeTestKey(1024, SharingScheme::kShamir, 5, 3, 77);  // same N, new shares
  ASSERT_TRUE(other.ok());
  PaillierCombiner combiner(shamir_->public_key);
  const Ciphertext c = Encrypt(*shamir_, mpz_class(99));
  auto partials = Partials(*shamir_, c, {1, 2, 3});
  partials[1].value = other->shares[1].PartialDecrypt(c).value();
  EXPECT_THAT(combiner.Combine(partials),
              StatusIs(absl::StatusCode::kInvalidArgument, "inconsistent partial decryptions"));
  const Ciphertext c2 = Encrypt(*shamir_, mpz_class(99));
  auto mixed = Partials(*shamir_, c, {1, 2, 3});
  mixed[2].value = shamir_->shares[2].PartialDecrypt(c2).value();
  EXPECT_THAT(combiner.Combine(mixed),
              StatusIs(absl::StatusCode::kInvalidArgument, "inconsistent partial decryptions"));
}

TEST_F(ThresholdTest, RejectsPartialOutsideRangeOrNotAUnit) {
  PaillierCombiner combiner(shamir_->public_key);
  const Ciphertext c = Encrypt(*shamir_, mpz_class(1));
  auto partials = Partials(*shamir_, c, {1, 2, 3});
  auto bad = partials;
  bad[0].value = shamir_->public_key->n_squared();
  EXPECT_THAT(combiner.Combine(bad),
              StatusIs(absl::StatusCode::kInvalidArgument, "outside (0, N^2)"));
  bad = partials;
  auto primes = TestSafePrimes(1024).value();
  for (size_t i = 0; i < 3; ++i) {  // p as every position: positive and negative lambdas
    bad = partials;
    bad[i].value = primes.first;
    EXPECT_THAT(combiner.Combine(bad),
                StatusIs(absl::StatusCode::kInvalidArgument, "inconsistent"));
  }
}

TEST_F(ThresholdTest, PartialDecryptRejectsCiphertextsOutsideGroup) {
  const PaillierKeyShare& share = shamir_->shares[0];
  const mpz_class& n2 = shamir_->public_key->n_squared();
  const mpz_class p = TestSafePrimes(1024).value().first;
  for (const mpz_class& bad : {mpz_class(0), n2, mpz_class(n2 + 5), mpz_class(-3), p,
                               mpz_class(p * 12345)}) {
    EXPECT_THAT(share.PartialDecrypt(Ciphertext{bad}),
                StatusIs(absl::StatusCode::kInvalidArgument, "not in Z*_{N^2}"));
  }
  std::vector<Ciphertext> batch = {Encrypt(*shamir_, mpz_class(1)), Ciphertext{p}};
  EXPECT_THAT(share.PartialDecryptBatch(batch, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument, "ciphertext 1 is not in Z*_{N^2}"));
}

TEST_F(ThresholdTest, KeyShareMustMatchItsVerificationKey) {
  const ThresholdPublicKeyPtr& key = shamir_->public_key;
  SecretInt s1(shamir_->shares[0].secret_share());
  EXPECT_THAT(PaillierKeyShare::Create(key, 2, std::move(s1)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "key share of party 2 does not match verification key 2"));
  auto other = MakeTestKey(1024, SharingScheme::kShamir, 5, 3, 78);
  ASSERT_TRUE(other.ok());
  SecretInt foreign(other->shares[0].secret_share());
  EXPECT_THAT(PaillierKeyShare::Create(key, 1, std::move(foreign)),
              StatusIs(absl::StatusCode::kInvalidArgument, "does not match"));
  EXPECT_THAT(PaillierKeyShare::Create(key, 6, SecretInt(mpz_class(1))),
              StatusIs(absl::StatusCode::kInvalidArgument, "party 6 is not in this key"));
  EXPECT_THAT(PaillierKeyShare::Create(key, 1, SecretInt(mpz_class(-1))),
              StatusIs(absl::StatusCode::kInvalidArgument, "secret share is outside"));
  EXPECT_THAT(PaillierKeyShare::Create(nullptr, 1, SecretInt(mpz_class(1))),
              StatusIs(absl::StatusCode::kInvalidArgument, "no public key"));
}

TEST_F(ThresholdTest, BatchesOverAPoolMatchSingleDecryptions) {
  ThreadPool pool(2);
  auto enc = PaillierEncryptor::Create(shamir_->public_key->paillier(), rng_);
  ASSERT_TRUE(enc.ok());
  std::vector<mpz_class> ms;
  for (int i = 0; i < 17; ++i) ms.push_back(rng_.UniformBelow(shamir_->public_key->n()));
  auto cts = (*enc)->EncryptBatch(ms, &pool);
  ASSERT_TRUE(cts.ok());
  std::vector<PartialDecryptionBatch> batches;
  for (int p : {2, 3, 5}) {
    auto b = shamir_->shares[static_cast<size_t>(p - 1)].PartialDecryptBatch(*cts, &pool);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->party, p);
    EXPECT_EQ(b->values[4],
              shamir_->shares[static_cast<size_t>(p - 1)].PartialDecrypt((*cts)[4]).value());
    batches.push_back(*std::move(b));
  }
  PaillierCombiner combiner(shamir_->public_key);
  auto got = combiner.CombineBatch(batches, &pool);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, ms);
  auto serial = combiner.CombineBatch(batches, nullptr);
  ASSERT_TRUE(serial.ok());
  EXPECT_EQ(*serial, ms);

  batches[1].values.pop_back();
  EXPECT_THAT(combiner.CombineBatch(batches, &pool),
              StatusIs(absl::StatusCode::kInvalidArgument, "batch of party 3 has 16 values"));
}

TEST_F(ThresholdTest, ProofsVerifyAndCatchTampering) {
  SeededRng rng(5);
  ThreadPool pool(2);
  std::vector<Ciphertext> cts = {Encrypt(*shamir_, mpz_class(10)),
                                 Encrypt(*shamir_, mpz_class(20))};
  auto batch = shamir_->shares[3].PartialDecryptBatchWithProofs(cts, rng, &pool);
  ASSERT_TRUE(batch.ok());
  ASSERT_EQ(batch->proofs.size(), 2u);
  PaillierCombiner combiner(shamir_->public_key);
  EXPECT_TRUE(combiner.VerifyBatch(cts, *batch, &pool).ok());

  auto wrong_value = *batch;
  wrong_value.values[1] = wrong_value.values[1] * 4 % shamir_->public_key->n_squared();
  EXPECT_THAT(combiner.VerifyBatch(cts, wrong_value, &pool),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "value 1: decryption proof of party 4 does not verify"));
  auto wrong_party = *batch;
  wrong_party.party = 3;
  EXPECT_THAT(combiner.VerifyBatch(cts, wrong_party, &pool),
              StatusIs(absl::StatusCode::kInvalidArgument, "does not verify"));
  auto wrong_challenge = *batch;
  wrong_challenge.proofs[0].challenge += 1;
  EXPECT_THAT(combiner.VerifyBatch(cts, wrong_challenge, &pool),
              StatusIs(absl::StatusCode::kInvalidArgument, "value 0"));
  auto oversized = *batch;
  oversized.proofs[0].challenge <<= 200;
  EXPECT_THAT(combiner.VerifyBatch(cts, oversized, &pool),
              StatusIs(absl::StatusCode::kInvalidArgument, "challenge is not a 128-bit value"));
  auto missing = *batch;
  missing.proofs.pop_back();
  EXPECT_THAT(combiner.VerifyBatch(cts, missing, &pool),
              StatusIs(absl::StatusCode::kInvalidArgument, "1 proofs for 2 ciphertexts"));
}

TEST_F(ThresholdTest, ConstantTimeExponentiationGivesTheSamePartials) {
  auto key = MakeTestKey(1024, SharingScheme::kShamir, 5, 3, 11).value();
  const Ciphertext c = Encrypt(key, mpz_class(8080));
  const mpz_class fast = key.shares[1].PartialDecrypt(c).value();
  EXPECT_FALSE(key.shares[1].constant_time());
  key.shares[1].UseConstantTimeExponentiation(true);
  EXPECT_TRUE(key.shares[1].constant_time());
  EXPECT_EQ(key.shares[1].PartialDecrypt(c).value(), fast);
  auto batch = key.shares[1].PartialDecryptBatch({c, c}, nullptr).value();
  EXPECT_EQ(batch.values[1], fast);
}

TEST(ThresholdDefaultSizeTest, TwoOfThreeAt2048Bits) {
  auto key = MakeTestKey(2048, SharingScheme::kShamir, 3, 2, 3);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->public_key->paillier().modulus_bits(), 2048u);
  EXPECT_EQ(key->public_key->origin(), KeyOrigin::kTrustedDealer);
  EXPECT_EQ(key->public_key->delta(), 6);
  SeededRng rng(4);
  auto enc = PaillierEncryptor::Create(key->public_key->paillier(), rng);
  ASSERT_TRUE(enc.ok());
  const mpz_class m = key->public_key->n() - 2;
  auto c = (*enc)->Encrypt(m);
  ASSERT_TRUE(c.ok());
  PaillierCombiner combiner(key->public_key);
  std::vector<PartialDecryption> partials = {
      {3, key->shares[2].PartialDecrypt(*c).value()},
      {1, key->shares[0].PartialDecrypt(*c).value()}};
  auto got = combiner.Combine(partials);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, m);
}

}  // namespace
}  // namespace pplda::crypto
