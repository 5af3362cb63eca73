// PaillierCombiner: turns partial decryptions into plaintexts (threshold
// Paillier as in paillier_threshold_key.h; Damgard-Jurik, PKC 2001, 4.1).
//
// For a ciphertext c of m with partials c_i = c^(2 Delta s_i) mod N^2:
//   SHAMIR, any set S of t distinct parties (the t lowest indices given are
//   used; extra partials are ignored):
//     lambda_i = Delta * prod_{j in S, j != i} j / (j - i)   (an integer),
//     u = prod_{i in S} c_i^(2 lambda_i) = (1 + N)^(4 Delta^2 m) mod N^2,
//     m = L(u) * (4 Delta^2)^(-1) mod N.
//   ADDITIVE, all n parties:
//     u = prod_i c_i = (1 + N)^(2 m) mod N^2,  m = L(u) * 2^(-1) mod N.
// Result: m in [0, N), exactly the encrypted plaintext.
//
// Checks (error codes):
//   InvalidArgument   - a party not in the key, a party given twice, batches
//                       of different lengths, a partial outside (0, N^2),
//                       or u != 1 mod N ("inconsistent partial decryptions":
//                       a share of another key, a corrupted value, or a
//                       partial of another ciphertext). The last check also
//                       rejects every partial that is not a unit mod N^2.
//   FailedPrecondition - fewer than t partials (all n for ADDITIVE).
// VerifyBatch() additionally checks each value's proof of correct decryption
// (decryption_proof.h), which catches wrong partials that happen to pass the
// u = 1 mod N test.
// Immutable after construction; const methods are thread-safe.
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_COMBINER_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_COMBINER_H_

#include <gmpxx.h>

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/modexp/batch_modexp.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_threshold_key.h"

namespace pplda::crypto {

class PaillierCombiner {
 public:
  explicit PaillierCombiner(ThresholdPublicKeyPtr key);

  const ThresholdPublicKey& public_key() const { return *key_; }

  // Plaintext of one ciphertext from its partial decryptions.
  absl::StatusOr<mpz_class> Combine(absl::Span<const PartialDecryption> partials) const;
  // Plaintexts of a batch: batches[k] holds party k's partials of every
  // ciphertext, all batches of equal length; result[j] decrypts ciphertext j.
  absl::StatusOr<std::vector<mpz_class>> CombineBatch(
      absl::Span<const PartialDecryptionBatch> batches, ThreadPool* pool) const;
  // OK if batch.proofs has one valid proof per value for `ciphertexts`.
  absl::Status VerifyBatch(absl::Span<const Ciphertext> ciphertexts,
                           const PartialDecryptionBatch& batch, ThreadPool* pool) const;

 private:
  // Which inputs to use and with which exponents.
  struct Plan {
    std::vector<size_t> positive;   // input indices with lambda > 0
    std::vector<mpz_class> positive_exp;
    std::vector<size_t> negative;   // input indices with lambda < 0
    std::vector<mpz_class> negative_exp;  // |exponent|
  };
  absl::StatusOr<Plan> MakePlan(const std::vector<int>& parties) const;
  absl::StatusOr<mpz_class> CombineOne(const Plan& plan,
                                       const std::vector<const mpz_class*>& values,
                                       size_t index) const;

  ThresholdPublicKeyPtr key_;
  ModExpContext modexp_;     // modulus N^2, for batched proof verification
  mpz_class decode_factor_;  // (4 Delta^2)^(-1) or 2^(-1) mod N
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_COMBINER_H_
