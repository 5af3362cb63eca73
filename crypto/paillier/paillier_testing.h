// Test doubles for threshold Paillier. TESTS AND BENCHMARKS ONLY: the primes
// below are public, so every key made from them is broken by construction.
//
//  - TestSafePrimes(bits): fixed safe primes p, q (checked in here, generated
//    once with GenerateSafePrime) with p q of exactly 1024, 2048 or 3072
//    bits, so tests never spend time generating primes.
//  - MakeTestKey(bits, scheme, n, t, seed): a dealt key from those primes,
//    deterministic given the seed (SeededRng).
//  - DecryptForTest(key, c): partial decryptions by the first t shares,
//    combined.
// Never include this header from daemon code.
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_TESTING_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_TESTING_H_

#include <gmpxx.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_dealer.h"
#include "crypto/random/secure_rng_testing.h"

namespace pplda::crypto {

inline absl::StatusOr<std::pair<mpz_class, mpz_class>> TestSafePrimes(size_t modulus_bits) {
  switch (modulus_bits) {
    case 1024:
      return std::make_pair(
          mpz_class("ee1635bdb4ebaea001ff481cee5b89566363f0e822605370d2cdfdd99d285cca"
                    "1802e9e60b73f24be951276b0fec9c6d9adba91c1edb942ca5bbf17912a296b3",
                    16),
          mpz_class("ee43c2d6d9f534aa638f74a8618721ccc0618d338b80fd2baed8e5fd594e0d41"
                    "5d16b2724105679921b790424d320f2adc09618e4596c59e068193cce744dcab",
                    16));
    case 2048:
      return std::make_pair(
          mpz_class("f35f94c7ce8519ea64ec9ebf54817e2a33ca2b4952f7b9d1bf660207780a3d0d"
                    "8c4befa49f330414bd32295523a206af67ac922feed1ef244c6ce29e24a59dec"
                    "6f23bd05c28e2a79623d4d3256cab6556391c60a720d34180e59ae5d8ab8349a"
                    "764ae9d3abf6d3997fde8797b5bbc034c51b2b1b713447711e10e04c0418c413",
                    16),
          mpz_class("d47977347f5e2522add10ed816b95ef41933a645413e97b60faa5ee9b069036d"
                    "db23c378e8de2d2c97b239987cde5c70708d2baf9d101a3257c182b6e8cc5e2b"
                    "388f19cf0e1a82d6b705c1983981ccaf0749016ca1aff9a27b37605d67c08229"
                    "1ff53d6192684f8ffe25994ad32c30e66496110ff22a5456a49f29514f789c3b",
                    16));
    case 3072:
      return std::make_pair(
          mpz_class("ddf32b4eefb51777bc4ccc23088da362f5fdb1f1537a46587511a63230f4cfb3"
                    "79af3f8420af047303fa5f279de876029d8930f5fa5f50d59af14880cd6ecdf6"
                    "0cc2a91232e80339469ff180958eabee3d151a9d11417d5f3c4d957f525c1274"
                    "712653e1723f7bc5bdd4ec910607bb74be0949c405c5e2594a28f9dd1c71865c"
                    "aaf8911435ac5dcf65c70626965f0af03ac76f4675785dca577866d8fa2fade2"
                    "ba8ecb5c70535b86bbfdd897f9b56a488da81a1a28b6f1c063c79c0b496b30bf",
                    16),
          mpz_class("fadd47d97266e31e15eeadbad2fc5540eb24b0ede5c4b48fb53c12efe292bc36"
                    "5d6e38f132d3dfc0398e6b8c00be171eb4a6ccf25d115bae70899586b8f4a894"
                    "af6cf6d546122045dedf4da84711bea58d0450ba6c557fe52361acac380041e7"
                    "c0e9c0c9961b41edfb9f8ec1afa738b9030d9aa0efaaaf4cf5b8a5e476e73040"
                    "4d241683e1c4d6bbf50c8e477ae381f81c1211512a5e3317ab05fdb30bd5b986"
                    "d1abac2bd1ab9a92ddc41de3a085bb09335204c976d9edf995f437bb26e96417",
                    16));
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "no fixed test primes for a ", modulus_bits, "-bit modulus (1024, 2048, 3072)"));
  }
}

inline absl::StatusOr<DealtKey> MakeTestKey(size_t modulus_bits, SharingScheme scheme,
                                            int num_parties, int threshold,
                                            uint64_t seed = 1) {
  absl::StatusOr<std::pair<mpz_class, mpz_class>> primes = TestSafePrimes(modulus_bits);
  if (!primes.ok()) return primes.status();
  SeededRng rng(seed);
  DealerOptions options;
  options.modulus_bits = modulus_bits;
  options.scheme = scheme;
  options.num_parties = num_parties;
  options.threshold = threshold;
  return DealThresholdKeyFromPrimes(primes->first, primes->second, options, rng);
}

inline absl::StatusOr<mpz_class> DecryptForTest(const DealtKey& key, const Ciphertext& c) {
  std::vector<PartialDecryption> partials;
  for (int i = 0; i < key.public_key->threshold(); ++i) {
    absl::StatusOr<mpz_class> v = key.shares[static_cast<size_t>(i)].PartialDecrypt(c);
    if (!v.ok()) return v.status();
    partials.push_back(PartialDecryption{i + 1, *std::move(v)});
  }
  return PaillierCombiner(key.public_key).Combine(partials);
}

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_TESTING_H_
