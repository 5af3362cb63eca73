// PaillierEvaluator: homomorphic operations on Paillier ciphertexts under
// one public key (Paillier, EUROCRYPT 1999, section 8), single and batched.
//
// For c_a = E(a), c_b = E(b), plaintext integers k, p (any sign):
//   Add(c_a, c_b)      = c_a c_b mod N^2            = E(a + b mod N)
//   Sub(c_a, c_b)      = c_a c_b^(-1) mod N^2       = E(a - b mod N)
//   Negate(c_a)        = c_a^(-1) mod N^2           = E(-a mod N)
//   AddPlain(c_a, p)   = c_a (1 + (p mod N) N)      = E(a + p mod N)
//   MulScalar(c_a, k)  = c_a^k mod N^2              = E(k a mod N)
//     (k is reduced to its representative of least absolute value mod N;
//      a negative k uses c_a^(-1) raised to |k|, so small negative scalars
//      cost as little as small positive ones.)
//   Sum(cs)            = prod cs mod N^2 (E(0) = 1 for an empty list).
// None of these re-randomises: E(a) * E(0)-style results keep a
// deterministic relation to their inputs. Re-randomise (PaillierEncryptor)
// before sending a result to a party that must not link it to the inputs.
//
// MulScalarBatch runs its exponentiations through BatchModExp
// (batch_modexp.h): eight at a time in the AVX-512 IFMA kernel when the CPU
// has it, GMP otherwise; results are identical.
// Inputs must be ciphertexts of this key, already validated where they were
// received (paillier_serialization.h); the evaluator does not re-check them.
// Batch versions take equal-length spans (InvalidArgument naming both
// lengths otherwise) and spread the work over `pool` (may be null).
// Immutable; thread-safe.
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_EVALUATOR_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_EVALUATOR_H_

#include <gmpxx.h>

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/modexp/batch_modexp.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_public_key.h"

namespace pplda::crypto {

class PaillierEvaluator {
 public:
  explicit PaillierEvaluator(PaillierPublicKey key);

  const PaillierPublicKey& public_key() const { return key_; }

  Ciphertext Add(const Ciphertext& a, const Ciphertext& b) const;
  Ciphertext Sub(const Ciphertext& a, const Ciphertext& b) const;
  Ciphertext Negate(const Ciphertext& a) const;
  Ciphertext AddPlain(const Ciphertext& a, const mpz_class& p) const;
  Ciphertext MulScalar(const Ciphertext& a, const mpz_class& k) const;
  Ciphertext Sum(absl::Span<const Ciphertext> cs) const;

  absl::StatusOr<std::vector<Ciphertext>> AddBatch(absl::Span<const Ciphertext> a,
                                                   absl::Span<const Ciphertext> b,
                                                   ThreadPool* pool) const;
  absl::StatusOr<std::vector<Ciphertext>> SubBatch(absl::Span<const Ciphertext> a,
                                                   absl::Span<const Ciphertext> b,
                                                   ThreadPool* pool) const;
  std::vector<Ciphertext> NegateBatch(absl::Span<const Ciphertext> a, ThreadPool* pool) const;
  absl::StatusOr<std::vector<Ciphertext>> AddPlainBatch(absl::Span<const Ciphertext> a,
                                                        absl::Span<const mpz_class> p,
                                                        ThreadPool* pool) const;
  absl::StatusOr<std::vector<Ciphertext>> MulScalarBatch(absl::Span<const Ciphertext> a,
                                                         absl::Span<const mpz_class> k,
                                                         ThreadPool* pool) const;
  // Every ciphertext of `a` times the same scalar k.
  std::vector<Ciphertext> MulScalarBatch(absl::Span<const Ciphertext> a, const mpz_class& k,
                                         ThreadPool* pool) const;
  // Element-wise sum of equal-length vectors: out[j] = prod_i vectors[i][j].
  absl::StatusOr<std::vector<Ciphertext>> SumBatch(
      absl::Span<const std::vector<Ciphertext>> vectors, ThreadPool* pool) const;

 private:
  mpz_class Inverse(const mpz_class& c) const;
  // MulScalar's exponentiation c_a^k as base^e with 0 <= e <= N/2: e = k mod
  // N, or N - (k mod N) with base = c_a^-1 when that is smaller (then
  // ScalarExponent returns true).
  bool ScalarExponent(const mpz_class& k, mpz_class& e) const;
  void ScalarPower(const Ciphertext& a, const mpz_class& k, mpz_class& base,
                   mpz_class& e) const;

  PaillierPublicKey key_;
  std::shared_ptr<const ModExpContext> modexp_;  // modulus N^2
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_EVALUATOR_H_
