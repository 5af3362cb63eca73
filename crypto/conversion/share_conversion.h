// Ciphertext-to-share conversion: turns packed threshold-Paillier
// ciphertexts into Shamir shares of their slot values (DESIGN.md section 4,
// "mask-and-decrypt"; paper "secure distributed LDA", sections 3.6 and 4.2).
//
// Input: ciphertexts C_1..C_m, identical at every compute party, packing
// `count` signed slot values d_i with |d_i| < 2^A under a PackingLayout
// (packing.h; A = layout.sum_bits()) whose mask_parties equals the number
// of compute parties n. Output: this party's degree-t Shamir shares of
// every d_i in GF(2^127 - 1) (d_i represented as d_i mod p).
//
// Protocol (2 rounds for any count):
//  1. Every party p draws masks R_{p,i} uniform in [0, 2^(A + sigma))
//     (layout.mask_bound()), encrypts them packed, E(PackMasks(R_p)), and
//     sends every other party those ciphertexts together with its Shamir
//     shares of r_{p,i} = R_{p,i} mod p (one message per peer).
//  2. Every party forms the same masked ciphertexts
//     C'_k = C_k * prod_p E(R_p)_k (slot-wise d_i + sum_p R_{p,i}); the
//     first T parties (T = the Paillier key's threshold: any T partials
//     combine; T = n for the additive scheme) partially decrypt them and
//     send the partials to every other party; the rest send nothing.
//  Then every party combines the partials, unpacks
//  M_i = d_i + sum_p R_{p,i} (UnpackMasked checks every slot's range), and
//  outputs <d_i> = M_i - sum_p <r_{p,i}>, exact because
//  M_i - sum_p R_{p,i} = d_i over the integers.
//
// Security (semi-honest, any coalition of up to t < n/2 parties): each mask
// is known to its maker only; the opened M_i contains at least one honest
// party's mask, uniform over 2^(A+sigma) values, so M_i is within
// 2^(A+1) / 2^(A+sigma) = 2^(1-sigma) statistical distance of a value
// independent of d_i (d_i spans 2^(A+1) values); ciphertexts are
// semantically secure; Shamir shares of r reveal nothing to t parties.
//
// Requirements (InvalidArgument otherwise, naming the field): the key has
// n = engine.num_parties() parties, the key share belongs to party
// engine.party_id() + 1 (Paillier parties are 1-based), the layout has
// mask_parties = n and sigma >= engine sigma, A <= 125 (so that d_i fits the
// field's signed range), ciphertexts.size() = layout.NumPlaintexts(count).
// Errors from peers (malformed messages, ciphertexts outside Z*_{N^2},
// inconsistent partial decryptions, masked slots out of range) are
// InvalidArgument / OutOfRange naming the party. Ciphertexts that differ
// between parties make the partial decryptions inconsistent and are
// reported the same way.
// Verified mode (EnableProofs(rng)): the decrypting parties attach Shoup
// proofs of correct decryption (decryption_proof.h) to their partials and
// every receiver verifies each peer's batch before combining, so a party
// that sends a wrong partial is named (InvalidArgument) instead of silently
// corrupting the opened values. Cost: the proofs triple the decryptors'
// exponentiations and each receiver verifies (T - 1) batches (about 4
// exponentiations per value); docs/performance.md gives the measured cost.
// Thread-safety: Convert() is const but uses the engine, which belongs to
// one thread.
#ifndef PPLDA_CRYPTO_CONVERSION_SHARE_CONVERSION_H_
#define PPLDA_CRYPTO_CONVERSION_SHARE_CONVERSION_H_

#include <gmpxx.h>

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_shares.h"
#include "crypto/paillier/packing.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_combiner.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_evaluator.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

// x mod p for any integer x (negative x maps to p - (|x| mod p)).
FieldElement FieldElementFromMpz(const mpz_class& x);

class CiphertextToShares {
 public:
  // All references must outlive the converter. `pool` may be null; it runs
  // the Paillier encryptions, partial decryptions and combinations.
  static absl::StatusOr<CiphertextToShares> Create(const PaillierKeyShare& key_share,
                                                   const PackingLayout& layout,
                                                   const PaillierEncryptor& encryptor,
                                                   ThreadPool* pool = nullptr);

  // Verified mode: proofs drawn from `rng` (must outlive the converter).
  void EnableProofs(SecureRng& rng) { proof_rng_ = &rng; }
  bool proofs_enabled() const { return proof_rng_ != nullptr; }

  // This party's shares of the `count` slot values packed in `ciphertexts`.
  absl::StatusOr<Shares> Convert(MpcEngine& engine, absl::Span<const Ciphertext> ciphertexts,
                                 size_t count) const;

 private:
  CiphertextToShares(const PaillierKeyShare& key_share, const PackingLayout& layout,
                     const PaillierEncryptor& encryptor, ThreadPool* pool)
      : key_share_(&key_share),
        layout_(&layout),
        encryptor_(&encryptor),
        evaluator_(key_share.public_key()->paillier()),
        combiner_(key_share.public_key()),
        pool_(pool) {}

  absl::Status CheckEngine(const MpcEngine& engine) const;

  const PaillierKeyShare* key_share_;
  const PackingLayout* layout_;
  const PaillierEncryptor* encryptor_;
  PaillierEvaluator evaluator_;
  PaillierCombiner combiner_;
  ThreadPool* pool_;
  SecureRng* proof_rng_ = nullptr;  // verified mode when set
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_CONVERSION_SHARE_CONVERSION_H_
