#include "crypto/paillier/paillier_threshold_key.h"

#include <sodium.h>

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "crypto/arith/big_int.h"

namespace pplda::crypto {
namespace {

void HashField(crypto_generichash_state& state, std::string_view bytes) {
  uint8_t len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(uint64_t{bytes.size()} >> (56 - 8 * i));
  crypto_generichash_update(&state, len, sizeof(len));
  crypto_generichash_update(&state, reinterpret_cast<const uint8_t*>(bytes.data()),
                            bytes.size());
}

void HashInt(crypto_generichash_state& state, const mpz_class& x) {
  HashField(state, ToMinimalBytes(x));
}

}  // namespace

absl::Status ValidateSharingShape(SharingScheme scheme, int num_parties, int threshold) {
  if (num_parties < 1 || num_parties > kMaxParties) {
    return absl::InvalidArgumentError(absl::StrCat(
        "threshold key: num_parties = ", num_parties, " is outside [1, ", kMaxParties, "]"));
  }
  if (threshold < 1 || threshold > num_parties) {
    return absl::InvalidArgumentError(absl::StrCat("threshold key: threshold = ", threshold,
                                                   " is outside [1, num_parties = ",
                                                   num_parties, "]"));
  }
  if (scheme == SharingScheme::kAdditive && threshold != num_parties) {
    return absl::InvalidArgumentError(absl::StrCat(
        "threshold key: the additive (n-of-n) scheme needs threshold = num_parties, got ",
        threshold, " of ", num_parties));
  }
  return absl::OkStatus();
}

std::string_view SharingSchemeName(SharingScheme scheme) {
  return scheme == SharingScheme::kAdditive ? "additive n-of-n" : "Shamir t-of-n";
}

absl::StatusOr<ThresholdPublicKeyPtr> ThresholdPublicKey::Create(
    PaillierPublicKey paillier, SharingScheme scheme, int num_parties, int threshold,
    mpz_class verification_base, std::vector<mpz_class> verification_keys,
    KeyOrigin origin) {
  if (absl::Status s = ValidateSharingShape(scheme, num_parties, threshold); !s.ok()) return s;
  if (absl::Status s = paillier.ValidateCiphertext(verification_base,
                                                   "threshold key: verification_base");
      !s.ok()) {
    return s;
  }
  if (verification_keys.size() != static_cast<size_t>(num_parties)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "threshold key: ", verification_keys.size(), " verification_keys for ", num_parties,
        " parties"));
  }
  for (size_t i = 0; i < verification_keys.size(); ++i) {
    if (absl::Status s = paillier.ValidateCiphertext(
            verification_keys[i], absl::StrCat("threshold key: verification_keys[", i,
                                               "] (party ", i + 1, ")"));
        !s.ok()) {
      return s;
    }
  }
  auto key = std::make_shared<ThresholdPublicKey>(Token{}, std::move(paillier));
  key->scheme_ = scheme;
  key->num_parties_ = num_parties;
  key->threshold_ = threshold;
  key->origin_ = origin;
  key->delta_ = scheme == SharingScheme::kShamir ? Factorial(num_parties) : mpz_class(1);
  key->verification_base_ = std::move(verification_base);
  key->verification_keys_ = std::move(verification_keys);
  key->ComputeFingerprint();
  return ThresholdPublicKeyPtr(std::move(key));
}

void ThresholdPublicKey::ComputeFingerprint() {
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, fingerprint_.size());
  HashField(state, "pplda/threshold-paillier/v1");
  HashInt(state, n());
  HashInt(state, mpz_class(scheme_ == SharingScheme::kAdditive ? 1 : 2));
  HashInt(state, mpz_class(num_parties_));
  HashInt(state, mpz_class(threshold_));
  HashInt(state, verification_base_);
  for (const mpz_class& vk : verification_keys_) HashInt(state, vk);
  crypto_generichash_final(&state, fingerprint_.data(), fingerprint_.size());
}

std::string ThresholdPublicKey::short_fingerprint() const {
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(fingerprint_.data()), 8));
}

absl::Status ThresholdPublicKey::ValidateParty(int party, std::string_view what) const {
  if (party < 1 || party > num_parties_) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(what), ": party ", party,
                                                   " is not in this key (parties 1..",
                                                   num_parties_, ")"));
  }
  return absl::OkStatus();
}

}  // namespace pplda::crypto
