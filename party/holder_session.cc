#include "party/holder_session.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/atomic_file.h"
#include "base/path_component.h"
#include "base/status_macros.h"
#include "crypto/paillier/paillier_serialization.h"
#include "privacy/document_caps.h"
#include "protocol/consortium_policy.h"
#include "protocol/data_holder_rounds.h"
#include "protocol/dp_vocabulary_messages.h"
#include "protocol/encrypted_counts.h"
#include "protocol/run_parameters.h"
#include "protocol/two_holder_disclosure.h"
#include "protocol/vocabulary_digest.h"
#include "protocol/wire.h"

namespace pplda::party {

HolderSession::HolderSession(std::string run_id, pplda::v1::RunParameters parameters,
                             const PartyResources& resources, crypto::PartyTransport& transport)
    : SessionBase(std::move(run_id), std::move(parameters), resources, transport, "data holder") {}

absl::StatusOr<std::unique_ptr<HolderSession>> HolderSession::Create(
    const std::string& run_id, const pplda::v1::RunParameters& parameters,
    const PartyResources& resources, crypto::PartyTransport& transport) {
  RETURN_IF_ERROR(CheckJoin(run_id, parameters, resources.vocabulary_sha256));
  if (resources.data_index < 0 || resources.public_key == nullptr || resources.corpus == nullptr ||
      !resources.rng_factory ||
      resources.party_index != resources.num_parties + resources.data_index) {
    return absl::InternalError("holder session: resources incomplete");
  }
  if (transport.party_id() != resources.party_index ||
      transport.num_parties() != resources.num_parties + resources.num_holders) {
    return absl::InternalError("holder session: the transport is not this holder's");
  }
  auto session =
      std::unique_ptr<HolderSession>(new HolderSession(run_id, parameters, resources, transport));
  RETURN_IF_ERROR(session->SetUpAtJoin());
  return session;
}

std::string HolderSession::state() const {
  if (failed_) return "failed";
  if (published_) return "published";
  if (holder_ == nullptr && vocabulary_steps_ > 0) {
    return absl::StrCat("DP vocabulary step ", vocabulary_steps_, " of 2");
  }
  if (holder_ == nullptr) return "joined";
  return absl::StrCat("iteration ", holder_->iterations_done());
}

absl::StatusOr<pplda::v1::VocabularyReply> HolderSession::Vocabulary(
    const pplda::v1::VocabularyRequest& request) {
  RETURN_IF_ERROR(CheckUsable("the DP vocabulary"));
  RETURN_IF_ERROR(CheckVocabularyStep(run_id_, dp_vocabulary_.has_value(), plan_ != nullptr));
  // Each step once, in order: contribute, then select.
  const bool contribute = request.step_case() == pplda::v1::VocabularyRequest::kContribute;
  const bool select = request.step_case() == pplda::v1::VocabularyRequest::kSelect;
  if (!contribute && !select) {
    return absl::InvalidArgumentError(absl::StrCat(
        "run ", run_id_,
        ": a data holder's DP vocabulary steps are contribute and select (it decrypts nothing)"));
  }
  if ((contribute && vocabulary_steps_ != 0) || (select && vocabulary_steps_ != 1)) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_, ": DP vocabulary step '",
                     contribute ? "contribute" : "select", "' asked after ", vocabulary_steps_,
                     " of a data holder's 2 (contribute, select, each once)"));
  }
  absl::StatusOr<pplda::v1::VocabularyReply> reply =
      contribute ? DoContributeVocabulary() : DoSelectVocabulary();
  if (reply.ok()) ++vocabulary_steps_;
  return Guard(std::move(reply));
}

absl::Status HolderSession::EnsureLinks() {
  if (links_.has_value()) return absl::OkStatus();
  // Before the plan: only bytes travel (BuildPlan makes the plan's links).
  const int n = resources_.num_parties;
  ASSIGN_OR_RETURN(crypto::MpcConfig config,
                   crypto::MpcConfig::Create(n, protocol::MpcThreshold(n)));
  ASSIGN_OR_RETURN(crypto::CommitteeLinks links,
                   crypto::CommitteeLinks::Create(transport_, config.shamir()));
  links_.emplace(std::move(links));
  return absl::OkStatus();
}

absl::StatusOr<pplda::v1::VocabularyReply> HolderSession::DoContributeVocabulary() {
  ASSIGN_OR_RETURN(vocabulary_holder_,
                   DpVocabularyHolder::Create(
                       run_id_, resources_.party_index, dp_vocabulary_->plan, resources_.public_key,
                       rng(PartyRandomSource::kVocabularyEncryptor), resources_.pool));
  // The run's whole budget, the vocabulary's included, before this
  // holder's documents enter any release.
  if (tokens() > 0) {
    RETURN_IF_ERROR(DebitRunBudget(resources_.state_dir, run_id_,
                                   protocol::DpOptionsFromParameters(parameters_),
                                   resources_.privacy_budget));
  }
  ASSIGN_OR_RETURN(
      protocol::VocabularyContribution mine,
      vocabulary_holder_->Contribute(*resources_.corpus, resources_.corpus->vocabulary));
  RETURN_IF_ERROR(EnsureLinks());
  const protocol::CountsDigest& digest = vocabulary_holder_->contribution_digest();
  for (int j = 0; j < resources_.num_parties; ++j) {
    RETURN_IF_ERROR(links_->SendToMember(j, protocol::kVocabularyContributionRound,
                                         std::vector<uint8_t>(digest.begin(), digest.end())));
  }
  pplda::v1::VocabularyReply reply;
  *reply.mutable_contribution() =
      crypto::CiphertextBatchToProto(*resources_.public_key, mine.counts);
  return reply;
}

absl::StatusOr<pplda::v1::VocabularyReply> HolderSession::DoSelectVocabulary() {
  std::vector<std::vector<lda::TermId>> by_member;
  for (int j = 0; j < resources_.num_parties; ++j) {
    ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes,
                     links_->ReceiveFromMember(j, protocol::kVocabularySelectionRound));
    ASSIGN_OR_RETURN(std::vector<lda::TermId> selected, protocol::DecodeSelection(bytes));
    by_member.push_back(std::move(selected));
  }
  ASSIGN_OR_RETURN(std::vector<lda::TermId> selected,
                   vocabulary_holder_->AcceptSelection(by_member));
  // The corpus the reply counts is the selected one, so first select.
  const std::string sha = UseSelectedVocabulary(std::move(selected));
  return SelectionReply(sha, *resources_.corpus);
}

absl::Status HolderSession::BuildPlan(const std::vector<int64_t>& tokens) {
  ASSIGN_OR_RETURN(
      protocol::RunPlanInputs inputs,
      protocol::RunPlanInputsFromParameters(parameters_, dp_vocabulary_, resources_.num_parties));
  ASSIGN_OR_RETURN(protocol::RunPlan plan,
                   protocol::DeriveOwnersRunPlan(inputs, resources_.corpus->vocabulary.size(),
                                                 tokens, resources_.public_key->paillier()));
  mpc_config_ = plan.mpc;
  plan_ = std::make_unique<protocol::SecureLdaPlan>(std::move(plan.lda));
  ASSIGN_OR_RETURN(crypto::CommitteeLinks links,
                   crypto::CommitteeLinks::Create(transport_, mpc_config_->shamir()));
  links_.emplace(std::move(links));
  tokens_per_owner_ = tokens;
  plan_digest_ = protocol::ComputePlanDigest(run_id_, parameters_, tokens);
  return absl::OkStatus();
}

absl::Status HolderSession::CheckPlanAttestations() {
  for (int j = 0; j < resources_.num_parties; ++j) {
    ASSIGN_OR_RETURN(std::vector<uint8_t> attested,
                     links_->ReceiveFromMember(j, protocol::kPlanRound));
    if (attested.size() != plan_digest_.size() ||
        !std::equal(plan_digest_.begin(), plan_digest_.end(), attested.begin())) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run ", run_id_, ": committee member ", j,
          " agreed on another plan (parameters, vocabulary or token totals) than the one the "
          "coordinator told this data holder"));
    }
  }
  return absl::OkStatus();
}

absl::Status HolderSession::CreateHolder(std::vector<std::vector<int>> topics) {
  ASSIGN_OR_RETURN(encryptor_,
                   crypto::PaillierEncryptor::Create(resources_.public_key->paillier(),
                                                     rng(PartyRandomSource::kPaillierEncryptor)));
  std::vector<std::vector<lda::TermId>> documents;
  for (const lda::Document& d : resources_.corpus->documents) documents.push_back(d.tokens);
  ASSIGN_OR_RETURN(
      holder_,
      DataHolder::Create(resources_.data_index, run_id_, *plan_, *mpc_config_, std::move(documents),
                         std::move(topics), resources_.public_key, *encryptor_, resources_.pool));
  return absl::OkStatus();
}

absl::StatusOr<pplda::v1::PrepareReply> HolderSession::Prepare(
    const pplda::v1::PrepareRequest& request) {
  RETURN_IF_ERROR(CheckUsable("Prepare"));
  if (plan_ != nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " is already prepared"));
  }
  if (dp_vocabulary_.has_value() && vocabulary_steps_ != 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_, " selects its vocabulary by DP first: Prepare after ",
                     vocabulary_steps_, " of a data holder's 2 DP vocabulary steps"));
  }
  return Guard(DoPrepare(request));
}

absl::StatusOr<pplda::v1::PrepareReply> HolderSession::DoPrepare(
    const pplda::v1::PrepareRequest& request) {
  ASSIGN_OR_RETURN(const std::vector<int64_t> tokens,
                   protocol::OwnerTokensOf(request, resources_.num_parties, resources_.num_holders,
                                           resources_.party_index, this->tokens()));
  const std::optional<privacy::DpCountOptions> dp = protocol::DpOptionsFromParameters(parameters_);
  if (this->tokens() > 0) {
    RETURN_IF_ERROR(protocol::CheckTwoHolderDisclosure(
        protocol::DataHolders(tokens), dp.has_value(), resources_.accept_two_holder_disclosure,
        "accept_two_holder_disclosure = true in this party's party.toml"));
  }
  // With a DP vocabulary the run's budget was debited at its contribution.
  if (!dp_vocabulary_.has_value()) {
    RETURN_IF_ERROR(DebitRunBudget(resources_.state_dir, run_id_, dp, resources_.privacy_budget));
  }
  RETURN_IF_ERROR(BuildPlan(tokens));
  RETURN_IF_ERROR(CheckPlanAttestations());
  // DP: the initial topics come from the secret source, whatever seed is
  // configured (simulation/local_consortium.h says why).
  RETURN_IF_ERROR(
      CreateHolder(InitialTopics(*resources_.corpus, plan_->num_topics(),
                                 dp.has_value() ? std::nullopt : resources_.initial_topics_seed,
                                 resources_.party_index, rng(PartyRandomSource::kInitialTopics))));
  ASSIGN_OR_RETURN(protocol::CountUpdate initial, holder_->InitialCounts());
  pplda::v1::PrepareReply reply;
  *reply.mutable_initial_counts() = protocol::CountUpdateToProto(*resources_.public_key, initial);
  RETURN_IF_ERROR(SaveRunState(0, reply.initial_counts()));
  return reply;
}

absl::StatusOr<pplda::v1::IterateReply> HolderSession::Iterate(
    const pplda::v1::IterateRequest& request) {
  RETURN_IF_ERROR(CheckUsable("Iterate"));
  if (holder_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " is not prepared"));
  }
  const int iteration = request.header().iteration();
  if (last_iterate_reply_.has_value() && iteration == holder_->iterations_done()) {
    // A repeated call: the same reply for the same draw matrix.
    ASSIGN_OR_RETURN(const std::vector<crypto::Ciphertext> matrix,
                     crypto::CiphertextBatchFromProto(*resources_.public_key, request.draw_matrix(),
                                                      plan_->MatrixCiphertexts()));
    if (protocol::CiphertextsDigest(protocol::kDrawMatrixLabel, matrix,
                                    resources_.public_key->paillier().ciphertext_bytes()) !=
        last_matrix_digest_) {
      return absl::FailedPreconditionError(
          absl::StrCat("run ", run_id_, ": iteration ", iteration,
                       " was asked again with another draw matrix than this holder ran it on"));
    }
    return *last_iterate_reply_;
  }
  const int expected = holder_->iterations_done() + 1;
  if (iteration != expected) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, ": asked to run iteration ",
                                                      iteration, ", but the next iteration is ",
                                                      expected));
  }
  if (expected > static_cast<int>(parameters_.iterations())) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_, " has only ", parameters_.iterations(), " iterations"));
  }
  return Guard(DoIterate(request));
}

absl::StatusOr<pplda::v1::IterateReply> HolderSession::DoIterate(
    const pplda::v1::IterateRequest& request) {
  const crypto::ThresholdPublicKey& key = *resources_.public_key;
  const int iteration = holder_->iterations_done() + 1;
  ASSIGN_OR_RETURN(
      const std::vector<crypto::Ciphertext> matrix,
      crypto::CiphertextBatchFromProto(key, request.draw_matrix(), plan_->MatrixCiphertexts()));
  const protocol::PartyPhaseTimes before = holder_->times();
  ASSIGN_OR_RETURN(
      protocol::CountUpdate update,
      holder_->RunIteration(iteration, matrix, *links_, rng(PartyRandomSource::kMpcEngine)));
  pplda::v1::IterateReply reply;
  *reply.mutable_update() = protocol::CountUpdateToProto(key, update);
  *reply.mutable_phases() = protocol::PhasesToProto(holder_->times().Since(before));
  RETURN_IF_ERROR(SaveRunState(iteration, reply.update()));
  last_matrix_digest_ = protocol::CiphertextsDigest(protocol::kDrawMatrixLabel, matrix,
                                                    key.paillier().ciphertext_bytes());
  last_iterate_reply_ = reply;
  return reply;
}

absl::StatusOr<pplda::v1::PublishReply> HolderSession::Publish(
    const pplda::v1::PublishRequest& /*request: a data holder is handed nothing*/) {
  if (published_ && !failed_ && publish_reply_.has_value()) return *publish_reply_;
  RETURN_IF_ERROR(CheckUsable("Publish"));
  if (holder_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " is not prepared"));
  }
  if (holder_->iterations_done() != static_cast<int>(parameters_.iterations())) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, ": publication asked after ",
                                                      holder_->iterations_done(), " of ",
                                                      parameters_.iterations(), " iterations"));
  }
  return Guard(DoPublish());
}

absl::StatusOr<pplda::v1::PublishReply> HolderSession::DoPublish() {
  pplda::v1::PublishReply reply;
  ASSIGN_OR_RETURN(std::string path,
                   WriteMixturesFile(resources_.state_dir, run_id_, *resources_.corpus,
                                     holder_->DocumentTopicMixtures(),
                                     static_cast<int>(parameters_.num_topics())));
  reply.set_mixtures_path(path);
  RETURN_IF_ERROR(WriteFileAtomically(PublishedMarkerPath(resources_.state_dir, run_id_),
                                      run_id_ + "\n", FileMode::kPrivate));
  published_ = true;
  publish_reply_ = reply;
  return reply;
}

absl::Status HolderSession::SaveRunState(int iteration, const pplda::v1::CountUpdateMessage& sent) {
  pplda::v1::PartyRunState state = RunStateBoundary(
      run_id_, resources_.participant, iteration, plan_digest_, resources_.party_index, parameters_,
      tokens_per_owner_, holder_->Assignments());
  for (lda::TermId t : selected_terms_) state.add_selected_terms(static_cast<uint32_t>(t));
  *state.mutable_sent() = sent;
  return WriteRunStateBoundary(resources_.state_dir, run_id_, state, &current_file_iteration_);
}

absl::StatusOr<std::unique_ptr<HolderSession>> HolderSession::Resume(
    const std::string& run_id, const pplda::v1::RunParameters& parameters,
    const PartyResources& resources, crypto::PartyTransport& transport, int iteration) {
  RETURN_IF_ERROR(PartySession::CheckResumable(resources.state_dir, run_id, parameters, iteration));
  ASSIGN_OR_RETURN(std::unique_ptr<HolderSession> session,
                   Create(run_id, parameters, resources, transport));
  ASSIGN_OR_RETURN(pplda::v1::PartyRunState state,
                   ReadRunStateAt(resources.state_dir, run_id, resources.participant, iteration,
                                  &session->current_file_iteration_));
  RETURN_IF_ERROR(session->RestoreFrom(state));
  return session;
}

absl::Status HolderSession::RestoreFrom(const pplda::v1::PartyRunState& state) {
  const int owners = resources_.num_parties + resources_.num_holders;
  if (dp_vocabulary_.has_value()) RETURN_IF_ERROR(RestoreSelectedVocabulary(state, 2));
  if (state.party_index() != static_cast<uint32_t>(resources_.party_index) ||
      state.tokens_per_party_size() != owners) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, ": the saved state is owner ", state.party_index(), "'s of ",
        state.tokens_per_party_size(), ", this is owner ", resources_.party_index, " of ", owners));
  }
  const std::vector<int64_t> tokens(state.tokens_per_party().begin(),
                                    state.tokens_per_party().end());
  if (tokens[resources_.party_index] != this->tokens()) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_, ": the saved state has ", tokens[resources_.party_index],
                     " tokens of this data holder, its documents now have ", this->tokens()));
  }
  RETURN_IF_ERROR(BuildPlan(tokens));
  if (state.header().plan_digest() != std::string(plan_digest_.begin(), plan_digest_.end())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, ": the coordinator's parameters are not the run's saved plan"));
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<int>> topics,
                   SplitSavedTopics(run_id_, *resources_.corpus, state.topics()));
  RETURN_IF_ERROR(CreateHolder(std::move(topics)));
  RETURN_IF_ERROR(holder_->Restore(state.header().iteration()));
  resumed_update_ = state.sent();
  return absl::OkStatus();
}

}  // namespace pplda::party
