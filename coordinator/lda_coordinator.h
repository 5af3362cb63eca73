// LdaCoordinator: the coordinator's role in a secure LDA run (DESIGN.md
// section 4; docs/protocol.md). It holds the encrypted global topic-term
// matrix [n_k(t)] and topic totals [n_k] and nothing secret: no key share,
// no plaintext count. It
//   - folds each party's CountUpdate into the encrypted matrix by
//     homomorphic addition (iteration 0: initial counts, then deltas),
//   - hands every party the same GlobalCounts at the start of an iteration,
//   - publishes: combines the parties' partial decryptions of the final
//     counts (only the public key is needed) into the LdaModel.
// Checks (every rejection names the party and the field): a message of
// another run or iteration is FailedPrecondition; a missing or repeated
// party, or ciphertext batches of the wrong length, InvalidArgument (a party
// with no tokens, known publicly, may send an empty update); received
// ciphertexts are validated (in Z*_{N^2}). Published counts that are
// negative or whose row sums differ from the totals are Internal errors.
// Thread-safety: one caller at a time.
#ifndef PPLDA_COORDINATOR_LDA_COORDINATOR_H_
#define PPLDA_COORDINATOR_LDA_COORDINATOR_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "crypto/paillier_evaluator.h"
#include "crypto/paillier_threshold_key.h"
#include "lda/lda_model.h"
#include "party/protocol_messages.h"
#include "party/secure_lda_plan.h"

namespace pplda::coordinator {

class LdaCoordinator {
 public:
  // `pool` may be null and must outlive the coordinator.
  static absl::StatusOr<std::unique_ptr<LdaCoordinator>> Create(std::string run_id,
                                                                const party::SecureLdaPlan& plan,
                                                                crypto::ThresholdPublicKeyPtr key,
                                                                ThreadPool* pool);

  // Folds one update per party for `iteration` (0 = initial counts).
  absl::Status Fold(const std::vector<party::CountUpdate>& updates, int iteration);
  // The encrypted counts at the start of the next iteration.
  absl::StatusOr<party::GlobalCounts> Counts() const;
  // Combines the parties' decryption shares of Counts() into the model.
  absl::StatusOr<lda::LdaModel> Publish(const std::vector<party::DecryptionShare>& shares,
                                        const lda::Vocabulary& vocabulary) const;
  int iterations_folded() const { return folded_; }

 private:
  LdaCoordinator(std::string run_id, const party::SecureLdaPlan& plan,
                 crypto::ThresholdPublicKeyPtr key, ThreadPool* pool)
      : run_id_(std::move(run_id)),
        plan_(plan),
        key_(std::move(key)),
        evaluator_(key_->paillier()),
        pool_(pool) {}

  absl::Status CheckUpdate(const party::CountUpdate& update, int party, int iteration) const;
  absl::StatusOr<std::vector<int64_t>> DecodeCounts(
      const std::vector<party::DecryptionShare>& shares) const;

  std::string run_id_;
  party::SecureLdaPlan plan_;
  crypto::ThresholdPublicKeyPtr key_;
  crypto::PaillierEvaluator evaluator_;
  ThreadPool* pool_;
  std::vector<crypto::Ciphertext> matrix_;
  std::vector<crypto::Ciphertext> totals_;
  int folded_ = -1;  // last folded iteration
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_LDA_COORDINATOR_H_
