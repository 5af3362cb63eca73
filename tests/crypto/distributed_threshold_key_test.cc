#include "crypto/keygen/distributed_threshold_key.h"

#include <mutex>
#include <optional>

#include "crypto/mpc/mpc_testing.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/random/secure_rng_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

// Three parties make a key in one process; returns the public key (checked
// equal at every party) and each party's share.
struct Made {
  ThresholdPublicKeyPtr key;
  std::vector<std::optional<PaillierKeyShare>> shares;
  mpz_class p, q;  // the test harness's sum of the shares (tests only)
};

Made Make(int bits, uint64_t seed) {
  auto bed = MpcTestbed::Create(3, 1, seed).value();
  SharedModulusOptions options;
  options.modulus_bits = bits;
  Made made;
  made.shares.resize(3);
  std::vector<ThresholdPublicKeyPtr> keys(3);
  std::mutex mu;
  const absl::Status s = bed->Run([&](MpcEngine& engine) -> absl::Status {
    absl::StatusOr<SharedModulus> modulus = GenerateSharedModulus(options, engine);
    if (!modulus.ok()) return modulus.status();
    {
      std::lock_guard<std::mutex> lock(mu);
      made.p += modulus->p_share.value();
      made.q += modulus->q_share.value();
    }
    absl::StatusOr<DistributedKey> key = DeriveThresholdKey(*modulus, options.sigma, engine);
    if (!key.ok()) return key.status();
    std::lock_guard<std::mutex> lock(mu);
    keys[engine.party_id()] = key->public_key;
    made.shares[engine.party_id()].emplace(std::move(key->share));
    return absl::OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s;
  for (int p = 1; p < 3; ++p) {
    EXPECT_EQ(keys[p]->fingerprint(), keys[0]->fingerprint()) << "party " << p;
  }
  made.key = keys[0];
  return made;
}

// Textbook encryption (1 + m N) r^N mod N^2.
Ciphertext Encrypt(const ThresholdPublicKey& key, const mpz_class& m, SecureRng& rng) {
  const mpz_class& n = key.n();
  const mpz_class& n2 = key.n_squared();
  mpz_class rn;
  const mpz_class r = rng.UniformUnit(n);
  mpz_powm(rn.get_mpz_t(), r.get_mpz_t(), n.get_mpz_t(), n2.get_mpz_t());
  return Ciphertext{(1 + m * n) % n2 * rn % n2};
}

void ExpectDecryptsByEveryPair(const Made& made) {
  ASSERT_NE(made.key, nullptr);
  EXPECT_EQ(made.key->origin(), KeyOrigin::kDistributed);
  EXPECT_EQ(made.key->threshold(), 2);
  EXPECT_EQ(made.p * made.q, made.key->n());
  SeededRng rng(99);
  const std::vector<mpz_class> plaintexts = {0, 1, 42, made.key->n() - 1,
                                             rng.UniformBelow(made.key->n())};
  PaillierCombiner combiner(made.key);
  for (const mpz_class& m : plaintexts) {
    const Ciphertext c = Encrypt(*made.key, m, rng);
    for (auto [a, b] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) {
      std::vector<PartialDecryption> partials;
      for (int i : {a, b}) {
        absl::StatusOr<mpz_class> v = made.shares[i]->PartialDecrypt(c);
        ASSERT_TRUE(v.ok()) << v.status();
        partials.push_back({i + 1, *v});
      }
      absl::StatusOr<mpz_class> out = combiner.Combine(partials);
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_EQ(*out, m) << "parties " << a + 1 << " and " << b + 1;
    }
  }
  // Proofs of correct decryption are made and verified as for dealt keys.
  std::vector<Ciphertext> batch = {Encrypt(*made.key, 7, rng), Encrypt(*made.key, 8, rng)};
  absl::StatusOr<PartialDecryptionBatch> proved =
      made.shares[2]->PartialDecryptBatchWithProofs(batch, rng, nullptr);
  ASSERT_TRUE(proved.ok()) << proved.status();
  EXPECT_TRUE(combiner.VerifyBatch(batch, *proved, nullptr).ok());
}

TEST(DistributedThresholdKeyTest, KeyFromA1024BitSharedModulusDecryptsWithAnyTwoParties) {
  ExpectDecryptsByEveryPair(Make(1024, 22));
}

TEST(DistributedThresholdKeyTest, AShareOfAnotherPartyDoesNotDecrypt) {
  const Made made = Make(1024, 23);
  SeededRng rng(5);
  const Ciphertext c = Encrypt(*made.key, 1234, rng);
  // Party 1's value presented as party 2's: the combination is refused or wrong.
  const mpz_class v1 = *made.shares[0]->PartialDecrypt(c);
  const mpz_class v3 = *made.shares[2]->PartialDecrypt(c);
  PaillierCombiner combiner(made.key);
  absl::StatusOr<mpz_class> out = combiner.Combine({{2, v1}, {3, v3}});
  EXPECT_TRUE(!out.ok() || *out != 1234);
}

TEST(DistributedThresholdKeyTest, BadSigmaIsRefused) {
  auto bed = MpcTestbed::Create(3, 1, 4).value();
  SharedModulus nothing;
  nothing.n = 35;
  EXPECT_EQ(DeriveThresholdKey(nothing, 5, bed->engine(0)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pplda::crypto
