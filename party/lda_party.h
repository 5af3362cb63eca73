// LdaParty: one compute party's role in the secure batched-Gibbs LDA
// protocol (DESIGN.md section 4; docs/protocol.md gives every message and
// the simulation argument). A party holds its documents (term ids over the
// consortium's public vocabulary), the topics of its own tokens, its
// document-topic counts n_m(k) (never sent anywhere), its threshold Paillier
// key share, and runs the MPC steps with the other compute parties through
// an MpcEngine. A party without documents is the data-less helper: it runs
// the same code with no tokens.
//
// The coordinator is untrusted (docs/protocol.md, "Untrusted coordinator"):
// it only relays. A party keeps its own EncryptedCounts, folded from the
// updates the coordinator relays (AcceptUpdates checks that its own entry is
// exactly what it sent), and the parties compare the fold's hash-chain
// digest over their authenticated MPC links before using it. So a party
// computes on, and decrypts, only counts every party agreed are the fold of
// the run; never a ciphertext the coordinator handed it.
//
// One iteration, RunIteration(engine) (every party calls it after accepting
// the same updates; rounds are identical at every party):
//  1. Selection (owner-local, Paillier): for its tokens the party builds
//     packed ciphertexts of c_ik = n_k(t_i) - [k = z_i] from its own fold by
//     shifting each token's term row into its slots (Horner with 2^(C W)
//     powers), adds the packed -[k = z_i] correction and re-randomises.
//  2. Exchange of the selection ciphertexts, each prefixed by the sender's
//     fold digest (one ExchangeWithAll round; a digest that differs from
//     ours is FailedPrecondition: the coordinator relayed different updates);
//     CiphertextToShares converts every party's selections and the totals
//     [n_k] into Shamir shares (2 rounds).
//  3. Input round: the owner shares d_ik = n_m(k) - [k = z_i] and
//     e_ik = [k = z_i] for its tokens.
//  4. Normalisers: Den0 = Q n_k + V B, Den1 = Q (n_k - 1) + V B;
//     R = Reciprocal(Den, k, f). Den1 is used only by tokens of topic k, so
//     its value when n_k = 0 does not matter as long as it is a valid
//     reciprocal input (>= 1): true when V B > Q. Otherwise
//     (plan.zero_topic_guard()) Equal(n_k, 0) adds Q [n_k = 0] to it.
//     The reciprocal's and the draw's masks come from one GenerateMasks
//     call (one round with pseudo-random sharing).
//  5. Weights: one Mul round for X Y and e (R1 - R0), one for
//     w = X Y (R0 + e (R1 - R0)); SecureDraw reveals each token's topic to
//     its owner only.
//  6. The owner updates z and n_m(k) and returns a CountUpdate with its
//     packed encrypted deltas of every term (data-less parties return an
//     empty update). With data holders every member receives its share of
//     each holder's packed deltas (party/holder_delta_shares.h), adds them
//     to its own and encrypts the sum: every member's update is then a full
//     one, data-less or not, and the holders' are empty.
// Data holders outside the committee (plan.num_holders() > 0; their side is
// party/data_holder.h): the party needs their committee links
// (set_holder_links). Before step 1 it attests to each holder the digest of
// its fold's draw matrix; in step 2 it also receives each holder's
// selection (checked against that digest) and converts it with the rest;
// in step 3 it receives each holder's inputs as shares; step 5 reveals each
// holder's topics to it alone (data_holder_rounds.h gives the links'
// rounds). The owners' tokens are in owner order: the committee's, then
// the holders'.
// DP training (plan.dp(); docs/protocol.md "DP training"): when iteration
// i + 1 starts with a release, the update of iteration i (the initial counts
// for i = 0) also carries the party's encrypted noise shares
// (secure_dp_noise.h), every party's, data-less or not. EncryptedCounts
// folds them into a noisy copy of the new counts, never into the exact
// ones; steps 1-2 read the latest noisy copy (N(t, k) and the noisy totals,
// every party's own fold of the relayed noise, digest-checked as above).
// After the conversion, step 3 is preceded by the clamp on shares:
// c_ik <- max(c_ik, 0), n_k <- max(n_k, 0) (one LessThan batch of T K + K
// values on value_bits bits and one Mul round), and the zero-topic guard is
// always on, so each token's weights are exactly the plaintext twin's
// (privacy/dp_count_training.h). Publication decrypts the latest release.
// Publication: AcceptUpdates(last updates), ConfirmCounts(engine) (one
// digest round), then DecryptModel(requested digest) by the decrypting
// parties: partial decryptions of the party's own fold, with proofs of
// correct decryption, refused (FailedPrecondition) when the requested
// digest is not the agreed one.
// Errors: InvalidArgument / FailedPrecondition for messages of the wrong run,
// iteration or shape (naming the field); engine and crypto errors pass
// through. After an error the run cannot continue (parties are out of step).
// Thread-safety: one thread drives a party; the ThreadPool given at creation
// may be shared by several parties (its calls are serialised).
#ifndef PPLDA_PARTY_LDA_PARTY_H_
#define PPLDA_PARTY_LDA_PARTY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "crypto/conversion/share_conversion.h"
#include "crypto/mpc/committee_links.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_evaluator.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/random/secure_rng.h"
#include "lda/vocabulary.h"
#include "party/owned_tokens.h"
#include "proto/run_state.pb.h"
#include "protocol/encrypted_counts.h"
#include "protocol/messages.h"
#include "protocol/phase_times.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::party {

class LdaParty {
 public:
  // `documents[m]` are term ids in [0, plan.num_terms()); `topics[m][i]` the
  // initial topic of token i of document m, in [0, K). The party's token
  // count must equal plan.tokens_of(party). The key share, encryptor,
  // proof_rng (randomness of the decryption proofs) and pool must outlive
  // the party; pool may be null. dp_noise_rng (the party's DP-noise source,
  // libsodium in production; must outlive the party) is required when
  // plan.dp() and unused otherwise.
  static absl::StatusOr<std::unique_ptr<LdaParty>> Create(
      int party, std::string run_id, const protocol::SecureLdaPlan& plan,
      std::vector<std::vector<lda::TermId>> documents, std::vector<std::vector<int>> topics,
      const crypto::PaillierKeyShare& key_share, const crypto::PaillierEncryptor& encryptor,
      crypto::SecureRng& proof_rng, ThreadPool* pool, crypto::SecureRng* dp_noise_rng = nullptr);

  int party() const { return party_; }
  const protocol::SecureLdaPlan& plan() const { return plan_; }
  int64_t num_tokens() const { return tokens_->size(); }
  // The data holders' committee links (this party's endpoint); required,
  // and must outlive the party, when the plan has data holders.
  void set_holder_links(crypto::CommitteeLinks* links) { holder_links_ = links; }

  // The packed encrypted initial counts (iteration 0).
  absl::StatusOr<protocol::CountUpdate> InitialCounts();
  // Instead of InitialCounts, on a party created with the topics `state`
  // saved: the state after `iterations_done` iterations (its fold of the
  // updates up to iterations_done - 1, from `state`), with `sent` (this
  // party's update of iterations_done, as saved) outstanding. The next call
  // is AcceptUpdates. InvalidArgument naming the field for a state that does
  // not fit the plan; FailedPrecondition on a party that has started.
  absl::Status Restore(int iterations_done, const protocol::CountUpdate& sent,
                       const pplda::v1::PartyRunState& state);
  // Folds the coordinator's relay of every party's update of the last
  // iteration this party ran (0 after InitialCounts). InvalidArgument when
  // this party's own entry is not what it sent; EncryptedCounts::Fold's
  // errors otherwise. A refused relay changes nothing.
  absl::Status AcceptUpdates(const std::vector<protocol::CountUpdate>& updates);
  // One iteration (steps above) on the accepted counts; returns this
  // party's delta update. FailedPrecondition when the updates of the
  // previous iteration were not accepted.
  absl::StatusOr<protocol::CountUpdate> RunIteration(crypto::MpcEngine& engine);
  // One round: every party checks the others folded the same updates.
  absl::Status ConfirmCounts(crypto::MpcEngine& engine);
  // Partial decryptions, with proofs, of this party's confirmed fold, when
  // `requested` (the coordinator's digest of what it will combine) is it.
  absl::StatusOr<protocol::DecryptionShare> DecryptModel(
      const protocol::CountsDigest& requested) const;
  // The digest of the accepted fold (EncryptedCounts::digest()).
  const protocol::CountsDigest& counts_digest() const { return counts_.digest(); }
  // This party's own fold of the relayed updates.
  const protocol::EncryptedCounts& counts() const { return counts_; }
  int iterations_done() const { return iterations_done_; }

  // Topics of this party's tokens, per document.
  std::vector<std::vector<int>> Assignments() const;
  // theta_m(k) = (n_m(k) + alpha) / (N_m + K alpha) for this party's
  // documents (alpha the plan's effective alpha).
  std::vector<std::vector<double>> DocumentTopicMixtures() const;
  const protocol::PartyPhaseTimes& times() const { return times_; }

 private:
  LdaParty(int party, std::string run_id, const protocol::SecureLdaPlan& plan,
           const crypto::PaillierKeyShare& key_share, const crypto::PaillierEncryptor& encryptor,
           crypto::SecureRng& proof_rng, ThreadPool* pool);

  // FailedPrecondition unless `digest` (party `from`'s) equals ours.
  absl::Status CheckPeerDigest(const std::vector<uint8_t>& digest, int from) const;
  // Every owner's selection ciphertexts in owner order: the committee's over
  // the engine, the data holders' over their links.
  absl::StatusOr<std::vector<crypto::Ciphertext>> ExchangeSelections(
      crypto::MpcEngine& engine, const std::vector<crypto::Ciphertext>& mine, int iteration) const;
  // Shares of d and e of every token (TK each, token order): the
  // committee's owners' by Input, the data holders' from their links.
  absl::Status OwnerInputs(crypto::MpcEngine& engine, int iteration, crypto::Shares& d,
                           crypto::Shares& e);
  // Shares of the weights of every token (global token order, token-major).
  // The draw's masks are made in the reciprocal's GenerateMasks call (one
  // round for both) and returned in `draw_masks`.
  absl::StatusOr<crypto::Shares> Weights(crypto::MpcEngine& engine, const crypto::Shares& converted,
                                         int iteration, std::vector<crypto::MaskBatch>& draw_masks);
  absl::StatusOr<protocol::CountUpdate> ApplyDraw(const std::vector<std::optional<int>>& drawn,
                                                  int iteration);
  // Packed encryption of `tables` as this party's update of `iteration`.
  absl::StatusOr<protocol::CountUpdate> EncryptCounts(const CountTables& tables,
                                                      int iteration) const;
  // With data holders: this party's packed `delta` plus its share of every
  // holder's (party/holder_delta_shares.h, received over the holder
  // links), encrypted once as its update of `iteration`.
  absl::StatusOr<protocol::CountUpdate> EncryptWithHolderShares(const CountTables& delta,
                                                                int iteration) const;
  // DP: when update.iteration + 1 starts with a release, draws this party's
  // noise shares and adds them, encrypted, to `update`.
  absl::Status AddNoise(protocol::CountUpdate& update) const;
  // Data holders: this party's fold's draw-matrix digest to each of them.
  absl::Status AttestToHolders(int iteration) const;
  // Records the digest of an update this party sends.
  protocol::CountUpdate Sent(protocol::CountUpdate update);

  int party_;
  std::string run_id_;
  protocol::SecureLdaPlan plan_;
  const crypto::PaillierKeyShare& key_share_;
  const crypto::PaillierEncryptor& encryptor_;
  crypto::SecureRng& proof_rng_;
  crypto::PaillierEvaluator evaluator_;
  protocol::EncryptedCounts counts_;
  protocol::CountsDigest sent_digest_{};  // of the last update this party sent
  bool sent_ = false;           // an update was sent and not yet accepted back
  bool confirmed_ = false;      // ConfirmCounts succeeded on the current fold
  std::unique_ptr<crypto::CiphertextToShares> converter_;
  crypto::SecureRng* noise_source_ = nullptr;  // DP runs only
  ThreadPool* pool_;
  crypto::CommitteeLinks* holder_links_ = nullptr;  // with data holders only
  std::optional<OwnedTokens> tokens_;
  int iterations_done_ = 0;
  protocol::PartyPhaseTimes times_;
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_LDA_PARTY_H_
