// DataHolder: a data holder's role in a secure run (a participant outside
// the committee: documents, no key share; docs/protocol.md, "Data
// holders"). It keeps its documents, the topics of its tokens and n_m(k)
// (OwnedTokens), encrypts with the public key only, and decrypts nothing.
// One iteration (the committee runs LdaParty::RunIteration alongside; the
// rounds are protocol/data_holder_rounds.h's, on its committee links):
//  1. From every member, the digest of the draw matrix the committee
//     agreed on; the matrix it was handed (the coordinator's copy) must
//     hash to it: FailedPrecondition naming the member otherwise, before
//     anything is computed on it.
//  2. Its selection ciphertexts from that matrix, re-randomised, to every
//     member with the digest.
//  3. Its inputs d and e as Shamir shares of degree t, one message a member.
//  4. Its tokens' topics, revealed to it alone (secure_draw.h).
//  5. It updates z and n_m(k) and hands each member its share of the
//     packed deltas of every term (party/holder_delta_shares.h); the members
//     encrypt the sum into their own updates, and the holder's CountUpdate
//     of the iteration is empty (never DP noise: the committee adds it).
//     Its initial counts (iteration 0) it encrypts itself.
// What it sends and receives grows with its own tokens and the public
// matrix only. Errors name the holder; after an error the run cannot go on.
// Thread-safety: one thread drives a holder.
#ifndef PPLDA_PARTY_DATA_HOLDER_H_
#define PPLDA_PARTY_DATA_HOLDER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "crypto/mpc/committee_links.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_evaluator.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "crypto/random/secure_rng.h"
#include "party/owned_tokens.h"
#include "protocol/encrypted_counts.h"
#include "protocol/messages.h"
#include "protocol/phase_times.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::party {

class DataHolder {
 public:
  // Data holder `holder` of `plan` (owner plan.HolderOwner(holder)), whose
  // token count must be the plan's; `committee` the committee's MPC config.
  // key, encryptor and pool (may be null) must outlive the holder.
  static absl::StatusOr<std::unique_ptr<DataHolder>> Create(
      int holder, std::string run_id, const protocol::SecureLdaPlan& plan,
      const crypto::MpcConfig& committee, std::vector<std::vector<lda::TermId>> documents,
      std::vector<std::vector<int>> topics, crypto::ThresholdPublicKeyPtr key,
      const crypto::PaillierEncryptor& encryptor, ThreadPool* pool);

  int holder() const { return holder_; }
  int owner() const { return plan_.HolderOwner(holder_); }
  int64_t num_tokens() const { return tokens_->size(); }

  // The packed encrypted counts of the initial topics (iteration 0).
  absl::StatusOr<protocol::CountUpdate> InitialCounts() const;
  // Iteration `iteration` (1-based) over `matrix`, the draw matrix after
  // iteration - 1 as the coordinator handed it; `links` this holder's
  // endpoint, `rng` the randomness of its input shares.
  absl::StatusOr<protocol::CountUpdate> RunIteration(int iteration,
                                                     const std::vector<crypto::Ciphertext>& matrix,
                                                     crypto::CommitteeLinks& links,
                                                     crypto::SecureRng& rng);
  int iterations_done() const { return iterations_done_; }
  // Instead of InitialCounts, on a holder created with the topics saved
  // after `iterations_done` iterations: the next call is RunIteration of
  // iterations_done + 1. FailedPrecondition on a holder that has started.
  absl::Status Restore(int iterations_done);

  std::vector<std::vector<int>> Assignments() const { return tokens_->Assignments(); }
  std::vector<std::vector<double>> DocumentTopicMixtures() const;
  const protocol::PartyPhaseTimes& times() const { return times_; }

 private:
  DataHolder(int holder, std::string run_id, const protocol::SecureLdaPlan& plan,
             const crypto::MpcConfig& committee, crypto::ThresholdPublicKeyPtr key,
             const crypto::PaillierEncryptor& encryptor, ThreadPool* pool);
  // Step 1: the attested digest of `matrix`.
  absl::StatusOr<protocol::CountsDigest> CheckAttestations(
      int iteration, const std::vector<crypto::Ciphertext>& matrix,
      crypto::CommitteeLinks& links) const;
  absl::StatusOr<protocol::CountUpdate> Encrypt(const CountTables& tables, int iteration) const;

  int holder_;
  std::string run_id_;
  protocol::SecureLdaPlan plan_;
  crypto::MpcConfig committee_;
  crypto::ThresholdPublicKeyPtr key_;
  const crypto::PaillierEncryptor& encryptor_;
  crypto::PaillierEvaluator evaluator_;
  ThreadPool* pool_;
  std::optional<OwnedTokens> tokens_;
  int iterations_done_ = 0;
  protocol::PartyPhaseTimes times_;
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DATA_HOLDER_H_
