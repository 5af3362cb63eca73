// Proof of correct partial decryption for threshold Paillier (Shoup,
// EUROCRYPT 2000, section 2; Damgard-Jurik, PKC 2001, section 4.1), made
// non-interactive with the Fiat-Shamir transform.
//
// Statement, for party i with x_i = Delta s_i, ciphertext c and partial
// decryption c_i: log_{c^4}(c_i^2) = log_v(v_i)  (= x_i).
//   Prove:  r uniform in [0, 2^(bits(N^2) + bits(Delta) + 256));
//           a = c^(4r), b = v^r mod N^2;
//           e = H(fingerprint, i, c^4, c_i^2, v, v_i, a, b) in [0, 2^128);
//           z = r + e x_i  (over the integers).
//   Verify: a' = c^(4z) (c_i^2)^(-e), b' = v^z v_i^(-e) mod N^2, and
//           e = H(fingerprint, i, c^4, c_i^2, v, v_i, a', b').
// H is BLAKE2b over length-prefixed fields, truncated to 128 bits. The 128
// extra bits of r hide e x_i statistically (distance <= 2^-128).
// Squaring c_i removes any factor of order 2 a cheating party could add.
// ProveDecryptionBatch makes the same proofs for many ciphertexts, drawing
// r_0, r_1, ... in order and computing every a and b with BatchModExp
// (per-element exponents; the AVX-512 IFMA kernel, constant time in r, when
// the CPU has it): the same proofs as ProveDecryption called in order with
// the same random stream.
// Cost: prover 2 exponentiations, verifier 2 long and 2 of 128 bits (both
// batched on the kernel by the *Batch functions); optional in the semi-honest
// protocol (DESIGN.md section 3), available for auditing and the combiner.
// Thread-safe (pure functions).
#ifndef PPLDA_CRYPTO_PAILLIER_DECRYPTION_PROOF_H_
#define PPLDA_CRYPTO_PAILLIER_DECRYPTION_PROOF_H_

#include <gmpxx.h>

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/modexp/batch_modexp.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

inline constexpr size_t kProofChallengeBits = 128;

// x = Delta s_i (secret); partial = c^(2x) mod N^2. Inputs are not validated.
DecryptionProof ProveDecryption(const ThresholdPublicKey& key, int party, const mpz_class& x,
                                const Ciphertext& c, const mpz_class& partial,
                                SecureRng& rng);

// One proof per ciphertext; partials[i] = cs[i]^(2x). `n_squared` is a
// context for N^2 of `key`. InvalidArgument when the spans differ in length.
absl::StatusOr<std::vector<DecryptionProof>> ProveDecryptionBatch(
    const ThresholdPublicKey& key, const ModExpContext& n_squared, int party,
    const mpz_class& x, absl::Span<const Ciphertext> cs, absl::Span<const mpz_class> partials,
    SecureRng& rng, ThreadPool* pool);

// OK, or InvalidArgument "decryption proof of party <i> ... does not verify".
// c and partial must already be validated as elements of Z*_{N^2}.
absl::Status VerifyDecryption(const ThresholdPublicKey& key, int party, const Ciphertext& c,
                              const mpz_class& partial, const DecryptionProof& proof);

// VerifyDecryption for every value of a batch (`n_squared` must be a context
// for N^2 of `key`): OK, or InvalidArgument
// "value <j>: decryption proof of party <i> ..." for the lowest j that does
// not verify (or whose proof or lengths are malformed). The two long
// exponentiations of each proof (c^(4z), v^z) go through BatchModExp (the
// AVX-512 IFMA kernel when present, over `pool`); the verdicts equal
// VerifyDecryption's. cs and partials must already be validated.
absl::Status VerifyDecryptionBatch(const ThresholdPublicKey& key, const ModExpContext& n_squared,
                                   int party, absl::Span<const Ciphertext> cs,
                                   absl::Span<const mpz_class> partials,
                                   absl::Span<const DecryptionProof> proofs, ThreadPool* pool);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_DECRYPTION_PROOF_H_
