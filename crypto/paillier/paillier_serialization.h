// Conversions between threshold Paillier values and their Protocol Buffers
// forms (proto/paillier.proto), with every check a receiver needs.
//
// From*Proto functions validate everything (error code InvalidArgument,
// message naming the field and index):
//   - format_version == 1;
//   - every element of Z*_{N^2} (ciphertexts, partial decryptions, v, v_i)
//     is encoded with exactly ciphertext_bytes() bytes (so a truncated or
//     oversized value is rejected by its length) and lies in Z*_{N^2};
//   - key_fingerprint equals the expected key's (a message for another key
//     is rejected, naming both short fingerprints);
//   - party_index is a party of the key;
//   - counts: a batch must hold exactly `expected_count` values (pass
//     kAnyCount to accept any count up to kMaxBatchValues);
//   - public keys go through ThresholdPublicKey::Create and key shares
//     through PaillierKeyShare::Create (which checks v^(Delta s_i) = v_i).
// Secrets: KeyShareToProto puts s_i into the message; callers must wipe it
// with WipeKeyShareProto once the bytes are written (paillier_key_file.h
// does). KeyShareFromProto does not modify its input.
// Thread-safety: pure functions.
#ifndef PPLDA_CRYPTO_PAILLIER_PAILLIER_SERIALIZATION_H_
#define PPLDA_CRYPTO_PAILLIER_PAILLIER_SERIALIZATION_H_

#include <cstddef>
#include <limits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "proto/paillier.pb.h"

namespace pplda::crypto {

inline constexpr uint32_t kPaillierFormatVersion = 1;
inline constexpr size_t kAnyCount = std::numeric_limits<size_t>::max();
inline constexpr size_t kMaxBatchValues = size_t{1} << 22;

pplda::v1::ThresholdPaillierPublicKey ThresholdPublicKeyToProto(const ThresholdPublicKey& key);
absl::StatusOr<ThresholdPublicKeyPtr> ThresholdPublicKeyFromProto(
    const pplda::v1::ThresholdPaillierPublicKey& proto);

pplda::v1::PaillierKeyShare KeyShareToProto(const PaillierKeyShare& share);
absl::StatusOr<PaillierKeyShare> KeyShareFromProto(const pplda::v1::PaillierKeyShare& proto);
// Overwrites the secret bytes held by the message, then clears them.
void WipeKeyShareProto(pplda::v1::PaillierKeyShare& proto);

pplda::v1::CiphertextBatch CiphertextBatchToProto(const ThresholdPublicKey& key,
                                                  absl::Span<const Ciphertext> ciphertexts);
absl::StatusOr<std::vector<Ciphertext>> CiphertextBatchFromProto(
    const ThresholdPublicKey& key, const pplda::v1::CiphertextBatch& proto,
    size_t expected_count);

pplda::v1::PartialDecryptionBatch PartialDecryptionBatchToProto(
    const ThresholdPublicKey& key, const PartialDecryptionBatch& batch);
absl::StatusOr<PartialDecryptionBatch> PartialDecryptionBatchFromProto(
    const ThresholdPublicKey& key, const pplda::v1::PartialDecryptionBatch& proto,
    size_t expected_count);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PAILLIER_SERIALIZATION_H_
