// DpVocabularyParty: one compute party's side of the secure DP vocabulary
// (privacy/dp_candidate_union.h has the mechanism and its privacy argument;
// docs/protocol.md, "DP vocabulary", the messages). Three steps, each a pure
// function of the party's state and what it is handed, so the same code runs
// in one process (simulation/secure_vocabulary.h) and across daemons:
//
//   1. Contribute: the party's candidate histogram h_p (zeros for a
//      data-less helper) plus its own noise shares Z_p, packed (signed
//      slots, crypto/paillier/packing.h) and encrypted under the threshold key.
//   2. AcceptContributions: every party's contribution, relayed by the
//      coordinator. The party checks there is exactly one from each compute
//      party, of the plan's length, every ciphertext in Z*_{N^2}, and its own
//      is the one it sent; it sums them itself (E(sum_p h_p + Z_p)) and
//      returns the digest of the whole ordered LIST it was handed (with the
//      run id, the plan and the candidates), not of the sum: a coordinator
//      that hands parties different lists with the same product (say
//      {c_A, c_B, c_A^-1} to A and {c_B, 1, 1} to B, whose sums both decrypt
//      h_B + Z_B, one party's data under one noise share) gives them
//      different digests.
//   3. ConfirmDigests: every party's digest, which must reach the party over
//      the parties' own authenticated links (the MPC transport), never
//      through the coordinator; all must equal its own. Since each party
//      checked its own entry, equal lists are the true contributions.
//   4. Decrypt: partial decryptions of the sum with proofs of correct
//      decryption, once the digests are confirmed.
// Each step runs once (FailedPrecondition on a repeat: a second
// contribution would draw fresh noise and let the same counts be released
// twice).
// DecodeNoisyCandidateCounts (anyone holding threshold-many verified
// batches; the coordinator in a run) combines them into the noisy counts,
// and privacy::SelectCandidates gives the vocabulary.
//
// What a party learns: the encrypted contributions, and after decryption
// the noisy counts (a DP release). No histogram is ever decrypted alone.
// Thread-safety: none; one object per party and run.
#ifndef PPLDA_PARTY_DP_VOCABULARY_PARTY_H_
#define PPLDA_PARTY_DP_VOCABULARY_PARTY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/paillier/packing.h"
#include "crypto/paillier/paillier_ciphertext.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "lda/vocabulary.h"
#include "privacy/dp_candidate_union.h"
#include "protocol/dp_vocabulary_messages.h"
#include "protocol/encrypted_counts.h"

namespace pplda::party {

class DpVocabularyParty {
 public:
  // `party` is 0-based; the key share's party is party + 1. The key share
  // and `encryption_rng` must outlive the object.
  // InvalidArgument when the plan's n differs from the key's parties or
  // `party` is out of range.
  static absl::StatusOr<std::unique_ptr<DpVocabularyParty>> Create(
      std::string run_id, int party, privacy::CandidateUnionPlan plan,
      const crypto::PaillierKeyShare& key_share, crypto::SecureRng& encryption_rng,
      ThreadPool* pool);

  // Step 1. `documents` may be empty (a data-less helper); `noise_rng` is
  // the party's DP-noise source (libsodium in production).
  absl::StatusOr<protocol::VocabularyContribution> Contribute(const lda::Corpus& documents,
                                                              const lda::Vocabulary& candidates,
                                                              crypto::SecureRng& noise_rng);
  // Step 2. InvalidArgument naming the party whose contribution is missing,
  // repeated, of the wrong run or length, or not a ciphertext;
  // FailedPrecondition before Contribute or when the party's own
  // contribution is not the one it sent. With data holders outside the
  // committee (the plan's holders, owners n .. n + holders - 1, adding no
  // noise), `holder_digests[h]` is what holder h sent this member over its
  // own link (protocol::HolderContributionDigest): contribution n + h must
  // hash to it (FailedPrecondition naming the holder), so that no holder's
  // histogram enters the sum but as the holder sent it, once.
  absl::StatusOr<protocol::CountsDigest> AcceptContributions(
      absl::Span<const protocol::VocabularyContribution> contributions,
      absl::Span<const protocol::CountsDigest> holder_digests = {});
  // Step 3. FailedPrecondition before step 2, or naming the first party
  // whose digest differs from this party's (InvalidArgument for a wrong
  // count of digests).
  absl::Status ConfirmDigests(absl::Span<const protocol::CountsDigest> digests);
  // Step 4. FailedPrecondition before step 3 or for another digest.
  absl::StatusOr<crypto::PartialDecryptionBatch> Decrypt(const protocol::CountsDigest& requested,
                                                         crypto::SecureRng& proof_rng) const;

  const std::vector<crypto::Ciphertext>& sum() const { return sum_; }

 private:
  DpVocabularyParty(std::string run_id, int party, privacy::CandidateUnionPlan plan,
                    const crypto::PaillierKeyShare& key_share, crypto::PackingLayout layout,
                    std::unique_ptr<crypto::PaillierEncryptor> encryptor, ThreadPool* pool)
      : run_id_(std::move(run_id)),
        party_(party),
        plan_(std::move(plan)),
        key_share_(key_share),
        layout_(std::move(layout)),
        encryptor_(std::move(encryptor)),
        pool_(pool) {}

  std::string run_id_;
  int party_;
  privacy::CandidateUnionPlan plan_;
  const crypto::PaillierKeyShare& key_share_;
  crypto::PackingLayout layout_;
  std::unique_ptr<crypto::PaillierEncryptor> encryptor_;
  ThreadPool* pool_;
  std::optional<std::vector<crypto::Ciphertext>> sent_;
  std::vector<crypto::Ciphertext> sum_;
  std::optional<protocol::CountsDigest> digest_;
  bool confirmed_ = false;
  std::string context_;  // run id, plan and candidates: bound into the digest
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DP_VOCABULARY_PARTY_H_
