// LdaCoordinator: the coordinator's role in a secure LDA run (DESIGN.md
// section 4; docs/protocol.md). It holds the encrypted global topic-term
// matrix [n_k(t)] and topic totals [n_k] and nothing secret: no key share,
// no plaintext count. It
//   - folds each party's CountUpdate into the encrypted matrix by
//     homomorphic addition (iteration 0: initial counts, then deltas) with
//     the same EncryptedCounts every party keeps (protocol/encrypted_counts.h;
//     the parties do not trust this fold: they fold the relayed updates
//     themselves and compare digests),
//   - publishes: verifies each party's proofs of correct decryption against
//     its own fold and combines the partial decryptions of the final counts
//     (only the public key is needed) into the LdaModel.
// Checks (every rejection names the party and the field): a message of
// another run or iteration is FailedPrecondition; a missing or repeated
// party, or ciphertext batches of the wrong length, InvalidArgument (a party
// with no tokens, known publicly, may send an empty update); received
// ciphertexts are validated (in Z*_{N^2}); a partial decryption whose proof
// fails is InvalidArgument naming the party. Published counts that are
// negative or whose row sums differ from the totals are Internal errors.
// DP runs (plan.dp()): publication decrypts the latest noisy release
// (protocol/encrypted_counts.h); its row sums must equal its noisy totals, and
// negative noisy cells are set to 0 in the model (the twin's clamp).
// Thread-safety: one caller at a time.
#ifndef PPLDA_COORDINATOR_LDA_COORDINATOR_H_
#define PPLDA_COORDINATOR_LDA_COORDINATOR_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "lda/lda_model.h"
#include "proto/run_state.pb.h"
#include "protocol/encrypted_counts.h"
#include "protocol/messages.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::coordinator {

class LdaCoordinator {
 public:
  // `pool` may be null and must outlive the coordinator.
  static absl::StatusOr<std::unique_ptr<LdaCoordinator>> Create(std::string run_id,
                                                                const protocol::SecureLdaPlan& plan,
                                                                crypto::ThresholdPublicKeyPtr key,
                                                                ThreadPool* pool);

  // Folds one update per party for `iteration` (0 = initial counts).
  absl::Status Fold(const std::vector<protocol::CountUpdate>& updates, int iteration);
  // The fold after `iteration` iterations as the coordinator's run state
  // file saved it (EncryptedCounts::Restore's checks), to resume a run.
  absl::Status Restore(const pplda::v1::CoordinatorRunState& state);
  // The encrypted counts at the start of the next iteration.
  absl::StatusOr<protocol::GlobalCounts> Counts() const { return counts_.Counts(); }
  // The hash-chain digest of every update folded (what parties decrypt).
  const protocol::CountsDigest& digest() const { return counts_.digest(); }
  // Combines the parties' decryption shares of Counts() into the model.
  absl::StatusOr<lda::LdaModel> Publish(const std::vector<protocol::DecryptionShare>& shares,
                                        const lda::Vocabulary& vocabulary) const;
  int iterations_folded() const { return counts_.folded(); }
  // The fold itself (what the run state file saves).
  const protocol::EncryptedCounts& fold() const { return counts_; }
  const crypto::ThresholdPublicKey& public_key() const { return *key_; }
  const protocol::SecureLdaPlan& plan() const { return plan_; }

 private:
  LdaCoordinator(std::string run_id, const protocol::SecureLdaPlan& plan,
                 crypto::ThresholdPublicKeyPtr key, ThreadPool* pool)
      : run_id_(std::move(run_id)),
        plan_(plan),
        key_(std::move(key)),
        counts_(run_id_, plan_, key_, pool),
        pool_(pool) {}

  absl::StatusOr<std::vector<int64_t>> DecodeCounts(
      const std::vector<protocol::DecryptionShare>& shares) const;

  std::string run_id_;
  protocol::SecureLdaPlan plan_;
  crypto::ThresholdPublicKeyPtr key_;
  protocol::EncryptedCounts counts_;
  ThreadPool* pool_;
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_LDA_COORDINATOR_H_
