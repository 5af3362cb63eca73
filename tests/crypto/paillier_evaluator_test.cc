// Homomorphic identities, checked by decrypting and comparing with the same
// operation on plaintexts mod N.
#include "crypto/paillier/paillier_evaluator.h"

#include <vector>

#include "base/thread_pool.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;

const DealtKey& Key() {
  static const DealtKey key = MakeTestKey(1024, SharingScheme::kAdditive, 2, 2, 31).value();
  return key;
}

class EvaluatorTest : public ::testing::Test {
 protected:
  mpz_class Dec(const Ciphertext& c) { return DecryptForTest(Key(), c).value(); }
  Ciphertext Enc(const mpz_class& m) { return enc_->Encrypt(Mod(m)).value(); }
  mpz_class Mod(const mpz_class& x) {
    mpz_class r;
    mpz_mod(r.get_mpz_t(), x.get_mpz_t(), n_.get_mpz_t());
    return r;
  }

  SeededRng rng_{41};
  std::unique_ptr<PaillierEncryptor> enc_ =
      PaillierEncryptor::Create(Key().public_key->paillier(), rng_).value();
  PaillierEvaluator eval_{Key().public_key->paillier()};
  mpz_class n_ = Key().public_key->n();
};

TEST_F(EvaluatorTest, AddSubNegateMatchPlaintextArithmetic) {
  const std::vector<mpz_class> values = {0, 1, n_ - 1, 123456789, rng_.UniformBelow(n_),
                                         rng_.UniformBelow(n_)};
  for (const mpz_class& a : values) {
    for (const mpz_class& b : values) {
      const Ciphertext ca = Enc(a), cb = Enc(b);
      EXPECT_EQ(Dec(eval_.Add(ca, cb)), Mod(a + b));
      EXPECT_EQ(Dec(eval_.Sub(ca, cb)), Mod(a - b));
    }
    EXPECT_EQ(Dec(eval_.Negate(Enc(a))), Mod(-a));
  }
}

TEST_F(EvaluatorTest, AddPlainAndMulScalarAcceptAnySign) {
  const mpz_class a = 1000;
  const Ciphertext ca = Enc(a);
  for (const mpz_class& p : {mpz_class(0), mpz_class(5), mpz_class(-5), mpz_class(-1000),
                             mpz_class(n_ + 3), mpz_class(-n_ - 3)}) {
    EXPECT_EQ(Dec(eval_.AddPlain(ca, p)), Mod(a + p)) << p.get_str();
  }
  for (const mpz_class& k : {mpz_class(0), mpz_class(1), mpz_class(-1), mpz_class(7),
                             mpz_class(-7), mpz_class(n_ - 1), mpz_class(n_ + 2),
                             mpz_class(-n_ * 3 - 1), rng_.UniformBelow(n_)}) {
    EXPECT_EQ(Dec(eval_.MulScalar(ca, k)), Mod(a * k)) << k.get_str();
  }
}

TEST_F(EvaluatorTest, SumOfManyAndOfNone) {
  std::vector<Ciphertext> cs;
  mpz_class total = 0;
  for (int i = 1; i <= 10; ++i) {
    cs.push_back(Enc(mpz_class(i * i)));
    total += i * i;
  }
  EXPECT_EQ(Dec(eval_.Sum(cs)), total);
  EXPECT_EQ(Dec(eval_.Sum({})), 0);
}

TEST_F(EvaluatorTest, BatchesMatchSingleOperations) {
  ThreadPool pool(2);
  std::vector<Ciphertext> a, b;
  std::vector<mpz_class> pa, pb, ks;
  for (int i = 0; i < 9; ++i) {
    pa.push_back(rng_.UniformBelow(n_));
    pb.push_back(rng_.UniformBelow(n_));
    ks.push_back(mpz_class(i) - 4);
    a.push_back(Enc(pa.back()));
    b.push_back(Enc(pb.back()));
  }
  auto sum = eval_.AddBatch(a, b, &pool).value();
  auto diff = eval_.SubBatch(a, b, &pool).value();
  auto neg = eval_.NegateBatch(a, &pool);
  auto plus = eval_.AddPlainBatch(a, pb, &pool).value();
  auto scaled = eval_.MulScalarBatch(a, ks, &pool).value();
  auto tripled = eval_.MulScalarBatch(a, mpz_class(3), &pool);
  auto summed = eval_.SumBatch(std::vector<std::vector<Ciphertext>>{a, b, a}, &pool).value();
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(sum[i], eval_.Add(a[i], b[i]));
    EXPECT_EQ(Dec(sum[i]), Mod(pa[i] + pb[i]));
    EXPECT_EQ(Dec(diff[i]), Mod(pa[i] - pb[i]));
    EXPECT_EQ(Dec(neg[i]), Mod(-pa[i]));
    EXPECT_EQ(Dec(plus[i]), Mod(pa[i] + pb[i]));
    EXPECT_EQ(Dec(scaled[i]), Mod(pa[i] * ks[i]));
    EXPECT_EQ(Dec(tripled[i]), Mod(3 * pa[i]));
    EXPECT_EQ(Dec(summed[i]), Mod(2 * pa[i] + pb[i]));
  }
}

TEST_F(EvaluatorTest, BatchesRejectMismatchedLengths) {
  std::vector<Ciphertext> a = {Enc(1), Enc(2)}, b = {Enc(3)};
  std::vector<mpz_class> k = {1, 2, 3};
  EXPECT_THAT(eval_.AddBatch(a, b, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument, "AddBatch: operands have 2 and 1"));
  EXPECT_THAT(eval_.SubBatch(a, b, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument, "SubBatch"));
  EXPECT_THAT(eval_.AddPlainBatch(a, k, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument, "AddPlainBatch: operands have 2 and 3"));
  EXPECT_THAT(eval_.MulScalarBatch(a, k, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument, "MulScalarBatch"));
  EXPECT_THAT(eval_.SumBatch(std::vector<std::vector<Ciphertext>>{a, b}, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument, "SumBatch vectors 0 and 1"));
}

}  // namespace
}  // namespace pplda::crypto
