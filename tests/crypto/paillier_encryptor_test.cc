// Encryption round trips (DJN table, pool, textbook), re-randomisation, and
// the fixed-base table and randomiser pool underneath.
#include "crypto/paillier/paillier_encryptor.h"

#include <set>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "crypto/modexp/batch_modexp.h"
#include "crypto/modexp/fixed_base_table.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/paillier/randomiser_pool.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;

const DealtKey& Key() {
  static const DealtKey key = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 21).value();
  return key;
}

mpz_class Decrypt(const Ciphertext& c) { return DecryptForTest(Key(), c).value(); }

std::unique_ptr<PaillierEncryptor> MakeEncryptor(SecureRng& rng, EncryptorOptions options = {}) {
  return PaillierEncryptor::Create(Key().public_key->paillier(), rng, options).value();
}

TEST(EncryptorTest, RoundTripsRandomAndEdgeValues) {
  SeededRng rng(1);
  auto enc = MakeEncryptor(rng);
  const mpz_class& n = Key().public_key->n();
  std::vector<mpz_class> ms = {0, 1, 2, n - 1, n - 2, n / 2, (n - 1) / 2 + 1};
  for (int i = 0; i < 5; ++i) ms.push_back(rng.UniformBelow(n));
  for (const mpz_class& m : ms) {
    auto c = enc->Encrypt(m);
    ASSERT_TRUE(c.ok());
    EXPECT_TRUE(Key().public_key->paillier().ValidateCiphertext(c->value, "c").ok());
    EXPECT_EQ(Decrypt(*c), m);
    auto classic = enc->EncryptClassic(m);
    ASSERT_TRUE(classic.ok());
    EXPECT_EQ(Decrypt(*classic), m);
  }
}

TEST(EncryptorTest, SignedValuesRoundTripThroughCenteredDecoding) {
  SeededRng rng(2);
  auto enc = MakeEncryptor(rng);
  const PaillierPublicKey& pk = Key().public_key->paillier();
  const mpz_class half = (pk.n() - 1) / 2;
  for (const mpz_class& v : {mpz_class(-1), mpz_class(-123456), mpz_class(0), mpz_class(77),
                             mpz_class(-half), half}) {
    auto c = enc->EncryptSigned(v);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(pk.DecodeSigned(Decrypt(*c)), v);
  }
  EXPECT_THAT(enc->EncryptSigned(mpz_class(half + 1)),
              StatusIs(absl::StatusCode::kOutOfRange, "does not fit a 1024-bit"));
  EXPECT_THAT(enc->EncryptSigned(mpz_class(-half - 1)),
              StatusIs(absl::StatusCode::kOutOfRange, "(N-1)/2"));
}

TEST(EncryptorTest, RejectsPlaintextsOutsideZN) {
  SeededRng rng(3);
  auto enc = MakeEncryptor(rng);
  const mpz_class& n = Key().public_key->n();
  EXPECT_THAT(enc->Encrypt(n), StatusIs(absl::StatusCode::kInvalidArgument, "outside [0, N)"));
  EXPECT_THAT(enc->Encrypt(mpz_class(-1)),
              StatusIs(absl::StatusCode::kInvalidArgument, "plaintext is not a Paillier plaintext"));
  std::vector<mpz_class> batch = {1, 2, n + 1};
  EXPECT_THAT(enc->EncryptBatch(batch, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument, "plaintext 2 is not"));
  EXPECT_THAT(enc->EncryptClassic(n), StatusIs(absl::StatusCode::kInvalidArgument, "[0, N)"));
}

TEST(EncryptorTest, EncryptionIsRandomised) {
  SeededRng rng(4);
  auto enc = MakeEncryptor(rng);
  auto a = enc->Encrypt(mpz_class(5));
  auto b = enc->Encrypt(mpz_class(5));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->value, b->value);
  const Ciphertext r = enc->Rerandomise(*a);
  EXPECT_NE(r.value, a->value);
  EXPECT_EQ(Decrypt(r), 5);
}

TEST(EncryptorTest, DjnBaseIsAnEncryptionOfZeroAndRandomisersAgree) {
  SeededRng rng(5);
  auto enc = MakeEncryptor(rng);
  EXPECT_EQ(Decrypt(Ciphertext{enc->djn_base()}), 0);
  EXPECT_EQ(enc->exponent_bits(), 512u);
  for (auto randomiser : {enc->TableRandomiser(), enc->PowmRandomiser(),
                          enc->ClassicRandomiser(), enc->NextRandomiser()}) {
    EXPECT_EQ(Decrypt(Ciphertext{randomiser}), 0);
  }
  // Table and powm agree exponent by exponent (same seeded stream).
  SeededRng a(6), b(6);
  auto enc_a = MakeEncryptor(a);
  auto enc_b = MakeEncryptor(b);
  EXPECT_EQ(enc_a->TableRandomiser(), enc_b->PowmRandomiser());
}

TEST(EncryptorTest, BatchesOverAPoolRoundTrip) {
  SeededRng rng(7);
  ThreadPool pool(2);
  EncryptorOptions options;
  options.pool_capacity = 8;
  auto enc = MakeEncryptor(rng, options);
  std::vector<mpz_class> ms;
  for (int i = 0; i < 20; ++i) ms.push_back(rng.UniformBelow(Key().public_key->n()));
  auto cts = enc->EncryptBatch(ms, &pool);
  ASSERT_TRUE(cts.ok());
  for (size_t i = 0; i < ms.size(); ++i) EXPECT_EQ(Decrypt((*cts)[i]), ms[i]) << i;
  auto re = enc->RerandomiseBatch(*cts, &pool);
  ASSERT_EQ(re.size(), cts->size());
  for (size_t i = 0; i < ms.size(); ++i) {
    EXPECT_NE(re[i].value, (*cts)[i].value);
    EXPECT_EQ(Decrypt(re[i]), ms[i]);
  }
}

// The batch calls' randomisers come eight at a time from the IFMA kernel
// where it runs: from the same seeded stream they must equal the GMP
// table's, ciphertext by ciphertext (21 values: two full groups and a short
// one), and round-trip over a thread pool.
TEST(EncryptorTest, BatchesTakeTheTableRandomisersFromTheIfmaKernel) {
  SeededRng a(31), b(31), values(32);
  auto kernel = MakeEncryptor(a);
  EncryptorOptions gmp_only;
  gmp_only.use_ifma = false;
  auto gmp = MakeEncryptor(b, gmp_only);
  EXPECT_EQ(kernel->ifma_table() != nullptr, ActiveModExpPath() == ModExpPath::kIfma);
  EXPECT_EQ(gmp->ifma_table(), nullptr);
  if (kernel->ifma_table() == nullptr) {
    GTEST_SKIP() << "no IFMA kernel here (CPU without AVX-512 IFMA, or PPLDA_CRYPTO_PORTABLE): "
                    "both encryptors would use the GMP table";
  }
  std::vector<mpz_class> ms;
  for (int i = 0; i < 21; ++i) ms.push_back(values.UniformBelow(Key().public_key->n()));
  auto from_kernel = kernel->EncryptBatch(ms, nullptr);
  auto from_gmp = gmp->EncryptBatch(ms, nullptr);
  ASSERT_TRUE(from_kernel.ok() && from_gmp.ok());
  for (size_t i = 0; i < ms.size(); ++i) {
    EXPECT_EQ((*from_kernel)[i].value, (*from_gmp)[i].value) << i;
  }
  const std::vector<Ciphertext> re_kernel = kernel->RerandomiseBatch(*from_kernel, nullptr);
  const std::vector<Ciphertext> re_gmp = gmp->RerandomiseBatch(*from_gmp, nullptr);
  for (size_t i = 0; i < ms.size(); ++i) EXPECT_EQ(re_kernel[i].value, re_gmp[i].value) << i;
  EXPECT_EQ(kernel->NextRandomisers(8), gmp->NextRandomisers(8));
  EXPECT_EQ(kernel->NextRandomisers(3), gmp->NextRandomisers(3));

  ThreadPool pool(2);
  auto pooled = kernel->EncryptBatch(ms, &pool);
  ASSERT_TRUE(pooled.ok());
  const std::vector<Ciphertext> re = kernel->RerandomiseBatch(*pooled, &pool);
  std::set<mpz_class> distinct;
  for (size_t i = 0; i < ms.size(); ++i) {
    EXPECT_EQ(Decrypt((*pooled)[i]), ms[i]) << i;
    EXPECT_EQ(Decrypt(re[i]), ms[i]) << i;
    EXPECT_NE(re[i].value, (*pooled)[i].value) << i;
    distinct.insert((*pooled)[i].value);
  }
  EXPECT_EQ(distinct.size(), ms.size());
}

TEST(EncryptorTest, PoolServesPrecomputedRandomisers) {
  SeededRng rng(8);
  EncryptorOptions options;
  options.pool_capacity = 4;
  auto enc = MakeEncryptor(rng, options);
  ASSERT_NE(enc->pool(), nullptr);
  const_cast<RandomiserPool*>(enc->pool())->WaitUntilStocked(4);
  EXPECT_EQ(enc->pool()->size(), 4u);
  for (int i = 0; i < 4; ++i) {
    auto c = enc->Encrypt(mpz_class(i));
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(Decrypt(*c), i);
  }
  EXPECT_EQ(enc->pool()->served_from_pool() + enc->pool()->computed_inline(), 4u);
  EXPECT_GE(enc->pool()->served_from_pool(), 4u);
}

TEST(RandomiserPoolTest, HandsOutEachValueOnceAndFallsBackInline) {
  std::atomic<int> counter{0};
  std::set<long> seen;
  {
    RandomiserPool pool(3, [&] { return mpz_class(counter.fetch_add(1)); });
    pool.WaitUntilStocked(3);
    EXPECT_EQ(pool.size(), 3u);
    for (int i = 0; i < 10; ++i) {
      const long v = pool.Take().get_si();
      EXPECT_TRUE(seen.insert(v).second) << "value handed out twice: " << v;
    }
    EXPECT_EQ(pool.served_from_pool() + pool.computed_inline(), 10u);
    EXPECT_GE(pool.served_from_pool(), 3u);
  }  // destructor joins the filler
  EXPECT_EQ(seen.size(), 10u);
}

TEST(FixedBaseTableTest, PowMatchesMpzPowm) {
  SeededRng rng(9);
  const mpz_class m = Key().public_key->n_squared();
  const mpz_class g = rng.UniformUnit(m);
  for (int w : {1, 4, 6, 7}) {
    auto table = FixedBaseTable::Create(g, m, 100, w);
    ASSERT_TRUE(table.ok());
    std::vector<mpz_class> exps = {0, 1, 2, (mpz_class(1) << 100) - 1, mpz_class(1) << 99};
    for (int i = 0; i < 5; ++i) exps.push_back(rng.RandomBits(100));
    for (const mpz_class& e : exps) {
      mpz_class want;
      mpz_powm(want.get_mpz_t(), g.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
      auto got = table->Pow(e);
      ASSERT_TRUE(got.ok());
      EXPECT_EQ(*got, want) << "w=" << w << " e=" << e.get_str(16);
    }
    EXPECT_EQ(table->memory_bytes(),
              ((100 + w - 1) / w) * ((size_t{1} << w) - 1) * ((mpz_sizeinbase(m.get_mpz_t(), 2) + 7) / 8));
  }
}

TEST(FixedBaseTableTest, RejectsBadParametersAndExponents) {
  const mpz_class m = 1000003;
  EXPECT_THAT(FixedBaseTable::Create(2, m, 10, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, "window_bits = 0"));
  EXPECT_THAT(FixedBaseTable::Create(2, m, 10, 13),
              StatusIs(absl::StatusCode::kInvalidArgument, "outside [1, 12]"));
  EXPECT_THAT(FixedBaseTable::Create(2, m, 0, 4),
              StatusIs(absl::StatusCode::kInvalidArgument, "exponent_bits"));
  EXPECT_THAT(FixedBaseTable::Create(2, mpz_class(1000), 10, 4),
              StatusIs(absl::StatusCode::kInvalidArgument, "modulus must be odd"));
  EXPECT_THAT(FixedBaseTable::Create(m, m, 10, 4),
              StatusIs(absl::StatusCode::kInvalidArgument, "base must be in (0, modulus)"));
  auto table = FixedBaseTable::Create(2, m, 10, 4);
  ASSERT_TRUE(table.ok());
  EXPECT_THAT(table->Pow(mpz_class(1024)),
              StatusIs(absl::StatusCode::kInvalidArgument, "outside [0, 2^10)"));
  EXPECT_THAT(table->Pow(mpz_class(-1)), StatusIs(absl::StatusCode::kInvalidArgument, "2^10"));
  mpz_class want, two = 2, e = 1023;
  mpz_powm(want.get_mpz_t(), two.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
  EXPECT_EQ(table->Pow(e).value(), want);
}

TEST(EncryptorTest, DefaultWindowDependsOnModulusAndBadWindowIsRejected) {
  EXPECT_EQ(DefaultWindowBits(1024), 8);
  EXPECT_EQ(DefaultWindowBits(2048), 8);
  EXPECT_EQ(DefaultWindowBits(3072), 7);
  SeededRng rng(10);
  auto enc = MakeEncryptor(rng);
  EXPECT_EQ(enc->table().window_bits(), 8);
  EXPECT_EQ(enc->table().memory_bytes(), 64u * 255u * 256u);
  EncryptorOptions options;
  options.window_bits = 13;
  EXPECT_THAT(PaillierEncryptor::Create(Key().public_key->paillier(), rng, options),
              StatusIs(absl::StatusCode::kInvalidArgument, "window_bits = 13"));
}

}  // namespace
}  // namespace pplda::crypto
