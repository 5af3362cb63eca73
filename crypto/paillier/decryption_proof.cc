#include "crypto/paillier/decryption_proof.h"

#include <sodium.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/parallel_batch.h"

namespace pplda::crypto {
namespace {

void Absorb(crypto_generichash_state& state, const mpz_class& x) {
  const std::string bytes = ToMinimalBytes(x);
  uint8_t len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(uint64_t{bytes.size()} >> (56 - 8 * i));
  crypto_generichash_update(&state, len, sizeof(len));
  crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(bytes.data()),
                            bytes.size());
}

mpz_class Challenge(const ThresholdPublicKey& key, int party, const mpz_class& c4,
                    const mpz_class& ci2, const mpz_class& a, const mpz_class& b) {
  crypto_generichash_state state;
  uint8_t out[kProofChallengeBits / 8];
  crypto_generichash_init(&state, nullptr, 0, sizeof(out));
  static constexpr char kDomain[] = "pplda/paillier-decryption-proof/v1";
  crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(kDomain),
                            sizeof(kDomain) - 1);
  crypto_generichash_update(&state, key.fingerprint().data(), key.fingerprint().size());
  Absorb(state, mpz_class(party));
  Absorb(state, c4);
  Absorb(state, ci2);
  Absorb(state, key.verification_base());
  Absorb(state, key.verification_key(party));
  Absorb(state, a);
  Absorb(state, b);
  crypto_generichash_final(&state, out, sizeof(out));
  return FromBytes(std::string_view(reinterpret_cast<const char*>(out), sizeof(out)));
}

// base^e mod m for a possibly negative e (base must be invertible mod m).
mpz_class PowSigned(const mpz_class& base, const mpz_class& e, const mpz_class& m) {
  mpz_class out;
  mpz_powm(out.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
  return out;
}

SecretInt DrawProofNonce(const ThresholdPublicKey& key, SecureRng& rng) {
  return SecretInt(rng.RandomBits(BitLength(key.n_squared()) + BitLength(key.delta()) +
                                  2 * kProofChallengeBits));
}

// e = H(...) and z = r + e x, given the commitments a = c4^r, b = v^r.
DecryptionProof FinishProof(const ThresholdPublicKey& key, int party, const mpz_class& x,
                            const mpz_class& c4, const mpz_class& partial, const SecretInt& r,
                            const mpz_class& a, const mpz_class& b) {
  const mpz_class ci2 = PowSigned(partial, mpz_class(2), key.n_squared());
  DecryptionProof proof;
  proof.challenge = Challenge(key, party, c4, ci2, a, b);
  proof.response = r.value() + proof.challenge * x;
  return proof;
}

}  // namespace

DecryptionProof ProveDecryption(const ThresholdPublicKey& key, int party, const mpz_class& x,
                                const Ciphertext& c, const mpz_class& partial,
                                SecureRng& rng) {
  const mpz_class& n2 = key.n_squared();
  const mpz_class c4 = PowSigned(c.value, mpz_class(4), n2);
  const SecretInt r = DrawProofNonce(key, rng);
  const mpz_class a = PowSigned(c4, r.value(), n2);
  const mpz_class b = PowSigned(key.verification_base(), r.value(), n2);
  return FinishProof(key, party, x, c4, partial, r, a, b);
}

absl::StatusOr<std::vector<DecryptionProof>> ProveDecryptionBatch(
    const ThresholdPublicKey& key, const ModExpContext& n_squared, int party,
    const mpz_class& x, absl::Span<const Ciphertext> cs, absl::Span<const mpz_class> partials,
    SecureRng& rng, ThreadPool* pool) {
  if (cs.size() != partials.size()) {
    return absl::InvalidArgumentError(absl::StrCat("decryption proofs: ", cs.size(),
                                                   " ciphertexts but ", partials.size(),
                                                   " partial decryptions"));
  }
  const size_t n = cs.size();
  std::vector<mpz_class> c4(n), r(n), a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    c4[i] = PowSigned(cs[i].value, mpz_class(4), key.n_squared());
    r[i] = DrawProofNonce(key, rng).value();
  }
  const std::vector<mpz_class> v(n, key.verification_base());
  absl::Status s = BatchModExp(n_squared, c4, r, absl::MakeSpan(a), pool, false);
  if (s.ok()) s = BatchModExp(n_squared, v, r, absl::MakeSpan(b), pool, false);
  std::vector<DecryptionProof> proofs(n);
  if (s.ok()) {
    for (size_t i = 0; i < n; ++i) {
      const SecretInt nonce(std::move(r[i]));
      proofs[i] = FinishProof(key, party, x, c4[i], partials[i], nonce, a[i], b[i]);
    }
  }
  for (mpz_class& nonce : r) Wipe(nonce);
  if (!s.ok()) return s;
  return proofs;
}

namespace {

absl::Status CheckProofRanges(const ThresholdPublicKey& key, int party,
                              const DecryptionProof& proof) {
  if (proof.challenge < 0 || BitLength(proof.challenge) > kProofChallengeBits) {
    return absl::InvalidArgumentError(absl::StrCat("decryption proof of party ", party,
                                                   ": challenge is not a ",
                                                   kProofChallengeBits, "-bit value"));
  }
  const size_t max_response_bits =
      BitLength(key.n_squared()) + 2 * BitLength(key.delta()) + 3 * kProofChallengeBits + 2;
  if (proof.response < 0 || BitLength(proof.response) > max_response_bits) {
    return absl::InvalidArgumentError(
        absl::StrCat("decryption proof of party ", party, ": response is out of range"));
  }
  return absl::OkStatus();
}

// The challenge check, given c4^z and v^z.
absl::Status FinishVerification(const ThresholdPublicKey& key, int party, const mpz_class& c4,
                                const mpz_class& partial, const DecryptionProof& proof,
                                const mpz_class& c4_to_z, const mpz_class& v_to_z) {
  const mpz_class& n2 = key.n_squared();
  const mpz_class neg_e = -proof.challenge;
  const mpz_class ci2 = PowSigned(partial, mpz_class(2), n2);
  const mpz_class a = c4_to_z * PowSigned(ci2, neg_e, n2) % n2;
  const mpz_class b = v_to_z * PowSigned(key.verification_key(party), neg_e, n2) % n2;
  if (Challenge(key, party, c4, ci2, a, b) != proof.challenge) {
    return absl::InvalidArgumentError(absl::StrCat(
        "decryption proof of party ", party,
        " does not verify: the partial decryption is not c^(2 Delta s_", party,
        ") for this key"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyDecryption(const ThresholdPublicKey& key, int party, const Ciphertext& c,
                              const mpz_class& partial, const DecryptionProof& proof) {
  RETURN_IF_ERROR(CheckProofRanges(key, party, proof));
  const mpz_class& n2 = key.n_squared();
  const mpz_class c4 = PowSigned(c.value, mpz_class(4), n2);
  return FinishVerification(key, party, c4, partial, proof,
                            PowSigned(c4, proof.response, n2),
                            PowSigned(key.verification_base(), proof.response, n2));
}

absl::Status VerifyDecryptionBatch(const ThresholdPublicKey& key, const ModExpContext& n_squared,
                                   int party, absl::Span<const Ciphertext> cs,
                                   absl::Span<const mpz_class> partials,
                                   absl::Span<const DecryptionProof> proofs, ThreadPool* pool) {
  if (cs.size() != partials.size() || cs.size() != proofs.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "decryption proofs of party ", party, ": ", cs.size(), " ciphertexts, ",
        partials.size(), " partial decryptions and ", proofs.size(), " proofs"));
  }
  if (n_squared.modulus() != key.n_squared()) {
    return absl::InvalidArgumentError(
        "decryption proofs: the exponentiation context is not for this key's N^2");
  }
  const size_t n = cs.size();
  std::vector<mpz_class> c4(n), z(n);
  RETURN_IF_ERROR(RunBatch(pool, n, [&](size_t i, int) -> absl::Status {
    absl::Status ranges = CheckProofRanges(key, party, proofs[i]);
    if (!ranges.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("value ", i, ": ", ranges.message()));
    }
    c4[i] = PowSigned(cs[i].value, mpz_class(4), key.n_squared());
    z[i] = proofs[i].response;
    return absl::OkStatus();
  }));
  std::vector<mpz_class> c4_to_z(n), v_to_z(n);
  const std::vector<mpz_class> v(n, key.verification_base());
  RETURN_IF_ERROR(BatchModExp(n_squared, c4, z, absl::MakeSpan(c4_to_z), pool, false));
  RETURN_IF_ERROR(BatchModExp(n_squared, v, z, absl::MakeSpan(v_to_z), pool, false));
  return RunBatch(pool, n, [&](size_t i, int) -> absl::Status {
    absl::Status s = FinishVerification(key, party, c4[i], partials[i], proofs[i], c4_to_z[i],
                                        v_to_z[i]);
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat("value ", i, ": ", s.message()));
    return absl::OkStatus();
  });
}

}  // namespace pplda::crypto
