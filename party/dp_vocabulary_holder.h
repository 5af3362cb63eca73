// DpVocabularyHolder: a data holder's side of the secure DP vocabulary, for
// a holder outside the committee (party/dp_vocabulary_party.h is a
// committee member's; docs/protocol.md, "DP vocabulary"). It adds no noise
// (the members add all of it) and decrypts nothing:
//   1. Contribute: its candidate histogram h (each document's at most N
//      most frequent candidate terms, once each), packed as every
//      participant packs (protocol::VocabularyPackingLayout) and encrypted
//      under the threshold key. The contribution goes to the coordinator;
//      its digest (protocol::HolderContributionDigest) goes to every
//      member over the holder's own links, so that each member sums the
//      holder's contribution exactly as sent, once, or refuses.
//   2. AcceptSelection: every member's selected candidate ids, which reach
//      the holder over its own links once the members decrypted the noisy
//      counts and selected: they must all be equal (FailedPrecondition
//      naming the first member that differs); with an honest majority in
//      the committee they are the selection of the verified noisy counts.
// Each step once, in order (FailedPrecondition otherwise).
// What the holder learns: the selected vocabulary (the release's public
// output), nothing else of the other participants.
// Thread-safety: none; one object per holder and run.
#ifndef PPLDA_PARTY_DP_VOCABULARY_HOLDER_H_
#define PPLDA_PARTY_DP_VOCABULARY_HOLDER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/thread_pool.h"
#include "crypto/paillier/packing.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "lda/vocabulary.h"
#include "privacy/dp_candidate_union.h"
#include "protocol/dp_vocabulary_messages.h"
#include "protocol/encrypted_counts.h"

namespace pplda::party {

class DpVocabularyHolder {
 public:
  // `owner` is the holder's owner index (n + h for data holder h of a
  // committee of n); `key` and `encryption_rng` must outlive the object.
  // InvalidArgument when `owner` is not one of the plan's data holders.
  static absl::StatusOr<std::unique_ptr<DpVocabularyHolder>> Create(
      std::string run_id, int owner, privacy::CandidateUnionPlan plan,
      const crypto::ThresholdPublicKeyPtr& key, crypto::SecureRng& encryption_rng,
      ThreadPool* pool);

  // Step 1. `documents` over the candidates.
  absl::StatusOr<protocol::VocabularyContribution> Contribute(const lda::Corpus& documents,
                                                              const lda::Vocabulary& candidates);
  // After step 1: what the holder sends every member.
  const protocol::CountsDigest& contribution_digest() const { return digest_; }
  // Step 2. `by_member[j]` member j's selection, candidate ids ascending.
  absl::StatusOr<std::vector<lda::TermId>> AcceptSelection(
      absl::Span<const std::vector<lda::TermId>> by_member);

 private:
  DpVocabularyHolder(std::string run_id, int owner, privacy::CandidateUnionPlan plan,
                     const crypto::ThresholdPublicKeyPtr& key, crypto::PackingLayout layout,
                     std::unique_ptr<crypto::PaillierEncryptor> encryptor, ThreadPool* pool)
      : run_id_(std::move(run_id)),
        owner_(owner),
        plan_(std::move(plan)),
        key_(key),
        layout_(std::move(layout)),
        encryptor_(std::move(encryptor)),
        pool_(pool) {}

  std::string run_id_;
  int owner_;
  privacy::CandidateUnionPlan plan_;
  crypto::ThresholdPublicKeyPtr key_;
  crypto::PackingLayout layout_;
  std::unique_ptr<crypto::PaillierEncryptor> encryptor_;
  ThreadPool* pool_;
  bool contributed_ = false;
  bool selected_ = false;
  protocol::CountsDigest digest_{};
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DP_VOCABULARY_HOLDER_H_
