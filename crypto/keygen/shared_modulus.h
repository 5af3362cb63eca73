// GenerateSharedModulus: dealer-free generation of an RSA modulus N = p q
// among n compute parties (semi-honest, honest majority 2t < n), no party
// ever holding p, q or phi(N): each ends with additive integer shares p_i,
// q_i (p = sum_i p_i, q = sum_i q_i) and the public N. The first step of
// dealer-free threshold Paillier keys; the decryption key from
// these shares is not built yet.
//
// Protocol (Boneh and Franklin 1997, "Efficient generation of shared RSA
// keys", with the distributed sieving of Malkin, Wu and Boneh 1999), in
// batches of candidate pairs, all arithmetic BGW over a public prime field
// F_Q (big_field_mpc.h), every step one round of the engine's transport:
//  1. Sieving. M = 4 * (the odd primes up to L), L as large as the size
//     bound allows (n bits(M) <= bits/2 - 66). Each party picks a_i, a unit
//     mod M (a_0 = 3 mod 4, the others 1 mod 4) and deals it with a mask
//     R_i of n bits(M) + sigma bits (a multiple of 4 for i > 0). The
//     product A = prod a_i (ceil(log2 n) Mul rounds) is opened masked:
//     A + sum R_i. Party 0 takes c_0 = (A + sum R) - R_0, the others
//     c_i = -R_i, so sum c_i = A over the integers, and
//         p_i = c_i + M r_i (+ M O for party 0),  r_i uniform,
//     so p = A + M (O + sum r_i) is = A (mod M): never divisible by a prime
//     up to L, p = 3 (mod 4), and, with the public offset O, p lies in
//     [3 2^(bits/2 - 2), 2^(bits/2)), so N has exactly `bits` bits. The
//     same for q.
//  2. N. Each party deals p_i, q_i (degree t) and a zero sharing of degree
//     2t; the local products plus the zero sharing are opened: N.
//  3. Public trial division of N by the primes in (L, public_trial_bound].
//  4. Biprimality test (BF97 Section 3): for public bases g_j (hash of N and
//     j, Jacobi(g_j, N) = 1), party 0 sends v_0 = g^((N + 1 - p_0 - q_0)/4),
//     party i > 0 v_i = g^((p_i + q_i)/4) (mod N); the test passes when
//     v_0 = +-prod_{i>0} v_i (mod N), for biprimality_rounds bases, and
//     gcd(z, N) = 1 for z = r (p + q - 1) mod N, r a shared random value,
//     opened as r (p + q - 1) + N R' with R' hiding the quotient (sigma
//     bits). A non-biprime passes with probability at most
//     2^-biprimality_rounds (BF97 Lemma 3.2 and Section 3.2).
// What the parties see: ciphertext-free BGW shares (t of them uniform);
// openings A + R (within 2^-sigma of independent of A), the N of every
// candidate pair (a rejected pair's p, q are discarded; the accepted N is
// the output), the v_j and z of candidates that reach the test (BF97
// Section 5 simulates them from N). The view tests: the sieve's openings
// are uniform modulo 4 * 3 * 5, which A alone never is
// (tests/crypto/shared_modulus_view_stat_test.cc); v_0 is v_1 v_2 times the
// quadratic character of g mod p (a function of N and g), and the gcd
// opening is uniform mod N and its quotient by N does not depend on p + q
// (tests/crypto/biprimality_view_stat_test.cc).
// Randomness: the engine's random source (engine.rng()). Rounds and bytes
// are the engine transport's.
// Errors: InvalidArgument for options out of range; ResourceExhausted when
// max_batches batches find no biprime; transport and share-consistency
// errors as the engine reports them.
#ifndef PPLDA_CRYPTO_KEYGEN_SHARED_MODULUS_H_
#define PPLDA_CRYPTO_KEYGEN_SHARED_MODULUS_H_

#include <gmpxx.h>

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/arith/big_int.h"
#include "crypto/keygen/big_field_mpc.h"
#include "crypto/mpc/mpc_engine.h"

namespace pplda::crypto {

struct SharedModulusOptions {
  int modulus_bits = 2048;           // N's exact length: even, 256..8192
  int pairs_per_batch = 0;           // candidate pairs per batch; 0: by size
  int biprimality_rounds = 40;       // error <= 2^-rounds; 1..256
  int sigma = 40;                    // statistical hiding of the openings
  uint32_t public_trial_bound = 1u << 16;
  int max_batches = 200;
};

struct SharedModulusStats {
  int64_t candidate_pairs = 0;     // sieved pairs whose N was computed
  int64_t biprimality_tests = 0;   // pairs that reached the test
  int batches = 0;
};

struct SharedModulus {
  mpz_class n;
  SecretInt p_share;  // this party's additive integer share of p (may be < 0)
  SecretInt q_share;
  SharedModulusStats stats;
};

absl::StatusOr<SharedModulus> GenerateSharedModulus(const SharedModulusOptions& options,
                                                    MpcEngine& engine);

// The sieve's public parameters for `options` and n parties (exposed for
// tests): M, its largest odd prime L, the offset O, the bound on sum r_i,
// the mask length, and the field prime Q.
struct ModulusSievePlan {
  mpz_class sieve_modulus;
  uint32_t largest_sieve_prime = 0;
  mpz_class offset;
  mpz_class r_sum_bound;
  int mask_bits = 0;
  mpz_class field_prime;
  int pairs_per_batch = 0;
};
absl::StatusOr<ModulusSievePlan> PlanModulusSieve(const SharedModulusOptions& options,
                                                  int num_parties);

// The biprimality test's pieces (BF97), pure, for tests: the public base j
// for N, party i's value for base g, and the check of all parties' values.
mpz_class BiprimalityBase(const mpz_class& n, int j);
mpz_class BiprimalityValue(int party, const mpz_class& n, const mpz_class& g,
                           const mpz_class& p_share, const mpz_class& q_share);
bool BiprimalityValuesAgree(const mpz_class& n, const std::vector<mpz_class>& values);

// The gcd step of the biprimality test (BF97 Section 3.2) on its own, as the
// generation runs it (one Deal and one Open round of `mpc`), exposed for the
// view test (tests/crypto/biprimality_view_stat_test.cc): sum_shares[k] is
// this party's Shamir share (degree t over mpc's field) of p_k + q_k for
// moduli[k]; every party deals r_i uniform in [0, N 2^sigma), R'_i of
// 2 sigma + modulus_bits / 2 + 4 bits and a zero sharing of degree 2t, and
// z'_k = r (p_k + q_k - 1) + N R' is opened (the caller tests
// gcd(z'_k mod N, N) = 1). Returns the opened z'_k, the same at every party.
// mpc's field must hold z' (the plan's field_prime does). InvalidArgument
// when the two vectors differ in length; transport errors as mpc reports.
absl::StatusOr<std::vector<mpz_class>> OpenBiprimalityGcdValues(
    const std::vector<mpz_class>& moduli, const std::vector<mpz_class>& sum_shares,
    int modulus_bits, int sigma, BigFieldMpc& mpc, SecureRng& rng);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_KEYGEN_SHARED_MODULUS_H_
