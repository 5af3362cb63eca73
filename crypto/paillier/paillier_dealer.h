// DEALER MODE threshold Paillier key generation: ONE process generates the
// factorisation of N and deals every party's share. Whoever runs the dealer
// can decrypt everything, alone. For tests, benchmarks and demos only; keys
// made here carry KeyOrigin::kTrustedDealer, which the daemons display.
// Dealer-free distributed generation (Boneh-Franklin / Nishide-Sakurai) is a
// separate component producing the same ThresholdPublicKey / PaillierKeyShare
// types.
//
// Dealing (scheme of paillier_threshold_key.h):
//   p = 2p' + 1, q = 2q' + 1 distinct safe primes of bits / 2 bits each,
//   N = p q, m = p' q', d = m (m^(-1) mod N)  (d = 0 mod m, d = 1 mod N).
//   SHAMIR:   a_1..a_{t-1} uniform in [0, N m), s_i = f(i) mod N m.
//   ADDITIVE: s_1..s_{n-1} uniform in [0, N m), s_n = d - sum mod N m.
//   v = r^2 mod N^2 for r uniform in Z*_{N^2}; v_i = v^(Delta s_i) mod N^2.
// p, q, m, d and the coefficients are wiped before returning.
// Errors: InvalidArgument for an unsupported modulus size, a bad (n, t), or
// (FromPrimes) p, q that are not distinct safe primes of bits / 2 bits.
// Thread-safety: reentrant.
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_DEALER_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_DEALER_H_

#include <gmpxx.h>

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

struct DealerOptions {
  size_t modulus_bits = kDefaultModulusBits;
  SharingScheme scheme = SharingScheme::kShamir;
  int num_parties = 3;
  int threshold = 2;  // must equal num_parties for kAdditive
};

struct DealtKey {
  ThresholdPublicKeyPtr public_key;
  std::vector<PaillierKeyShare> shares;  // shares[i - 1] belongs to party i
};

// Generates fresh safe primes (about 1 s at 2048 bits, 20-40 s at 3072).
absl::StatusOr<DealtKey> DealThresholdKey(const DealerOptions& options, SecureRng& rng);
// Deals from given safe primes (fast; used with fixed test primes).
absl::StatusOr<DealtKey> DealThresholdKeyFromPrimes(const mpz_class& p, const mpz_class& q,
                                                    const DealerOptions& options,
                                                    SecureRng& rng);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_DEALER_H_
