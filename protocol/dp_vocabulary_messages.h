// The messages and arithmetic of the secure DP vocabulary that every
// participant shares (party/dp_vocabulary_party.h is one party's side of
// the steps; privacy/dp_candidate_union.h the mechanism and its privacy
// argument; docs/protocol.md, "DP vocabulary"): a party's contribution, the
// packing all contributions use, their sum, and the noisy counts decoded
// from threshold-many verified partial decryptions of the sum.
// Pure functions over public values; thread-safe.
#ifndef PPLDA_PROTOCOL_DP_VOCABULARY_MESSAGES_H_
#define PPLDA_PROTOCOL_DP_VOCABULARY_MESSAGES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/paillier/packing.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_public_key.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "lda/vocabulary.h"
#include "privacy/dp_candidate_union.h"
#include "protocol/encrypted_counts.h"

namespace pplda::protocol {

struct VocabularyContribution {
  std::string run_id;
  int party = 0;  // 0-based owner: a compute party, or n + h for data holder h
  std::vector<crypto::Ciphertext> counts;  // packed h_p + Z_p (a data holder's: h_p)
};

// The packing every participant uses: signed slots of the plan's bound
// (documents < 2^31 plus |Z_p| <= B), summed over the plan's n parties and
// its data holders.
absl::StatusOr<crypto::PackingLayout> VocabularyPackingLayout(
    const privacy::CandidateUnionPlan& plan, const crypto::PaillierPublicKey& key);

// What data holder `owner` (n + h) sends each committee member over its
// own link, beside its contribution to the coordinator: a digest of its
// ciphertexts bound to the run and the owner, so that a member sums the
// holder's own contribution or refuses.
CountsDigest HolderContributionDigest(const std::string& run_id, int owner,
                                      const std::vector<crypto::Ciphertext>& counts,
                                      const crypto::PaillierPublicKey& key);

// The selection (ascending candidate ids) a committee member sends each
// data holder over its own link: 4-byte little-endian ids. Decode refuses
// (InvalidArgument) a length that is not a multiple of 4.
std::vector<uint8_t> EncodeSelection(const std::vector<lda::TermId>& selected);
absl::StatusOr<std::vector<lda::TermId>> DecodeSelection(const std::vector<uint8_t>& bytes);

// E(sum_p h_p + Z_p): the slot-wise product of the contributions (one per
// party, equal lengths, already checked as AcceptContributions does).
std::vector<crypto::Ciphertext> SumContributions(
    const crypto::PaillierPublicKey& key, absl::Span<const VocabularyContribution* const> by_party);

// The noisy counts from the sum's partial decryptions: every batch's proofs
// verified, at least the key's threshold of them (InvalidArgument naming
// the party whose batch fails; FailedPrecondition when too few).
absl::StatusOr<std::vector<int64_t>> DecodeNoisyCandidateCounts(
    const crypto::ThresholdPublicKeyPtr& key, const crypto::PackingLayout& layout,
    const std::vector<crypto::Ciphertext>& sum,
    absl::Span<const crypto::PartialDecryptionBatch> batches, int32_t candidates, ThreadPool* pool);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_DP_VOCABULARY_MESSAGES_H_
