// DriveDpVocabulary: THE schedule of the secure DP vocabulary
// (privacy/dp_candidate_union.h has the mechanism; docs/protocol.md, "DP
// vocabulary", the messages), the one copy shared by `pplda vocab --dp`,
// `pplda simulate --dp-vocab-candidates` (in-process parties, simulation/)
// and the coordinator daemon (remote parties), shaped like DriveRun:
//   1. Contribute: every compute party's encrypted candidate histogram plus
//      its own noise shares, and every data holder's outside the committee
//      (histogram only; its digest goes to every member over its own links);
//   2. SumAndDecrypt: every contribution relayed to every compute party;
//      each sums them itself (a holder's only as the holder's digest
//      says), the parties confirm the sum's digest among themselves (never
//      through the coordinator), and parties 0 .. decryptors-1 (the
//      Paillier key's threshold) return partial decryptions with proofs;
//   3. the coordinator's own check: it sums the contributions itself and
//      verifies every proof against its sum before decoding the noisy
//      counts (a DP release) and selecting the vocabulary;
//   4. Select: the verified partial decryptions handed to every compute
//      party, which selects the vocabulary itself (and sends it to every
//      data holder over its links); every participant's selection must be
//      the coordinator's (FailedPrecondition naming it otherwise).
// Bytes: the ciphertexts the coordinator receives and relays (contributions
// in and out to every party, partial decryptions with proofs in and out).
// Errors: the parties' (with the party named), the decoding's, and
// FailedPrecondition when no candidate is selected (naming what to change).
// Thread-safety: one caller at a time.
#ifndef PPLDA_COORDINATOR_DP_VOCABULARY_DRIVER_H_
#define PPLDA_COORDINATOR_DP_VOCABULARY_DRIVER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "lda/vocabulary.h"
#include "privacy/dp_candidate_union.h"
#include "protocol/dp_vocabulary_messages.h"

namespace pplda::coordinator {

// What a party answers to Select: the SHA-256 of the vocabulary it
// selected, its size, and the party's token total over it (after the DP
// caps, as it will train on it).
struct VocabularySelection {
  std::string vocabulary_sha256;
  uint64_t vocabulary_size = 0;
  int64_t tokens = 0;
};

// How the driver reaches the participants of a secure DP vocabulary:
// Contribute and Select address every owner (the compute parties, then the
// data holders outside the committee) and answer in owner order;
// SumAndDecrypt addresses the compute parties. Errors: the first failing
// participant's, with it named.
class VocabularyPartyGroup {
 public:
  virtual ~VocabularyPartyGroup() = default;
  virtual int num_parties() const = 0;           // the compute parties
  virtual int num_holders() const { return 0; }  // the data holders outside the committee
  // How errors name party `party` (0-based).
  virtual std::string PartyName(int party) const = 0;
  virtual absl::StatusOr<std::vector<protocol::VocabularyContribution>> Contribute() = 0;
  // Returns `decryptors` batches, of parties 0 .. decryptors-1.
  virtual absl::StatusOr<std::vector<crypto::PartialDecryptionBatch>> SumAndDecrypt(
      const std::vector<protocol::VocabularyContribution>& contributions, int decryptors) = 0;
  virtual absl::StatusOr<std::vector<VocabularySelection>> Select(
      const std::vector<crypto::PartialDecryptionBatch>& partials) = 0;
};

struct DrivenDpVocabulary {
  std::vector<lda::TermId> selected;  // candidate ids, ascending
  lda::Vocabulary vocabulary;         // the selected candidates, in that order
  std::vector<int64_t> noisy_counts;  // the decrypted release (DP), one per candidate
  std::vector<int64_t> tokens;        // each owner's, from its Select answer
  uint64_t coordinator_bytes = 0;
  uint64_t contribution_bytes = 0;  // one party's contribution
  uint64_t partial_bytes = 0;       // one decrypting party's partial decryptions with proofs
  double seconds = 0;
};

absl::StatusOr<DrivenDpVocabulary> DriveDpVocabulary(VocabularyPartyGroup& parties,
                                                     const privacy::CandidateUnionPlan& plan,
                                                     const lda::Vocabulary& candidates,
                                                     const crypto::ThresholdPublicKeyPtr& key,
                                                     ThreadPool* pool);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DP_VOCABULARY_DRIVER_H_
