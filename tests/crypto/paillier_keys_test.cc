// Public key validation, safe primes and dealer-mode key generation.
#include <vector>

#include "crypto/arith/safe_prime.h"
#include "crypto/paillier/paillier_dealer.h"
#include "crypto/paillier/paillier_public_key.h"
#include "crypto/paillier/paillier_testing.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "tests/crypto/paillier_test_util.h"

namespace pplda::crypto {
namespace {

using ::pplda::crypto::testing::StatusIs;

TEST(ModulusBitsTest, AcceptsDefaultSizesAndLegacy1024Only) {
  for (size_t bits : {1024u, 2048u, 3072u, 4096u, 8192u}) {
    EXPECT_TRUE(ValidateModulusBits(bits).ok()) << bits;
  }
  for (size_t bits : {512u, 1023u, 1536u, 2047u, 2049u, 8194u}) {
    EXPECT_THAT(ValidateModulusBits(bits),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         absl::StrCat("modulus of ", bits, " bits is not supported")));
  }
}

TEST(PaillierPublicKeyTest, AcceptsTestModuliAndReportsSizes) {
  for (size_t bits : {1024u, 2048u, 3072u}) {
    auto primes = TestSafePrimes(bits).value();
    auto key = PaillierPublicKey::Create(primes.first * primes.second);
    ASSERT_TRUE(key.ok()) << key.status();
    EXPECT_EQ(key->modulus_bits(), bits);
    EXPECT_EQ(key->ciphertext_bytes(), bits / 4);
    EXPECT_EQ(key->n_squared(), key->n() * key->n());
  }
}

TEST(PaillierPublicKeyTest, RejectsBadModuli) {
  auto primes = TestSafePrimes(1024).value();
  const mpz_class n = primes.first * primes.second;
  EXPECT_THAT(PaillierPublicKey::Create(mpz_class(0)),
              StatusIs(absl::StatusCode::kInvalidArgument, "must be positive"));
  EXPECT_THAT(PaillierPublicKey::Create(n + 1),
              StatusIs(absl::StatusCode::kInvalidArgument, "must be odd"));
  mpz_class square = (mpz_class(3) << 510) + 1;  // squared: 1024 bits
  square *= square;
  EXPECT_THAT(PaillierPublicKey::Create(square),
              StatusIs(absl::StatusCode::kInvalidArgument, "perfect square"));
  mpz_class with_factor = n - n % 65537;  // a multiple of 65537
  if (mpz_even_p(with_factor.get_mpz_t())) with_factor -= 65537;
  EXPECT_THAT(PaillierPublicKey::Create(with_factor),
              StatusIs(absl::StatusCode::kInvalidArgument, "has the small prime factor"));
  EXPECT_THAT(PaillierPublicKey::Create(n >> 1 | 1),
              StatusIs(absl::StatusCode::kInvalidArgument, "1023 bits is not supported"));
}

TEST(PaillierPublicKeyTest, SignedEncodingRoundTripsAtTheEdges) {
  auto primes = TestSafePrimes(1024).value();
  auto key = PaillierPublicKey::Create(primes.first * primes.second).value();
  const mpz_class half = (key.n() - 1) / 2;
  for (const mpz_class& v : {mpz_class(0), mpz_class(-1), half, mpz_class(-half)}) {
    auto m = key.EncodeSigned(v);
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE(key.ValidatePlaintext(*m, "m").ok());
    EXPECT_EQ(key.DecodeSigned(*m), v);
  }
  EXPECT_EQ(key.EncodeSigned(mpz_class(-1)).value(), key.n() - 1);
  EXPECT_THAT(key.ValidatePlaintext(key.n(), "slot 3"),
              StatusIs(absl::StatusCode::kInvalidArgument, "slot 3 is not a Paillier plaintext"));
}

TEST(SafePrimeTest, GeneratesSafePrimesOfExactSize) {
  SeededRng rng(71);
  for (size_t bits : {32u, 64u, 128u, 256u}) {
    auto p = GenerateSafePrime(bits, rng);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(mpz_sizeinbase(p->get_mpz_t(), 2), bits);
    EXPECT_TRUE(mpz_tstbit(p->get_mpz_t(), bits - 2)) << "second top bit must be set";
    EXPECT_TRUE(IsSafePrime(*p));
    EXPECT_EQ(mpz_fdiv_ui(p->get_mpz_t(), 12), 11u);
  }
  EXPECT_THAT(GenerateSafePrime(8, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "safe prime of 8 bits"));
}

TEST(SafePrimeTest, RecognisesSafeAndUnsafePrimes) {
  EXPECT_TRUE(IsSafePrime(mpz_class(23)));     // 11 prime
  EXPECT_TRUE(IsSafePrime(mpz_class(2039)));   // 1019 prime
  EXPECT_FALSE(IsSafePrime(mpz_class(13)));    // 6 not prime
  EXPECT_FALSE(IsSafePrime(mpz_class(2041)));  // 13 * 157
  EXPECT_FALSE(IsSafePrime(mpz_class(4)));
  auto primes = TestSafePrimes(3072).value();
  EXPECT_TRUE(IsSafePrime(primes.first));
  EXPECT_TRUE(IsSafePrime(primes.second));
}

TEST(DealerTest, FreshKeyAt1024BitsDecrypts) {
  SeededRng rng(72);
  DealerOptions o;
  o.modulus_bits = 1024;
  o.num_parties = 4;
  o.threshold = 3;
  auto key = DealThresholdKey(o, rng);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->public_key->paillier().modulus_bits(), 1024u);
  EXPECT_EQ(key->public_key->delta(), 24);
  ASSERT_EQ(key->shares.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(key->shares[static_cast<size_t>(i)].party(), i + 1);
  // Encryption of m by hand: (1 + m N) r^N.
  const mpz_class& n = key->public_key->n();
  const mpz_class& n2 = key->public_key->n_squared();
  const mpz_class m = 987654321, r = rng.UniformUnit(n);
  mpz_class rn;
  mpz_powm(rn.get_mpz_t(), r.get_mpz_t(), n.get_mpz_t(), n2.get_mpz_t());
  EXPECT_EQ(DecryptForTest(*key, Ciphertext{(1 + m * n) * rn % n2}).value(), m);
}

TEST(DealerTest, RejectsBadOptionsAndPrimes) {
  SeededRng rng(73);
  auto primes = TestSafePrimes(1024).value();
  DealerOptions o;
  o.modulus_bits = 1024;
  o.num_parties = 3;
  o.threshold = 4;
  EXPECT_THAT(DealThresholdKeyFromPrimes(primes.first, primes.second, o, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "threshold = 4 is outside"));
  o.threshold = 0;
  EXPECT_THAT(DealThresholdKey(o, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "threshold = 0"));
  o.num_parties = 0;
  EXPECT_THAT(DealThresholdKey(o, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "num_parties = 0"));
  o = DealerOptions{};
  o.modulus_bits = 1024;
  o.scheme = SharingScheme::kAdditive;
  o.num_parties = 3;
  o.threshold = 2;
  EXPECT_THAT(DealThresholdKeyFromPrimes(primes.first, primes.second, o, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "additive (n-of-n) scheme"));
  o = DealerOptions{};
  o.modulus_bits = 1000;
  EXPECT_THAT(DealThresholdKey(o, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "1000 bits is not supported"));
  o = DealerOptions{};
  o.modulus_bits = 1024;
  EXPECT_THAT(DealThresholdKeyFromPrimes(primes.first, primes.first, o, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "must be distinct"));
  EXPECT_THAT(DealThresholdKeyFromPrimes(primes.first, primes.second + 2, o, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "q is not a safe prime"));
  o.modulus_bits = 2048;
  EXPECT_THAT(DealThresholdKeyFromPrimes(primes.first, primes.second, o, rng),
              StatusIs(absl::StatusCode::kInvalidArgument, "prime p has 512 bits, expected 1024"));
}

TEST(ThresholdPublicKeyTest, FingerprintCoversEveryField) {
  auto a = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 74).value();
  auto b = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 74).value();
  auto c = MakeTestKey(1024, SharingScheme::kShamir, 3, 2, 75).value();
  EXPECT_EQ(a.public_key->fingerprint(), b.public_key->fingerprint());  // deterministic dealing
  EXPECT_NE(a.public_key->fingerprint(), c.public_key->fingerprint());
  std::vector<mpz_class> vks;
  for (int i = 1; i <= 3; ++i) vks.push_back(a.public_key->verification_key(i));
  auto t3 = ThresholdPublicKey::Create(a.public_key->paillier(), SharingScheme::kShamir, 3, 3,
                                       a.public_key->verification_base(), vks,
                                       KeyOrigin::kTrustedDealer);
  ASSERT_TRUE(t3.ok());
  EXPECT_NE((*t3)->fingerprint(), a.public_key->fingerprint());
  EXPECT_EQ(a.public_key->short_fingerprint().size(), 16u);
  EXPECT_THAT(ThresholdPublicKey::Create(a.public_key->paillier(), SharingScheme::kShamir, 3, 2,
                                         a.public_key->verification_base(),
                                         {vks[0], vks[1]}, KeyOrigin::kUnspecified),
              StatusIs(absl::StatusCode::kInvalidArgument, "2 verification_keys for 3 parties"));
  EXPECT_THAT(ThresholdPublicKey::Create(a.public_key->paillier(), SharingScheme::kShamir, 3, 2,
                                         a.public_key->n(), vks, KeyOrigin::kUnspecified),
              StatusIs(absl::StatusCode::kInvalidArgument, "verification_base is not in Z*_{N^2}"));
  EXPECT_THAT(ThresholdPublicKey::Create(a.public_key->paillier(), SharingScheme::kShamir, 65,
                                         2, a.public_key->verification_base(), vks,
                                         KeyOrigin::kUnspecified),
              StatusIs(absl::StatusCode::kInvalidArgument, "num_parties = 65"));
}

}  // namespace
}  // namespace pplda::crypto
