#include "party/selection_message.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/paillier/paillier_serialization.h"

namespace pplda::party {

std::vector<uint8_t> SelectionMessage(const protocol::CountsDigest& digest,
                                      const crypto::ThresholdPublicKey& key,
                                      const std::vector<crypto::Ciphertext>& selections) {
  const std::string bytes = crypto::CiphertextBatchToProto(key, selections).SerializeAsString();
  std::vector<uint8_t> out(digest.begin(), digest.end());
  out.insert(out.end(), bytes.begin(), bytes.end());
  return out;
}

absl::StatusOr<std::vector<crypto::Ciphertext>> ParseSelectionMessage(
    const std::vector<uint8_t>& message, const protocol::CountsDigest& expected,
    const crypto::ThresholdPublicKey& key, size_t count, const std::string& who) {
  if (message.size() < expected.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("selection ciphertexts from ", who, ": shorter than a digest"));
  }
  if (!std::equal(expected.begin(), expected.end(), message.begin())) {
    return absl::FailedPreconditionError(absl::StrCat(
        who,
        " selected from different counts (the coordinator relayed different updates to "
        "different parties)"));
  }
  pplda::v1::CiphertextBatch proto;
  if (!proto.ParseFromArray(message.data() + expected.size(),
                            static_cast<int>(message.size() - expected.size()))) {
    return absl::InvalidArgumentError(
        absl::StrCat("selection ciphertexts from ", who, ": not a CiphertextBatch"));
  }
  return crypto::CiphertextBatchFromProto(key, proto, count);
}

}  // namespace pplda::party
