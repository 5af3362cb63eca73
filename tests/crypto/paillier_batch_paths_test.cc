// The Paillier batch operations that exponentiate through BatchModExp give
// bit-identical results on the AVX-512 IFMA path and on the portable GMP
// path, equal to the one-at-a-time operations, and decrypt correctly:
// PartialDecryptBatch (plain and constant-time GMP), PartialDecryptBatchWithProofs
// (proofs equal to ProveDecryption's in order, and verifying), MulScalarBatch
// with one scalar (positive, negative, zero) and with per-element scalars.
#include <memory>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/cpu_features.h"
#include "crypto/modexp/batch_modexp_testing.h"
#include "crypto/paillier/decryption_proof.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_evaluator.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;

// Mutable: one test switches a share to constant-time GMP and back.
DealtKey& Key(size_t bits) {
  static DealtKey k1024 = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 41).value();
  static DealtKey k2048 = MakeTestKey(2048, SharingScheme::kShamir, 3, 2, 42).value();
  return bits == 1024 ? k1024 : k2048;
}

class PaillierBatchPathsTest : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override {
    if (!CpuHasAvx512Ifma()) {
      GTEST_SKIP() << "this CPU lacks AVX-512 IFMA: there is only one path to compare";
    }
    const DealtKey& key = Key(GetParam());
    enc_ = PaillierEncryptor::Create(key.public_key->paillier(), rng_).value();
    for (int i = 0; i < 11; ++i) {  // one full group of 8 and a partial one
      plain_.push_back(rng_.UniformBelow(key.public_key->n()));
      cts_.push_back(enc_->Encrypt(plain_.back()).value());
    }
  }

  // fn() run once on each path; the two results.
  template <typename Fn>
  static auto OnBothPaths(Fn fn) {
    ScopedModExpPath gmp(ModExpPath::kPortableGmp);
    auto portable = fn();
    ScopedModExpPath ifma(ModExpPath::kIfma);
    return std::make_pair(std::move(portable), fn());
  }

  SeededRng rng_{43};
  std::unique_ptr<PaillierEncryptor> enc_;
  std::vector<mpz_class> plain_;
  std::vector<Ciphertext> cts_;
  ThreadPool pool_{2};
};

TEST_P(PaillierBatchPathsTest, PartialDecryptionsAreIdenticalAndDecrypt) {
  const DealtKey& key = Key(GetParam());
  for (bool constant_time : {false, true}) {
    PaillierKeyShare& share = Key(GetParam()).shares[1];
    share.UseConstantTimeExponentiation(constant_time);
    auto [portable, ifma] = OnBothPaths([&] { return share.PartialDecryptBatch(cts_, &pool_); });
    share.UseConstantTimeExponentiation(false);
    ASSERT_TRUE(portable.ok() && ifma.ok());
    ASSERT_EQ(ifma->values.size(), cts_.size());
    for (size_t i = 0; i < cts_.size(); ++i) {
      EXPECT_EQ(ifma->values[i], portable->values[i]) << "ciphertext " << i;
      EXPECT_EQ(ifma->values[i], share.PartialDecrypt(cts_[i]).value()) << "ciphertext " << i;
    }
  }
  // Combining kernel partials of parties 1 and 2 recovers every plaintext.
  ScopedModExpPath ifma(ModExpPath::kIfma);
  const auto b1 = key.shares[0].PartialDecryptBatch(cts_, nullptr).value();
  const auto b2 = key.shares[1].PartialDecryptBatch(cts_, nullptr).value();
  PaillierCombiner combiner(key.public_key);
  for (size_t i = 0; i < cts_.size(); ++i) {
    EXPECT_EQ(combiner.Combine({{1, b1.values[i]}, {2, b2.values[i]}}).value(), plain_[i]);
  }
}

TEST_P(PaillierBatchPathsTest, MulScalarBatchesAreIdenticalAndScale) {
  const PaillierEvaluator eval(Key(GetParam()).public_key->paillier());
  const mpz_class& n = eval.public_key().n();
  for (const mpz_class& k : {mpz_class(0), mpz_class(3), mpz_class(-7), mpz_class(n - 2),
                             rng_.RandomBits(500)}) {
    auto [portable, ifma] = OnBothPaths([&] { return eval.MulScalarBatch(cts_, k, &pool_); });
    ASSERT_EQ(ifma.size(), cts_.size());
    for (size_t i = 0; i < cts_.size(); ++i) {
      EXPECT_EQ(ifma[i], portable[i]) << "k bits " << BitLength(k) << ", ciphertext " << i;
      EXPECT_EQ(ifma[i], eval.MulScalar(cts_[i], k)) << "ciphertext " << i;
    }
  }
  std::vector<mpz_class> ks;
  for (size_t i = 0; i < cts_.size(); ++i) {
    ks.push_back(i % 3 == 0 ? mpz_class(-static_cast<long>(i)) : rng_.RandomBits(8 * i + 1));
  }
  auto [portable, ifma] = OnBothPaths([&] { return eval.MulScalarBatch(cts_, ks, &pool_); });
  ASSERT_TRUE(portable.ok() && ifma.ok());
  const DealtKey& key = Key(GetParam());
  for (size_t i = 0; i < cts_.size(); ++i) {
    EXPECT_EQ((*ifma)[i], (*portable)[i]) << "ciphertext " << i;
    mpz_class expected = plain_[i] * ks[i] % n;
    if (expected < 0) expected += n;
    EXPECT_EQ(DecryptForTest(key, (*ifma)[i]).value(), expected) << "ciphertext " << i;
  }
}

TEST_P(PaillierBatchPathsTest, ProofsAreIdenticalToOneAtATimeProofsAndVerify) {
  const DealtKey& key = Key(GetParam());
  const PaillierKeyShare& share = key.shares[2];
  auto prove = [&] {
    SeededRng rng(44);
    return share.PartialDecryptBatchWithProofs(cts_, rng, &pool_).value();
  };
  auto [portable, ifma] = OnBothPaths(prove);
  // The reference: ProveDecryption in order, drawing from the same stream.
  SeededRng rng(44);
  const mpz_class x = key.public_key->delta() * share.secret_share();
  ASSERT_EQ(ifma.proofs.size(), cts_.size());
  for (size_t i = 0; i < cts_.size(); ++i) {
    const DecryptionProof one = ProveDecryption(*key.public_key, 3, x, cts_[i],
                                                ifma.values[i], rng);
    EXPECT_EQ(ifma.proofs[i].challenge, one.challenge) << "ciphertext " << i;
    EXPECT_EQ(ifma.proofs[i].response, one.response) << "ciphertext " << i;
    EXPECT_EQ(portable.proofs[i].challenge, one.challenge) << "ciphertext " << i;
    EXPECT_EQ(portable.proofs[i].response, one.response) << "ciphertext " << i;
    EXPECT_TRUE(VerifyDecryption(*key.public_key, 3, cts_[i], ifma.values[i], ifma.proofs[i])
                    .ok())
        << "ciphertext " << i;
  }
  // A proof for another ciphertext's partial decryption does not verify.
  EXPECT_FALSE(
      VerifyDecryption(*key.public_key, 3, cts_[0], ifma.values[1], ifma.proofs[1]).ok());
}

// The batched verifier gives VerifyDecryption's verdict on every value, on
// both paths: all good, and with tampered values and proofs (the lowest
// failing index is the one named).
TEST_P(PaillierBatchPathsTest, BatchVerificationAgreesWithOneAtATime) {
  const DealtKey& key = Key(GetParam());
  const PaillierKeyShare& share = key.shares[2];
  SeededRng rng(45);
  const PartialDecryptionBatch good = share.PartialDecryptBatchWithProofs(cts_, rng, &pool_).value();
  PartialDecryptionBatch bad = good;
  const size_t last = cts_.size() - 1;
  bad.values[3] = bad.values[3] * 4 % key.public_key->n_squared();
  bad.proofs[last].response += 1;
  const ModExpContext ctx(key.public_key->n_squared());
  for (const PartialDecryptionBatch* b : {&good, static_cast<const PartialDecryptionBatch*>(&bad)}) {
    auto [portable, ifma] = OnBothPaths([&] {
      return VerifyDecryptionBatch(*key.public_key, ctx, 3, cts_, b->values, b->proofs, &pool_);
    });
    size_t first_failure = cts_.size();
    for (size_t i = 0; i < cts_.size(); ++i) {
      const bool one = VerifyDecryption(*key.public_key, 3, cts_[i], b->values[i], b->proofs[i]).ok();
      if (!one && first_failure == cts_.size()) first_failure = i;
      if (b == &good) EXPECT_TRUE(one) << "value " << i;
      if (b == &bad && (i == 3 || i == last)) EXPECT_FALSE(one) << "value " << i;
    }
    for (const absl::Status& s : {portable, ifma}) {
      if (first_failure == cts_.size()) {
        EXPECT_TRUE(s.ok()) << s;
      } else {
        EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument,
                                absl::StrCat("value ", first_failure,
                                             ": decryption proof of party 3 does not verify")));
      }
    }
  }
  // Malformed: lengths that differ, a response out of range.
  EXPECT_THAT(VerifyDecryptionBatch(*key.public_key, ctx, 3, cts_, good.values,
                                    absl::MakeConstSpan(good.proofs).subspan(1), &pool_),
              StatusIs(absl::StatusCode::kInvalidArgument, "proofs"));
  const ModExpContext other(key.public_key->n_squared() + 2);
  EXPECT_THAT(VerifyDecryptionBatch(*key.public_key, other, 3, cts_, good.values, good.proofs,
                                    &pool_),
              StatusIs(absl::StatusCode::kInvalidArgument, "not for this key's N^2"));
  PartialDecryptionBatch huge = good;
  huge.proofs[1].response <<= 20000;
  EXPECT_THAT(
      VerifyDecryptionBatch(*key.public_key, ctx, 3, cts_, huge.values, huge.proofs, &pool_),
      StatusIs(absl::StatusCode::kInvalidArgument, "value 1: decryption proof of party 3: response is out of range"));
}

TEST_P(PaillierBatchPathsTest, ProofBatchRejectsMismatchedLengths) {
  const DealtKey& key = Key(GetParam());
  const ModExpContext ctx(key.public_key->n_squared());
  const std::vector<mpz_class> one_partial = {mpz_class(1)};
  EXPECT_THAT(ProveDecryptionBatch(*key.public_key, ctx, 1, mpz_class(5), cts_, one_partial,
                                   rng_, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "11 ciphertexts but 1 partial decryptions"));
}

INSTANTIATE_TEST_SUITE_P(ModulusBits, PaillierBatchPathsTest, ::testing::Values(1024, 2048));

}  // namespace
}  // namespace pplda::crypto
