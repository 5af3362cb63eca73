// DeriveThresholdKey: a threshold Paillier key from a shared modulus
// (shared_modulus.h) with no dealer: the compute parties turn their additive
// shares of p and q into Shamir shares over the integers of a decryption
// exponent d = 0 mod phi(N), d = 1 mod N, usable by the existing partial
// decryption and combination (paillier_key_share.h, paillier_combiner.h).
// GenerateDistributedThresholdKey runs GenerateSharedModulus first.
//
// Protocol (semi-honest, honest majority; BGW over a public prime field of
// 2 bits(N) + 3 sigma + 64 bits; 5 rounds after the modulus):
//  1. phi_0 = N + 1 - p_0 - q_0, phi_i = -(p_i + q_i): additive shares of phi.
//     Each party deals phi_i, beta_i uniform in [0, N) and R_i (bits(N) +
//     sigma + 4 bits); gamma = phi beta + N R is opened and reduced mod N:
//     phi beta mod N, uniform in Z*_N (beta's honest part is uniform).
//  2. theta = gamma^-1 mod N (public); each party reduces beta'_i =
//     beta_i theta mod N locally; d = phi sum_i beta'_i is computed (Mul)
//     and opened masked (d + R_d, sigma extra bits) into additive integer
//     shares d_i. d = phi beta theta = 1 (mod N) and = 0 (mod phi), and
//     d < n N^2.
//  3. Each party deals its d_i on an integer polynomial of degree T - 1
//     (T = t + 1 partial decryptions combine) with non-negative random
//     coefficients of bits(n N^2) + sigma bits; party j's key share is
//     s_j = sum_i f_i(j) = d + j (sum of the coefficients) >= 0, within the
//     key share bound (bits(N^2) + 128). Delta = n! times the Lagrange
//     coefficients are integers, so sum lambda_j s_j = Delta d, as the
//     combiner needs.
//  4. v = r^2 mod N^2 for a public r (hash of N); each party publishes
//     v_j = v^(Delta s_j); every party checks that every v_j lies on the
//     polynomial through v_1..v_T (v_j^Delta = prod_{i<=T} v_i^(Delta L_i(j))),
//     so inconsistent shares are refused (InvalidArgument) before use.
// N is not a product of safe primes: decryption and combination are exact
// (Z*_{N^2} has order N phi(N), and d = 0 mod phi), but the soundness
// argument of the proofs of correct decryption (Shoup's, for the cyclic
// group of squares of a safe-prime modulus) does not carry over as is;
// Damgard and Koprowski (EUROCRYPT 2001) give one for such moduli under an
// extra assumption. The key records KeyOrigin::kDistributed.
// What the parties see beyond N: gamma (uniform in Z*_N), d + R_d (within
// 2^-sigma of independent of d), their polynomial shares (one share of each
// polynomial per party: statistically hiding with sigma-bit slack), and
// the verification keys.
#ifndef PPLDA_CRYPTO_KEYGEN_DISTRIBUTED_THRESHOLD_KEY_H_
#define PPLDA_CRYPTO_KEYGEN_DISTRIBUTED_THRESHOLD_KEY_H_

#include "absl/status/statusor.h"
#include "crypto/keygen/shared_modulus.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/paillier/paillier_threshold_key.h"

namespace pplda::crypto {

struct DistributedKey {
  ThresholdPublicKeyPtr public_key;  // every party gets the same
  PaillierKeyShare share;            // this party's (party index engine.party_id() + 1)
  SharedModulusStats modulus_stats;
};

absl::StatusOr<DistributedKey> DeriveThresholdKey(const SharedModulus& modulus, int sigma,
                                                  MpcEngine& engine);

absl::StatusOr<DistributedKey> GenerateDistributedThresholdKey(
    const SharedModulusOptions& options, MpcEngine& engine);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_KEYGEN_DISTRIBUTED_THRESHOLD_KEY_H_
