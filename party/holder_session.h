// HolderSession: a data holder's daemon side of one run (a RunSession; the
// participant has role data: documents, no key share). Its run transport
// links every owner; it speaks only to the committee's members, over the
// committee links (crypto/mpc/committee_links.h), and to the coordinator
// through the PartyControl calls. The protocol work is DataHolder's
// (party/data_holder.h); the session adds the calls, the checks and the
// files:
//   Create (Join)  the run parameters checked as a compute party checks
//                  them, the vocabulary's SHA-256; DP training caps the
//                  documents (privacy/document_caps.h) before their token
//                  count is reported; with a DP vocabulary Join reveals
//                  only whether it holds documents (as a compute party's);
//   Vocabulary     with a DP vocabulary, two steps (DpVocabularyHolder):
//                  contribute (the run's budget debited first when
//                  party.toml sets one; the contribution's digest to every
//                  member over its links), then select (every member's
//                  selection over its links, all equal; the documents
//                  restricted to it and capped; returns the new totals);
//                  a decrypt step is refused (a holder decrypts nothing);
//   Prepare        the plan from every owner's token total; each member's
//                  digest of the plan the committee agreed on
//                  (protocol/data_holder_rounds.h, kPlanRound) must be this
//                  holder's own (FailedPrecondition naming the member: the
//                  coordinator told it another plan); two data holders and
//                  no DP is refused unless accept_two_holder_disclosure;
//                  with a privacy budget in party.toml, the run's (epsilon,
//                  delta) is debited (a run without DP refused) before
//                  anything is computed on the documents; DP draws the
//                  initial topics from the secret source whatever seed is
//                  configured; returns its encrypted initial counts;
//   Iterate(i)     DataHolder::RunIteration on the request's draw matrix
//                  (checked against every member's attestation there);
//                  returns its encrypted deltas;
//   Publish        writes its documents' mixtures to
//                  STATE/runs/<run id>/mixtures.csv (0600); it decrypts
//                  nothing and is handed nothing to decrypt.
// Every boundary (after Prepare and each iteration) is saved as a
// PartyRunState (its topics, the plan digest and the update it sent), so
// that Resume rebuilds the session after a restart of this holder or of a
// peer, as PartySession does; a repeated Iterate(i) or Publish with the
// same request gets the same reply, with another one FailedPrecondition.
// Thread-safety: one caller at a time (the adapter locks).
#ifndef PPLDA_PARTY_HOLDER_SESSION_H_
#define PPLDA_PARTY_HOLDER_SESSION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "crypto/mpc/committee_links.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/transport.h"
#include "crypto/paillier/paillier_encryptor.h"
#include "party/data_holder.h"
#include "party/dp_vocabulary_holder.h"
#include "party/party_resources.h"
#include "party/party_session.h"
#include "party/run_session.h"
#include "party/session_base.h"
#include "protocol/run_dp_budget.h"
#include "protocol/run_state_file.h"

namespace pplda::party {

class HolderSession final : public SessionBase {
 public:
  // Join; `resources` a data holder's (data_index >= 0, public_key set).
  // `transport` (every owner's endpoints; this holder's is
  // resources.party_index) must outlive the session.
  static absl::StatusOr<std::unique_ptr<HolderSession>> Create(
      const std::string& run_id, const pplda::v1::RunParameters& parameters,
      const PartyResources& resources, crypto::PartyTransport& transport);
  // After a restart: the session from this holder's state after
  // `iteration` iterations, as PartySession::Resume.
  static absl::StatusOr<std::unique_ptr<HolderSession>> Resume(
      const std::string& run_id, const pplda::v1::RunParameters& parameters,
      const PartyResources& resources, crypto::PartyTransport& transport, int iteration);

  int iterations_done() const override {
    return holder_ == nullptr ? 0 : holder_->iterations_done();
  }
  std::string state() const override;
  std::string counts_digest_hex() const override { return std::string(); }

  absl::StatusOr<pplda::v1::VocabularyReply> Vocabulary(
      const pplda::v1::VocabularyRequest& request) override;
  absl::StatusOr<pplda::v1::PrepareReply> Prepare(
      const pplda::v1::PrepareRequest& request) override;
  absl::StatusOr<pplda::v1::IterateReply> Iterate(
      const pplda::v1::IterateRequest& request) override;
  absl::StatusOr<pplda::v1::PublishReply> Publish(
      const pplda::v1::PublishRequest& request) override;

 private:
  HolderSession(std::string run_id, pplda::v1::RunParameters parameters,
                const PartyResources& resources, crypto::PartyTransport& transport);

  // The plan, the committee links and the plan digest for every owner's
  // `tokens`.
  absl::Status BuildPlan(const std::vector<int64_t>& tokens);
  // Every member's digest of the agreed plan must be this holder's.
  absl::Status CheckPlanAttestations();
  // The encryptor and the DataHolder with `topics`.
  absl::Status CreateHolder(std::vector<std::vector<int>> topics);
  absl::StatusOr<pplda::v1::PrepareReply> DoPrepare(const pplda::v1::PrepareRequest& request);
  // The DP vocabulary's steps; links for their bytes before the plan.
  absl::Status EnsureLinks();
  absl::StatusOr<pplda::v1::VocabularyReply> DoContributeVocabulary();
  absl::StatusOr<pplda::v1::VocabularyReply> DoSelectVocabulary();
  absl::StatusOr<pplda::v1::IterateReply> DoIterate(const pplda::v1::IterateRequest& request);
  absl::StatusOr<pplda::v1::PublishReply> DoPublish();
  absl::Status RestoreFrom(const pplda::v1::PartyRunState& state);
  absl::Status SaveRunState(int iteration, const pplda::v1::CountUpdateMessage& sent);

  // DP-vocabulary runs: this holder's side (two steps: contribute, select).
  std::unique_ptr<DpVocabularyHolder> vocabulary_holder_;
  std::unique_ptr<protocol::SecureLdaPlan> plan_;
  std::optional<crypto::MpcConfig> mpc_config_;
  std::optional<crypto::CommitteeLinks> links_;
  std::vector<int64_t> tokens_per_owner_;
  protocol::PlanDigest plan_digest_{};
  std::unique_ptr<crypto::PaillierEncryptor> encryptor_;
  std::unique_ptr<DataHolder> holder_;
  // The last iteration's draw-matrix digest and reply, and the
  // publication's reply, to answer a repeated call identically.
  protocol::CountsDigest last_matrix_digest_{};
  std::optional<pplda::v1::IterateReply> last_iterate_reply_;
  std::optional<pplda::v1::PublishReply> publish_reply_;
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_HOLDER_SESSION_H_
