// ThresholdPublicKey: the public half of a threshold Paillier key, shared by
// every party, the combiner and the coordinator.
//
// Scheme (Shoup, "Practical threshold signatures", EUROCRYPT 2000, applied
// to Paillier by Damgard and Jurik, PKC 2001, section 4; s = 1):
//   N = p q with p = 2p' + 1, q = 2q' + 1 safe primes, m = p' q', g = N + 1.
//   Decryption exponent d with d = 0 mod m and d = 1 mod N.
//   SHAMIR (t-of-n): f(X) = d + a_1 X + ... + a_{t-1} X^{t-1} mod N m,
//     s_i = f(i); Delta = n!.
//   ADDITIVE (n-of-n): s_1 + ... + s_n = d mod N m; Delta = 1; t = n.
//   Verification base v: a random square in Z*_{N^2};
//   verification keys v_i = v^(Delta s_i) mod N^2.
//   Partial decryption c_i = c^(2 Delta s_i) mod N^2 (paillier_key_share.h);
//   combination in paillier_combiner.h.
//
// The key type does not depend on how the key was made: origin() records
// whether a trusted dealer (DEALER MODE, tests and demos) or a distributed
// protocol produced it, for display only.
//
// fingerprint(): BLAKE2b-256 over "pplda/threshold-paillier/v1", N, scheme,
// n, t, v and every v_i (each length-prefixed); it names the key in every
// serialized message so that a message for another key is rejected.
//
// Ranges: 1 <= t <= n <= kMaxParties; t = n for ADDITIVE; v and every v_i in
// Z*_{N^2}. Create() returns InvalidArgument naming the offending field.
// Immutable; shared as std::shared_ptr<const ThresholdPublicKey>; thread-safe.
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_THRESHOLD_KEY_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_THRESHOLD_KEY_H_

#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_public_key.h"

namespace pplda::crypto {

enum class SharingScheme { kAdditive, kShamir };
enum class KeyOrigin { kUnspecified, kTrustedDealer, kDistributed };

inline constexpr int kMaxParties = 64;

std::string_view SharingSchemeName(SharingScheme scheme);

// OK iff 1 <= threshold <= num_parties <= kMaxParties and, for kAdditive,
// threshold == num_parties; InvalidArgument naming the field otherwise.
absl::Status ValidateSharingShape(SharingScheme scheme, int num_parties, int threshold);

class ThresholdPublicKey;
using ThresholdPublicKeyPtr = std::shared_ptr<const ThresholdPublicKey>;

class ThresholdPublicKey {
 public:
  // verification_keys[i - 1] belongs to party i.
  static absl::StatusOr<ThresholdPublicKeyPtr> Create(
      PaillierPublicKey paillier, SharingScheme scheme, int num_parties, int threshold,
      mpz_class verification_base, std::vector<mpz_class> verification_keys,
      KeyOrigin origin);

  const PaillierPublicKey& paillier() const { return paillier_; }
  const mpz_class& n() const { return paillier_.n(); }
  const mpz_class& n_squared() const { return paillier_.n_squared(); }
  SharingScheme scheme() const { return scheme_; }
  int num_parties() const { return num_parties_; }
  int threshold() const { return threshold_; }
  KeyOrigin origin() const { return origin_; }
  // n! for SHAMIR, 1 for ADDITIVE.
  const mpz_class& delta() const { return delta_; }
  const mpz_class& verification_base() const { return verification_base_; }
  // party in [1, num_parties()] (checked by ValidateParty).
  const mpz_class& verification_key(int party) const {
    return verification_keys_[static_cast<size_t>(party - 1)];
  }
  const std::array<uint8_t, 32>& fingerprint() const { return fingerprint_; }
  // First 8 bytes of the fingerprint in hex, for logs and error messages.
  std::string short_fingerprint() const;

  // InvalidArgument "<what>: party <p> is not in this key (parties 1..n)".
  absl::Status ValidateParty(int party, std::string_view what) const;

 private:
  struct Token {};

 public:
  // Use Create(); public only so that std::make_shared can construct it.
  ThresholdPublicKey(Token, PaillierPublicKey paillier) : paillier_(std::move(paillier)) {}

 private:
  void ComputeFingerprint();

  PaillierPublicKey paillier_;
  SharingScheme scheme_ = SharingScheme::kShamir;
  int num_parties_ = 0;
  int threshold_ = 0;
  KeyOrigin origin_ = KeyOrigin::kUnspecified;
  mpz_class delta_;
  mpz_class verification_base_;
  std::vector<mpz_class> verification_keys_;
  std::array<uint8_t, 32> fingerprint_{};
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_THRESHOLD_KEY_H_
