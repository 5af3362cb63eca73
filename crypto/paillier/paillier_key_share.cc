#include "crypto/paillier/paillier_key_share.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/parallel_batch.h"
#include "crypto/paillier/decryption_proof.h"

namespace pplda::crypto {
namespace {

constexpr size_t kShareSlackBits = 128;

std::string CiphertextName(size_t i) { return absl::StrCat("ciphertext ", i); }

}  // namespace

PaillierKeyShare::PaillierKeyShare(ThresholdPublicKeyPtr key, int party, SecretInt share)
    : key_(std::move(key)),
      modexp_(key_->n_squared()),
      party_(party),
      share_(std::move(share)) {
  x_.mutable_value() = key_->delta() * share_.value();
  exponent_.mutable_value() = 2 * x_.value();
}

absl::StatusOr<PaillierKeyShare> PaillierKeyShare::Create(ThresholdPublicKeyPtr key,
                                                          int party, SecretInt share) {
  if (key == nullptr) return absl::InvalidArgumentError("key share: no public key given");
  RETURN_IF_ERROR(key->ValidateParty(party, "key share"));
  const size_t max_bits = BitLength(key->n_squared()) + kShareSlackBits;
  if (share.value() < 0 || BitLength(share.value()) > max_bits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "key share of party ", party, ": secret share is outside [0, 2^", max_bits, ")"));
  }
  PaillierKeyShare out(std::move(key), party, std::move(share));
  mpz_class check;
  mpz_powm(check.get_mpz_t(), out.key_->verification_base().get_mpz_t(),
           out.x_.value().get_mpz_t(), out.key_->n_squared().get_mpz_t());
  if (check != out.key_->verification_key(party)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "key share of party ", party, " does not match verification key ", party,
        " of public key ", out.key_->short_fingerprint(),
        ": wrong key file, wrong party, or a corrupted share"));
  }
  return out;
}

void PaillierKeyShare::Exponentiate(const mpz_class& c, mpz_class& out) const {
  // mpz_powm_sec needs an exponent > 0; s_i = 0 has probability ~2^-2000.
  if (constant_time_ && exponent_.value() > 0) {
    mpz_powm_sec(out.get_mpz_t(), c.get_mpz_t(), exponent_.value().get_mpz_t(),
                 key_->n_squared().get_mpz_t());
  } else {
    mpz_powm(out.get_mpz_t(), c.get_mpz_t(), exponent_.value().get_mpz_t(),
             key_->n_squared().get_mpz_t());
  }
}

absl::StatusOr<mpz_class> PaillierKeyShare::PartialDecrypt(const Ciphertext& c) const {
  RETURN_IF_ERROR(key_->paillier().ValidateCiphertext(c.value, "ciphertext"));
  mpz_class out;
  Exponentiate(c.value, out);
  return out;
}

absl::StatusOr<PartialDecryptionBatch> PaillierKeyShare::PartialDecryptBatch(
    absl::Span<const Ciphertext> ciphertexts, ThreadPool* pool) const {
  const size_t n = ciphertexts.size();
  RETURN_IF_ERROR(key_->paillier().ValidateCiphertexts(
      n, [&](size_t i) -> const mpz_class& { return ciphertexts[i].value; }, CiphertextName,
      pool));
  std::vector<mpz_class> bases(n);
  for (size_t i = 0; i < n; ++i) bases[i] = ciphertexts[i].value;
  PartialDecryptionBatch batch;
  batch.party = party_;
  batch.values.resize(n);
  RETURN_IF_ERROR(BatchModExp(modexp_, bases, exponent_.value(), absl::MakeSpan(batch.values),
                              pool, constant_time_));
  return batch;
}

absl::StatusOr<PartialDecryptionBatch> PaillierKeyShare::PartialDecryptBatchWithProofs(
    absl::Span<const Ciphertext> ciphertexts, SecureRng& rng, ThreadPool* pool) const {
  ASSIGN_OR_RETURN(PartialDecryptionBatch batch, PartialDecryptBatch(ciphertexts, pool));
  ASSIGN_OR_RETURN(batch.proofs, ProveDecryptionBatch(*key_, modexp_, party_, x_.value(),
                                                      ciphertexts, batch.values, rng, pool));
  return batch;
}

}  // namespace pplda::crypto
