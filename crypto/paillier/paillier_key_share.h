// PaillierKeyShare: one party's SECRET share s_i of the threshold Paillier
// decryption exponent (scheme in paillier_threshold_key.h), and the partial
// decryptions computed with it.
//
//   PartialDecrypt(c) = c^(2 Delta s_i) mod N^2, for c in Z*_{N^2}.
//
// Cost: one exponentiation modulo N^2 with an exponent of about 2 |N| +
// bits(Delta) bits. The share holder does not know p and q, so no CRT
// speed-up is possible; the baseline is one plain mpz_powm of that size
// (bench_paillier reports the ratio). Batches (PartialDecryptBatch*) go
// through BatchModExp (batch_modexp.h): on CPUs with AVX-512 IFMA eight
// partial decryptions run side by side in the 8-lane kernel, which is
// constant time in the exponent bits; elsewhere, and for single
// PartialDecrypt calls, GMP's mpz_powm is used, or mpz_powm_sec (1.1-1.5x
// slower) after UseConstantTimeExponentiation(true), for deployments where
// an adversary can time single partial decryptions: see docs/crypto.md,
// "Timing side channels". Results are identical on every path.
//
// Create() checks 1 <= party <= n, 0 <= s_i < 2^(bits(N^2) + 128), and
// consistency with the public key: v^(Delta s_i) = v_i mod N^2 (a share that
// belongs to another key or party fails here with InvalidArgument).
// PartialDecrypt* return InvalidArgument naming the ciphertext's index when a
// ciphertext is not in Z*_{N^2}.
//
// Secret handling: s_i and 2 Delta s_i are wiped (sodium_memzero) when the
// share is destroyed; the share is never logged. Move-only.
// Thread-safety: const methods may be called concurrently.
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_KEY_SHARE_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_KEY_SHARE_H_

#include <gmpxx.h>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/arith/big_int.h"
#include "crypto/modexp/batch_modexp.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

class PaillierKeyShare {
 public:
  static absl::StatusOr<PaillierKeyShare> Create(ThresholdPublicKeyPtr key, int party,
                                                 SecretInt share);

  PaillierKeyShare(PaillierKeyShare&&) = default;
  PaillierKeyShare& operator=(PaillierKeyShare&&) = default;

  int party() const { return party_; }
  const ThresholdPublicKeyPtr& public_key() const { return key_; }
  // s_i, for serialization into a 0600 key file only.
  const mpz_class& secret_share() const { return share_.value(); }

  // Selects mpz_powm_sec (true) or mpz_powm (false, the default) for
  // partial decryptions computed with GMP (the IFMA kernel is constant time
  // regardless). Not synchronised: call before sharing the object.
  void UseConstantTimeExponentiation(bool constant_time) { constant_time_ = constant_time; }
  bool constant_time() const { return constant_time_; }

  // c^(2 Delta s_i) mod N^2.
  absl::StatusOr<mpz_class> PartialDecrypt(const Ciphertext& c) const;
  // Partial decryptions of every ciphertext, in order, over `pool` (may be
  // null); proofs left empty.
  absl::StatusOr<PartialDecryptionBatch> PartialDecryptBatch(
      absl::Span<const Ciphertext> ciphertexts, ThreadPool* pool) const;
  // As above, with a proof of correct decryption per value (3x the cost).
  absl::StatusOr<PartialDecryptionBatch> PartialDecryptBatchWithProofs(
      absl::Span<const Ciphertext> ciphertexts, SecureRng& rng, ThreadPool* pool) const;

 private:
  PaillierKeyShare(ThresholdPublicKeyPtr key, int party, SecretInt share);
  // out = c^(2 Delta s_i) mod N^2 for a validated c.
  void Exponentiate(const mpz_class& c, mpz_class& out) const;

  ThresholdPublicKeyPtr key_;
  ModExpContext modexp_;  // modulus N^2
  int party_ = 0;
  SecretInt share_;     // s_i
  SecretInt x_;         // Delta s_i
  SecretInt exponent_;  // 2 Delta s_i
  bool constant_time_ = false;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_KEY_SHARE_H_
