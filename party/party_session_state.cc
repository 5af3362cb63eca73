// PartySession's run state on disk (party_session.h, "Restarts"): the
// boundary saved after every iteration, the published marker, and a
// session rebuilt from them after a restart of the party.
#include "party/party_session.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/atomic_file.h"
#include "base/path_component.h"
#include "base/status_macros.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/paillier/paillier_serialization.h"
#include "lda/gibbs_state.h"
#include "privacy/document_caps.h"
#include "privacy/dp_vocabulary.h"
#include "protocol/consortium_policy.h"
#include "protocol/run_parameters.h"
#include "protocol/secure_dp_noise.h"
#include "protocol/two_holder_disclosure.h"
#include "protocol/wire.h"

namespace pplda::party {
namespace {

// Removes `path` if it exists (PermissionDenied naming it otherwise).
absl::Status RemoveFile(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot remove ", path.string(), ": ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PartySession::SaveRunState(int iteration, const pplda::v1::CountUpdateMessage& sent) {
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  pplda::v1::PartyRunState state = RunStateBoundary(
      run_id_, resources_.participant, iteration, plan_digest_, resources_.party_index, parameters_,
      tokens_per_party_, party_->Assignments());
  *state.mutable_sent() = sent;
  const protocol::EncryptedCounts& counts = party_->counts();
  state.set_folded(counts.folded());
  state.set_counts_digest(std::string(counts.digest().begin(), counts.digest().end()));
  *state.mutable_matrix() = crypto::CiphertextBatchToProto(key, counts.matrix());
  *state.mutable_totals() = crypto::CiphertextBatchToProto(key, counts.totals());
  *state.mutable_noisy_matrix() = crypto::CiphertextBatchToProto(key, counts.noisy_matrix());
  *state.mutable_noisy_totals() = crypto::CiphertextBatchToProto(key, counts.noisy_totals());
  state.set_release_iteration(counts.release_iteration());
  state.set_iteration_key(iteration_randomness_->key_bytes());
  if (iteration_randomness_->shared_keys().has_value()) {
    state.set_shared_keys(SharedKeysToBytes(*iteration_randomness_->shared_keys()));
  }
  for (lda::TermId t : selected_terms_) state.add_selected_terms(static_cast<uint32_t>(t));
  const absl::Status written =
      WriteRunStateBoundary(resources_.state_dir, run_id_, state, &current_file_iteration_);
  sodium_memzero(state.mutable_iteration_key()->data(), state.iteration_key().size());
  sodium_memzero(state.mutable_shared_keys()->data(), state.shared_keys().size());
  return written;
}

absl::Status PartySession::MarkPublished() const {
  RETURN_IF_ERROR(WriteFileAtomically(PublishedMarkerPath(resources_.state_dir, run_id_),
                                      run_id_ + "\n", FileMode::kPrivate));
  return RemoveFile(protocol::PreviousRunStatePath(resources_.state_dir, run_id_));
}

absl::Status PartySession::RemoveRunState(const std::filesystem::path& state_dir,
                                          const std::string& run_id) {
  RETURN_IF_ERROR(RemoveFile(protocol::RunStatePath(state_dir, run_id)));
  return RemoveFile(protocol::PreviousRunStatePath(state_dir, run_id));
}

absl::Status PartySession::CheckResumable(const std::filesystem::path& state_dir,
                                          const std::string& run_id,
                                          const pplda::v1::RunParameters& parameters,
                                          int iteration) {
  std::error_code ec;
  if (std::filesystem::exists(PublishedMarkerPath(state_dir, run_id), ec) &&
      iteration != static_cast<int>(parameters.iterations())) {
    // Only the publication runs again (the same agreed fold decrypted):
    // never an iteration after the model is out.
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id,
                     " was published at this party: only its publication can be resumed "
                     "(after ",
                     parameters.iterations(), " iterations), not after ", iteration));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<PartySession>> PartySession::Resume(
    const std::string& run_id, const pplda::v1::RunParameters& parameters,
    const PartyResources& resources, crypto::PartyTransport& transport, int iteration) {
  RETURN_IF_ERROR(CheckResumable(resources.state_dir, run_id, parameters, iteration));
  ASSIGN_OR_RETURN(std::unique_ptr<PartySession> session,
                   Create(run_id, parameters, resources, transport));
  ASSIGN_OR_RETURN(pplda::v1::PartyRunState state, session->ReadStateAt(iteration));
  const absl::Status restored = session->RestoreFrom(state);
  sodium_memzero(state.mutable_iteration_key()->data(), state.iteration_key().size());
  sodium_memzero(state.mutable_shared_keys()->data(), state.shared_keys().size());
  RETURN_IF_ERROR(restored);
  return session;
}

absl::StatusOr<pplda::v1::PartyRunState> PartySession::ReadStateAt(int iteration) {
  return ReadRunStateAt(resources_.state_dir, run_id_, resources_.participant, iteration,
                        &current_file_iteration_);
}

absl::Status PartySession::RestoreFrom(const pplda::v1::PartyRunState& state) {
  const int n = resources_.num_parties + resources_.num_holders;
  if (dp_vocabulary_.has_value()) RETURN_IF_ERROR(RestoreSelectedVocabulary(state, 3));
  if (state.party_index() != static_cast<uint32_t>(resources_.party_index) ||
      state.tokens_per_party_size() != n) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, ": the saved state is compute party ", state.party_index(), "'s of ",
        state.tokens_per_party_size(), ", this is party ", resources_.party_index, " of ", n));
  }
  std::vector<int64_t> tokens(state.tokens_per_party().begin(), state.tokens_per_party().end());
  if (tokens[resources_.party_index] != this->tokens()) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_, ": the saved state has ", tokens[resources_.party_index],
                     " tokens of this party, its documents now have ", this->tokens()));
  }
  const protocol::PlanDigest digest = protocol::ComputePlanDigest(run_id_, parameters_, tokens);
  if (state.header().plan_digest() != std::string(digest.begin(), digest.end())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, ": the coordinator's parameters are not the run's saved plan"));
  }
  tokens_per_party_ = tokens;
  plan_digest_ = digest;
  ASSIGN_OR_RETURN(protocol::SecureLdaPlan plan, BuildPlan(tokens));
  plan_ = std::make_unique<protocol::SecureLdaPlan>(std::move(plan));
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  ASSIGN_OR_RETURN(iteration_randomness_, IterationRandomness::FromKey(state.iteration_key()));
  if (mpc_config_->pseudo_random_sharing()) {
    ASSIGN_OR_RETURN(crypto::MpcEngine::SharedKeys shared,
                     SharedKeysFromBytes(state.shared_keys()));
    iteration_randomness_->set_shared_keys(std::move(shared));
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<int>> topics,
                   SplitSavedTopics(run_id_, *resources_.corpus, state.topics()));
  RETURN_IF_ERROR(CreateParty(std::move(topics)));
  ASSIGN_OR_RETURN(protocol::CountUpdate sent,
                   protocol::CountUpdateFromProto(state.sent(), run_id_, key, *plan_));
  RETURN_IF_ERROR(party_->Restore(state.header().iteration(), sent, state));
  resumed_update_ = state.sent();
  return absl::OkStatus();
}

}  // namespace pplda::party
