// The selection message a token owner sends the committee (docs/protocol.md,
// step 2): the digest of the counts it selected from, then its selection
// ciphertexts as a CiphertextBatch. Compute parties prefix their fold's
// hash-chain digest (EncryptedCounts::digest); a data holder the digest of
// the draw matrix every member attested (data_holder_rounds.h).
// Errors (ParseSelectionMessage): FailedPrecondition when the digest is not
// `expected` (the coordinator relayed different counts); InvalidArgument
// naming `who` for a message that does not decode to `count` ciphertexts of
// the key.
#ifndef PPLDA_PARTY_SELECTION_MESSAGE_H_
#define PPLDA_PARTY_SELECTION_MESSAGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "protocol/encrypted_counts.h"

namespace pplda::party {

std::vector<uint8_t> SelectionMessage(const protocol::CountsDigest& digest,
                                      const crypto::ThresholdPublicKey& key,
                                      const std::vector<crypto::Ciphertext>& selections);

absl::StatusOr<std::vector<crypto::Ciphertext>> ParseSelectionMessage(
    const std::vector<uint8_t>& message, const protocol::CountsDigest& expected,
    const crypto::ThresholdPublicKey& key, size_t count, const std::string& who);

}  // namespace pplda::party

#endif  // PPLDA_PARTY_SELECTION_MESSAGE_H_
