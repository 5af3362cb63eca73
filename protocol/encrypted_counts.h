// EncryptedCounts: the encrypted global topic-term matrix [n_k(t)] and topic
// totals [n_k] of one run, as the fold (homomorphic sum) of every party's
// CountUpdates, iteration by iteration (docs/protocol.md, "Untrusted
// coordinator"). The coordinator keeps one to publish; EVERY PARTY KEEPS ITS
// OWN, folded from the updates the coordinator relays, so that a party only
// ever computes on, and decrypts, counts it folded itself: the coordinator
// cannot hand it an arbitrary ciphertext.
//
// Fold(updates, i) checks, naming the party and the field: run id and
// iteration (FailedPrecondition), one update per token owner in owner order
// (the committee's parties, then the data holders; SecureLdaPlan), the
// ciphertext counts of the plan (InvalidArgument; a party with no tokens,
// known publicly, sends an empty update; with data holders, from iteration
// 1 on, every holder's update is empty and every member's full: the
// holders' deltas reach the members as shares, party/holder_delta_shares.h),
// every ciphertext in Z*_{N^2} (InvalidArgument). A failed Fold leaves the counts unchanged.
// digest() is a hash chain over every update folded so far:
//   D_-1 = 0, D_i = BLAKE2b-256(D_{i-1} || run id || i || UpdateDigest(u_0)
//                               || ... || UpdateDigest(u_{n-1})),
// UpdateDigest(u) = BLAKE2b-256 of u's party, iteration and fixed-width
// big-endian ciphertexts. Two parties with equal digests folded the same
// updates in every iteration; with each party checking that its own entry
// is what it sent, equal digests mean every fold is the honest one (a
// digest of the folded matrix alone would not do: a coordinator could make
// different update lists sum to the same chosen combination).
//
// DP training (plan.dp(); protocol/secure_dp_noise.h): when iteration i + 1
// starts with a release, Fold(updates, i) also checks that every party's
// update carries its noise ciphertexts (InvalidArgument naming the party
// otherwise, and when noise comes for an iteration without a release or
// from a data holder: only the committee adds noise) and
// computes the release [N] = [C] * prod_p [Z_p] (the fold of the new exact
// counts with every party's noise rows; the noisy totals likewise from the
// noise totals) as a SEPARATE copy: the exact matrix never holds noise, and
// each release's noise is fresh. The noise ciphertexts are part of
// UpdateDigest, so the digest chain covers every release too.
// draw_matrix() / draw_totals() are what the selection reads: the latest
// release in a DP run, the exact counts otherwise; AllCiphertexts() (what
// publication decrypts) is the latest release in a DP run: the published
// model is never the exact counts.
// Thread-safety: one caller at a time.
#ifndef PPLDA_PROTOCOL_ENCRYPTED_COUNTS_H_
#define PPLDA_PROTOCOL_ENCRYPTED_COUNTS_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "crypto/paillier/paillier_evaluator.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "proto/paillier.pb.h"
#include "protocol/messages.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::protocol {

using CountsDigest = std::array<uint8_t, 32>;

// Lower-case hex of a digest (for logs and wire messages).
std::string DigestHex(const CountsDigest& digest);
// BLAKE2b-256 of one update (party, iteration, ciphertexts of `width` bytes).
CountsDigest UpdateDigest(const CountUpdate& update, size_t width);
// BLAKE2b-256 of `label` and ciphertexts of `width` bytes (below N^2).
CountsDigest CiphertextsDigest(std::string_view label, const std::vector<crypto::Ciphertext>& cts,
                               size_t width);

class EncryptedCounts {
 public:
  // `pool` may be null and must outlive this object.
  EncryptedCounts(std::string run_id, const SecureLdaPlan& plan, crypto::ThresholdPublicKeyPtr key,
                  ThreadPool* pool);

  // Folds one update per party for `iteration` (0 = initial counts).
  absl::Status Fold(const std::vector<CountUpdate>& updates, int iteration);
  // The state after `folded` iterations as a run state file saved it
  // (protocol/run_state_file.h): InvalidArgument naming the field when a batch
  // has the wrong length for the plan or a ciphertext is not in Z*_{N^2},
  // or the DP release does not fit the plan; FailedPrecondition once
  // anything was folded. Nothing is changed on error.
  absl::Status Restore(int folded, const CountsDigest& digest,
                       std::vector<crypto::Ciphertext> matrix,
                       std::vector<crypto::Ciphertext> totals,
                       std::vector<crypto::Ciphertext> noisy_matrix,
                       std::vector<crypto::Ciphertext> noisy_totals, int release_iteration);
  // Restore from a run state file's fields (the party's and the
  // coordinator's state hold the same ones): the batches are decoded for
  // the plan's shapes (no noisy release before release_iteration > 0);
  // errors as Restore's, the field named.
  absl::Status RestoreFromState(int folded, const std::string& digest,
                                const pplda::v1::CiphertextBatch& matrix,
                                const pplda::v1::CiphertextBatch& totals,
                                const pplda::v1::CiphertextBatch& noisy_matrix,
                                const pplda::v1::CiphertextBatch& noisy_totals,
                                int release_iteration);
  // Last folded iteration; -1 before the initial counts.
  int folded() const { return folded_; }
  // The counts at the start of iteration folded() + 1 (FailedPrecondition
  // before the initial counts are folded).
  absl::StatusOr<GlobalCounts> Counts() const;
  const std::vector<crypto::Ciphertext>& matrix() const { return matrix_; }
  const std::vector<crypto::Ciphertext>& totals() const { return totals_; }
  // The counts the selection reads (see above).
  const std::vector<crypto::Ciphertext>& draw_matrix() const {
    return plan_.dp() ? noisy_matrix_ : matrix_;
  }
  const std::vector<crypto::Ciphertext>& draw_totals() const {
    return plan_.dp() ? noisy_totals_ : totals_;
  }
  // DP: the latest release (empty before the first, and without DP).
  const std::vector<crypto::Ciphertext>& noisy_matrix() const { return noisy_matrix_; }
  const std::vector<crypto::Ciphertext>& noisy_totals() const { return noisy_totals_; }
  // DP: the 1-based iteration whose start made the latest release (0: none).
  int release_iteration() const { return release_iteration_; }
  // Matrix then totals, the order decryption shares follow (the latest
  // release in a DP run).
  std::vector<crypto::Ciphertext> AllCiphertexts() const;
  const CountsDigest& digest() const { return digest_; }

 private:
  absl::Status CheckUpdate(const CountUpdate& update, int party, int iteration) const;
  void ChainDigest(const std::vector<CountUpdate>& updates, int iteration);

  std::string run_id_;
  SecureLdaPlan plan_;
  crypto::ThresholdPublicKeyPtr key_;
  crypto::PaillierEvaluator evaluator_;
  ThreadPool* pool_;
  std::vector<crypto::Ciphertext> matrix_;
  std::vector<crypto::Ciphertext> totals_;
  std::vector<crypto::Ciphertext> noisy_matrix_;  // DP: the latest release
  std::vector<crypto::Ciphertext> noisy_totals_;
  int release_iteration_ = 0;
  int folded_ = -1;
  CountsDigest digest_{};
};

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_ENCRYPTED_COUNTS_H_
