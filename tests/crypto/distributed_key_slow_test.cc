// The 2048-bit proofs of dealer-free keys, label "slow" (minutes
// on 2 cores, so kept out of deploy/test.sh; run with `ctest -L slow`):
// three parties in one process generate a 2048-bit shared modulus (checked
// to be a product of two primes of 1024 bits, with the factors known only
// to the test harness) and a threshold key from it that decrypts with any
// two of the three parties.
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>

#include "crypto/keygen/distributed_threshold_key.h"
#include "crypto/mpc/mpc_testing.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

TEST(DistributedKeySlowTest, ThreePartiesMakeA2048BitKeyThatAnyTwoDecryptWith) {
  auto bed = MpcTestbed::Create(3, 1, 24).value();
  SharedModulusOptions options;  // 2048 bits
  std::mutex mu;
  mpz_class p = 0, q = 0;
  std::vector<std::optional<PaillierKeyShare>> shares(3);
  std::vector<ThresholdPublicKeyPtr> keys(3);
  SharedModulusStats stats;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(bed->Run([&](MpcEngine& engine) -> absl::Status {
                  absl::StatusOr<SharedModulus> modulus = GenerateSharedModulus(options, engine);
                  if (!modulus.ok()) return modulus.status();
                  {
                    std::lock_guard<std::mutex> lock(mu);
                    p += modulus->p_share.value();
                    q += modulus->q_share.value();
                    stats = modulus->stats;
                  }
                  absl::StatusOr<DistributedKey> key =
                      DeriveThresholdKey(*modulus, options.sigma, engine);
                  if (!key.ok()) return key.status();
                  std::lock_guard<std::mutex> lock(mu);
                  keys[engine.party_id()] = key->public_key;
                  shares[engine.party_id()].emplace(std::move(key->share));
                  return absl::OkStatus();
                }).ok());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("2048-bit key: %.1f s, %lld candidate pairs, %lld biprimality tests, %d batches, "
              "%.1f MB sent by party 0\n",
              seconds, static_cast<long long>(stats.candidate_pairs),
              static_cast<long long>(stats.biprimality_tests), stats.batches,
              bed->network().Stats().parties[0].bytes_sent / 1e6);
  const ThresholdPublicKeyPtr& key = keys[0];
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(key->paillier().modulus_bits(), 2048u);
  EXPECT_EQ(p * q, key->n());
  EXPECT_GT(mpz_probab_prime_p(p.get_mpz_t(), 40), 0);
  EXPECT_GT(mpz_probab_prime_p(q.get_mpz_t(), 40), 0);
  EXPECT_EQ(BitLength(p), 1024u);
  EXPECT_EQ(BitLength(q), 1024u);
  for (int i = 1; i < 3; ++i) EXPECT_EQ(keys[i]->fingerprint(), key->fingerprint());
  SeededRng rng(7);
  PaillierCombiner combiner(key);
  for (const mpz_class m : {mpz_class(0), mpz_class(31337), mpz_class(key->n() - 1)}) {
    mpz_class rn;
    const mpz_class r = rng.UniformUnit(key->n());
    mpz_powm(rn.get_mpz_t(), r.get_mpz_t(), key->n().get_mpz_t(), key->n_squared().get_mpz_t());
    const Ciphertext c{(1 + m * key->n()) % key->n_squared() * rn % key->n_squared()};
    for (auto [a, b] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) {
      std::vector<PartialDecryption> partials = {{a + 1, *shares[a]->PartialDecrypt(c)},
                                                 {b + 1, *shares[b]->PartialDecrypt(c)}};
      absl::StatusOr<mpz_class> out = combiner.Combine(partials);
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_EQ(*out, m);
    }
  }
}

}  // namespace
}  // namespace pplda::crypto
