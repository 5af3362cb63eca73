// PartySession: a compute party daemon's side of one run (a RunSession),
// as a state machine over the PartyControl messages
// (proto/party_control_service.proto; the gRPC adapter in party/daemon/
// authenticates the caller and maps statuses). The run's transport links
// every owner (net/consortium_file.h): the MPC engine uses the committee's
// part of it (crypto/mpc/committee_transport.h), and with data holders
// outside the committee the same transport carries the committee links to
// them (crypto/mpc/committee_links.h; their side is holder_session.h).
//
//   Create (Join)  checks the run parameters and that the party holds the
//                  vocabulary the coordinator names (SHA-256);
//   Vocabulary     runs with a DP vocabulary only (dp_vocab_epsilon > 0; the
//                  consortium vocabulary is then the public candidate list),
//                  three calls in order (party/dp_vocabulary_party.h):
//                  contribute (the privacy budget is debited here), decrypt
//                  (sums every contribution, ONE MPC ROUND comparing the
//                  digests, partial decryptions when asked), select (verifies
//                  the partial decryptions, selects the vocabulary, restricts
//                  the documents to it and caps them; the run's vocabulary is
//                  from then on the selected one);
//   Prepare        builds the public plan from every party's token total,
//                  then ONE MPC ROUND in which the parties compare a hash of
//                  (run id, parameters, vocabulary, token totals of every
//                  owner): a coordinator that told parties different plans
//                  is caught here (FailedPrecondition); then each member
//                  sends that hash to every data holder, which compares it
//                  with its own; returns the initial counts;
//   Iterate(i)     i must be the next iteration (FailedPrecondition
//                  otherwise); folds the relayed updates (LdaParty checks its
//                  own entry and the parties compare fold digests) and runs
//                  the iteration;
//   Publish        folds the last updates, confirms them among the parties,
//                  partially decrypts (with proofs) when asked and only the
//                  agreed fold; writes this party's document-topic mixtures
//                  to STATE/runs/<run id>/mixtures.csv (0600).
// A repeated call (a coordinator that restarted and resumes from its last
// saved boundary: docs/protocol.md, "Restarts"): Iterate(i) for the
// iteration this party last completed, or Publish once published, with the
// same relayed updates (compared by their digests) and request, gets the
// reply it already gave, recomputing and revealing nothing new; with other
// updates it is FailedPrecondition.
// A failed step leaves the session unusable for the run (the parties are
// out of step): failed() is true and every later call is Aborted (only a
// Resume from a saved boundary goes on).
// Randomness comes from rng_factory, one source per PartyRandomSource
// (party_randomness.h; libsodium in the daemon unless configured INSECURE
// deterministic for tests).
// Thread-safety: one caller at a time (the adapter locks).
#ifndef PPLDA_PARTY_PARTY_SESSION_H_
#define PPLDA_PARTY_PARTY_SESSION_H_

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "crypto/mpc/committee_links.h"
#include "crypto/mpc/committee_transport.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/transport.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "crypto/paillier/paillier_key_share.h"
#include "crypto/random/secure_rng.h"
#include "lda/corpus.h"
#include "party/dp_vocabulary_party.h"
#include "party/iteration_randomness.h"
#include "party/lda_party.h"
#include "party/party_randomness.h"
#include "party/party_resources.h"
#include "party/privacy_ledger.h"
#include "party/run_session.h"
#include "party/session_base.h"
#include "privacy/dp_count_training.h"
#include "proto/party_control_service.pb.h"
#include "protocol/run_dp_budget.h"
#include "protocol/run_state_file.h"
#include "protocol/vocabulary_digest.h"

namespace pplda::party {

class PartySession final : public SessionBase {
 public:
  // Join. `transport` (this party's link to the others for this run) must
  // outlive the session.
  static absl::StatusOr<std::unique_ptr<PartySession>> Create(
      const std::string& run_id, const pplda::v1::RunParameters& parameters,
      const PartyResources& resources, crypto::PartyTransport& transport);

  // A party that restarted, or whose peer did (docs/protocol.md,
  // "Restarts"): the session rebuilt, on a new transport, from this party's
  // run state file after `iteration` iterations (its latest or previous
  // boundary), as Prepare (iteration 0) or Iterate(iteration) left it; the
  // next call is Iterate(iteration + 1), or Publish after the last. The
  // parameters are checked as at Join and against the file's plan digest;
  // nothing is debited again; a DP-vocabulary run's documents are rebuilt
  // over the selected terms the file holds. Errors name the file: NotFound
  // (no state at that iteration), DataLoss / FailedPrecondition as
  // ReadPartyRunState, FailedPrecondition for another plan, or for a run
  // this party published unless `iteration` is the last (its publication
  // runs again).
  // What Resume checks before reading any file: a run this party
  // published resumes only at its last iteration (FailedPrecondition).
  static absl::Status CheckResumable(const std::filesystem::path& state_dir,
                                     const std::string& run_id,
                                     const pplda::v1::RunParameters& parameters, int iteration);
  static absl::StatusOr<std::unique_ptr<PartySession>> Resume(
      const std::string& run_id, const pplda::v1::RunParameters& parameters,
      const PartyResources& resources, crypto::PartyTransport& transport, int iteration);
  // The run is over (the coordinator ended it after publication, or a Join
  // of another run dropped it): its run state files are removed (their
  // secrets, the run key and sharing keys, are no longer needed); the
  // `published` marker, if any, stays.
  static absl::Status RemoveRunState(const std::filesystem::path& state_dir,
                                     const std::string& run_id);

  int iterations_done() const override { return party_ == nullptr ? 0 : party_->iterations_done(); }
  // Hex of this party's fold digest (agreed with its peers once confirmed);
  // empty before Prepare.
  std::string counts_digest_hex() const override {
    return party_ == nullptr ? std::string() : protocol::DigestHex(party_->counts_digest());
  }

  absl::StatusOr<pplda::v1::VocabularyReply> Vocabulary(
      const pplda::v1::VocabularyRequest& request) override;
  absl::StatusOr<pplda::v1::PrepareReply> Prepare(
      const pplda::v1::PrepareRequest& request) override;
  absl::StatusOr<pplda::v1::IterateReply> Iterate(
      const pplda::v1::IterateRequest& request) override;
  absl::StatusOr<pplda::v1::PublishReply> Publish(
      const pplda::v1::PublishRequest& request) override;
  // The session's state for logs: "joined", "prepared", "iteration 3", ...
  std::string state() const override;

 private:
  PartySession(std::string run_id, pplda::v1::RunParameters parameters,
               const PartyResources& resources, crypto::PartyTransport& transport);

  absl::StatusOr<pplda::v1::VocabularyReply> DoContributeVocabulary();
  absl::StatusOr<pplda::v1::VocabularyReply> DoDecryptVocabulary(
      const pplda::v1::VocabularyDecrypt& request);
  absl::StatusOr<pplda::v1::VocabularyReply> DoSelectVocabulary(
      const pplda::v1::VocabularySelect& request);
  absl::Status CreateEngine();
  // The plan for `tokens` (every owner's, owner order; sets mpc_config_
  // and, with data holders, holder_links_), as every participant builds it.
  absl::StatusOr<protocol::SecureLdaPlan> BuildPlan(const std::vector<int64_t>& tokens);
  // The state after `iteration` iterations from the latest or previous
  // file (noting the latest file's iteration).
  absl::StatusOr<pplda::v1::PartyRunState> ReadStateAt(int iteration);
  // The encryptor and the LdaParty over this party's (run) documents with
  // `topics`, after the plan and the iteration randomness.
  absl::Status CreateParty(std::vector<std::vector<int>> topics);
  // At publication: the `published` marker (from then on only the
  // publication can be resumed), and the previous boundary's file removed.
  // The last boundary's stays until the run ends (RemoveRunState), so that
  // a publication a lost party interrupted can run again: it decrypts the
  // same agreed fold, nothing else.
  absl::Status MarkPublished() const;
  absl::Status RestoreFrom(const pplda::v1::PartyRunState& state);
  // With data holders, before the plan: links for the DP vocabulary's bytes.
  absl::Status EnsureHolderLinks();
  absl::StatusOr<pplda::v1::PrepareReply> DoPrepare(const pplda::v1::PrepareRequest& request);
  absl::StatusOr<pplda::v1::IterateReply> DoIterate(const pplda::v1::IterateRequest& request);
  absl::StatusOr<pplda::v1::PublishReply> DoPublish(const pplda::v1::PublishRequest& request);
  // Sends `digest` to every other compute party over the parties' own
  // links (one MPC round, never through the coordinator); returns what each
  // sent (empty at this party's index).
  absl::StatusOr<std::vector<std::vector<uint8_t>>> ExchangeDigest(
      const std::array<uint8_t, 32>& digest);
  // `tokens` every owner's: the plan digest compared among the members,
  // then sent to every data holder.
  absl::Status ConfirmPlan(const std::vector<int64_t>& tokens);
  absl::StatusOr<std::string> WriteMixtures() const;
  // Replaces STATE/runs/<run id>/run-state.pb with the state after
  // `iteration` iterations, `sent` being this party's update of it.
  absl::Status SaveRunState(int iteration, const pplda::v1::CountUpdateMessage& sent);

  crypto::CommitteeTransport committee_transport_;      // the members' part, for the engine
  std::optional<crypto::CommitteeLinks> holder_links_;  // with data holders, from the plan
  std::unique_ptr<protocol::SecureLdaPlan> plan_;
  // The engine of Join to Prepare, then one per iteration and publication
  // (iteration_randomness_->EngineFor).
  std::unique_ptr<crypto::MpcEngine> engine_;
  std::optional<crypto::MpcConfig> mpc_config_;                // from Prepare
  std::unique_ptr<IterationRandomness> iteration_randomness_;  // from Prepare
  std::unique_ptr<crypto::PaillierEncryptor> encryptor_;
  std::unique_ptr<LdaParty> party_;
  std::vector<int64_t> tokens_per_party_;  // every owner's, owner order, from Prepare
  protocol::PlanDigest plan_digest_{};     // from Prepare
  // DP-vocabulary runs: this party's side of the selection (its three
  // steps: contribute, decrypt, select; Prepare waits for them).
  std::unique_ptr<DpVocabularyParty> vocabulary_party_;
  // The last completed step's reply and the digests of the updates it was
  // given, to answer a repeated call identically (see above).
  std::vector<protocol::CountsDigest> last_iterate_previous_;
  std::optional<pplda::v1::IterateReply> last_iterate_reply_;
  std::vector<protocol::CountsDigest> publish_last_;
  std::string publish_counts_digest_;
  bool publish_decrypt_ = false;
  std::optional<pplda::v1::PublishReply> publish_reply_;
  // Digests of relayed updates (UpdateDigest), after the usual checks.
  absl::StatusOr<std::vector<protocol::CountsDigest>> RelayedDigests(
      const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& updates) const;
  // The relayed updates decoded (the usual checks), and their digests.
  absl::StatusOr<std::vector<protocol::CountUpdate>> DecodeRelayed(
      const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& updates) const;
  std::vector<protocol::CountsDigest> DigestsOf(
      const std::vector<protocol::CountUpdate>& updates) const;
  // Decodes the relayed updates, folds them into the party's counts
  // (LdaParty::AcceptUpdates checks its own entry), returns their digests.
  absl::StatusOr<std::vector<protocol::CountsDigest>> AcceptRelayed(
      const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& updates);
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_PARTY_SESSION_H_
