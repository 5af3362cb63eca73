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
#include "protocol/data_holder_rounds.h"
#include "protocol/run_parameters.h"
#include "protocol/secure_dp_noise.h"
#include "protocol/two_holder_disclosure.h"
#include "protocol/wire.h"

namespace pplda::party {

PartySession::PartySession(std::string run_id, pplda::v1::RunParameters parameters,
                           const PartyResources& resources, crypto::PartyTransport& transport)
    : SessionBase(std::move(run_id), std::move(parameters), resources, transport, "party"),
      committee_transport_(transport, resources.num_parties) {}

absl::StatusOr<std::unique_ptr<PartySession>> PartySession::Create(
    const std::string& run_id, const pplda::v1::RunParameters& parameters,
    const PartyResources& resources, crypto::PartyTransport& transport) {
  RETURN_IF_ERROR(CheckJoin(run_id, parameters, resources.vocabulary_sha256));
  if (resources.key_share == nullptr || resources.corpus == nullptr || !resources.rng_factory ||
      resources.data_index >= 0) {
    return absl::InternalError("party session: resources incomplete");
  }
  if (transport.party_id() != resources.party_index ||
      transport.num_parties() != resources.num_parties + resources.num_holders) {
    return absl::InternalError("party session: the transport is not this party's");
  }
  auto session = std::unique_ptr<PartySession>(
      new PartySession(run_id, parameters, resources, transport));
  RETURN_IF_ERROR(session->SetUpAtJoin());
  return session;
}

std::string PartySession::state() const {
  if (failed_) return "failed";
  if (published_) return "published";
  if (party_ == nullptr && vocabulary_steps_ > 0) {
    return absl::StrCat("DP vocabulary step ", vocabulary_steps_, " of 3");
  }
  if (party_ == nullptr) return "joined";
  return absl::StrCat("iteration ", party_->iterations_done());
}

absl::StatusOr<pplda::v1::VocabularyReply> PartySession::Vocabulary(
    const pplda::v1::VocabularyRequest& request) {
  RETURN_IF_ERROR(CheckUsable("the DP vocabulary"));
  RETURN_IF_ERROR(CheckVocabularyStep(run_id_, dp_vocabulary_.has_value(), plan_ != nullptr));
  // The steps in order, each once (a second contribution would draw fresh
  // noise over the same documents).
  const int step = request.step_case() == pplda::v1::VocabularyRequest::kContribute ? 1
                   : request.step_case() == pplda::v1::VocabularyRequest::kDecrypt  ? 2
                   : request.step_case() == pplda::v1::VocabularyRequest::kSelect   ? 3
                                                                                    : 0;
  if (step == 0) return absl::InvalidArgumentError("vocabulary request without a step");
  if (step != vocabulary_steps_ + 1) {
    static constexpr const char* kSteps[] = {"", "contribute", "decrypt", "select"};
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, ": DP vocabulary step '", kSteps[step], "' asked after ",
        vocabulary_steps_, " of its 3 steps (contribute, decrypt, select, each once)"));
  }
  absl::StatusOr<pplda::v1::VocabularyReply> reply = step == 1 ? DoContributeVocabulary()
                                                     : step == 2
                                                         ? DoDecryptVocabulary(request.decrypt())
                                                         : DoSelectVocabulary(request.select());
  if (reply.ok()) vocabulary_steps_ = step;
  return Guard(std::move(reply));
}

absl::StatusOr<pplda::v1::VocabularyReply> PartySession::DoContributeVocabulary() {
  ASSIGN_OR_RETURN(vocabulary_party_,
                   DpVocabularyParty::Create(
                       run_id_, resources_.party_index, dp_vocabulary_->plan, *resources_.key_share,
                       rng(PartyRandomSource::kVocabularyEncryptor), resources_.pool));
  // The run's whole budget, the vocabulary's included, once the set-up
  // checks passed and before this party's documents enter any release.
  if (tokens() > 0)
    RETURN_IF_ERROR(DebitRunBudget(resources_.state_dir, run_id_,
                                   protocol::DpOptionsFromParameters(parameters_),
                                   resources_.privacy_budget));
  ASSIGN_OR_RETURN(protocol::VocabularyContribution mine,
                   vocabulary_party_->Contribute(*resources_.corpus, resources_.corpus->vocabulary,
                                                 rng(PartyRandomSource::kVocabularyNoise)));
  pplda::v1::VocabularyReply reply;
  *reply.mutable_contribution() =
      crypto::CiphertextBatchToProto(*resources_.key_share->public_key(), mine.counts);
  return reply;
}

absl::StatusOr<pplda::v1::VocabularyReply> PartySession::DoDecryptVocabulary(
    const pplda::v1::VocabularyDecrypt& request) {
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  ASSIGN_OR_RETURN(crypto::PackingLayout layout,
                   protocol::VocabularyPackingLayout(dp_vocabulary_->plan, key.paillier()));
  const size_t ciphertexts = layout.NumPlaintexts(dp_vocabulary_->plan.candidates);
  std::vector<protocol::VocabularyContribution> contributions;
  for (int p = 0; p < request.contributions_size(); ++p) {
    protocol::VocabularyContribution c;
    c.run_id = run_id_;
    c.party = p;
    absl::StatusOr<std::vector<crypto::Ciphertext>> counts =
        crypto::CiphertextBatchFromProto(key, request.contributions(p), ciphertexts);
    if (!counts.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("contributions[", p, "] (owner ", p, "): ", counts.status().message()));
    }
    c.counts = *std::move(counts);
    contributions.push_back(std::move(c));
  }
  // Each data holder's digest of its own contribution, over its own link.
  RETURN_IF_ERROR(EnsureHolderLinks());
  std::vector<protocol::CountsDigest> holder_digests(resources_.num_holders);
  for (int h = 0; h < resources_.num_holders; ++h) {
    ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes,
                     holder_links_->ReceiveFromClient(h, protocol::kVocabularyContributionRound));
    if (bytes.size() != holder_digests[h].size()) {
      return absl::InvalidArgumentError(absl::StrCat("data holder ", h, " sent a ", bytes.size(),
                                                     "-byte contribution digest, expected 32"));
    }
    std::copy(bytes.begin(), bytes.end(), holder_digests[h].begin());
  }
  ASSIGN_OR_RETURN(protocol::CountsDigest digest,
                   vocabulary_party_->AcceptContributions(contributions, holder_digests));
  // The digests travel over the parties' own links, never the coordinator.
  RETURN_IF_ERROR(CreateEngine());
  const int n = resources_.num_parties;
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received, ExchangeDigest(digest));
  std::vector<protocol::CountsDigest> digests(n);
  for (int j = 0; j < n; ++j) {
    if (j == resources_.party_index) {
      digests[j] = digest;
      continue;
    }
    if (received[j].size() != digests[j].size()) {
      return absl::InvalidArgumentError(absl::StrCat("compute party ", j, " sent a ",
                                                     received[j].size(),
                                                     "-byte vocabulary digest, expected 32"));
    }
    std::copy(received[j].begin(), received[j].end(), digests[j].begin());
  }
  RETURN_IF_ERROR(vocabulary_party_->ConfirmDigests(digests));
  pplda::v1::VocabularyReply reply;
  if (request.decrypt()) {
    ASSIGN_OR_RETURN(crypto::PartialDecryptionBatch partials,
                     vocabulary_party_->Decrypt(digest, rng(PartyRandomSource::kVocabularyProofs)));
    *reply.mutable_partials() = crypto::PartialDecryptionBatchToProto(key, partials);
  }
  return reply;
}

absl::StatusOr<pplda::v1::VocabularyReply> PartySession::DoSelectVocabulary(
    const pplda::v1::VocabularySelect& request) {
  const crypto::ThresholdPublicKeyPtr& key = resources_.key_share->public_key();
  const privacy::CandidateUnionPlan& plan = dp_vocabulary_->plan;
  if (request.partials_size() != key->threshold()) {
    return absl::InvalidArgumentError(absl::StrCat("partials: ", request.partials_size(),
                                                   " batches, the key needs ", key->threshold()));
  }
  ASSIGN_OR_RETURN(crypto::PackingLayout layout,
                   protocol::VocabularyPackingLayout(plan, key->paillier()));
  std::vector<crypto::PartialDecryptionBatch> batches;
  for (int i = 0; i < request.partials_size(); ++i) {
    absl::StatusOr<crypto::PartialDecryptionBatch> batch = crypto::PartialDecryptionBatchFromProto(
        *key, request.partials(i), vocabulary_party_->sum().size());
    if (!batch.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("partials[", i, "]: ", batch.status().message()));
    }
    batches.push_back(*std::move(batch));
  }
  // Every proof verified against the sum this party computed and confirmed.
  ASSIGN_OR_RETURN(std::vector<int64_t> noisy,
                   protocol::DecodeNoisyCandidateCounts(key, layout, vocabulary_party_->sum(),
                                                        batches, plan.candidates, resources_.pool));
  ASSIGN_OR_RETURN(std::vector<lda::TermId> selected, privacy::SelectCandidates(plan, noisy));
  if (selected.empty()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the DP vocabulary kept none of the %d candidates (threshold %d documents): raise "
        "--dp-vocab-epsilon, lower --dp-vocab-max-terms, or use more documents",
        plan.candidates, plan.threshold));
  }
  // Each data holder selects what every member sends it.
  RETURN_IF_ERROR(EnsureHolderLinks());
  for (int h = 0; h < resources_.num_holders; ++h) {
    RETURN_IF_ERROR(holder_links_->SendToClient(h, protocol::kVocabularySelectionRound,
                                                protocol::EncodeSelection(selected)));
  }
  // The corpus the reply counts is the selected one, so first select.
  const std::string sha = UseSelectedVocabulary(std::move(selected));
  return SelectionReply(sha, *resources_.corpus);
}

absl::Status PartySession::EnsureHolderLinks() {
  if (resources_.num_holders == 0 || holder_links_.has_value()) return absl::OkStatus();
  // Before the plan: only bytes travel (BuildPlan makes the plan's links).
  const int n = resources_.num_parties;
  ASSIGN_OR_RETURN(crypto::MpcConfig config,
                   crypto::MpcConfig::Create(n, protocol::MpcThreshold(n)));
  ASSIGN_OR_RETURN(crypto::CommitteeLinks links,
                   crypto::CommitteeLinks::Create(transport_, config.shamir()));
  holder_links_.emplace(std::move(links));
  return absl::OkStatus();
}

absl::Status PartySession::CreateEngine() {
  if (engine_ != nullptr) return absl::OkStatus();
  const int n = resources_.num_parties;
  ASSIGN_OR_RETURN(crypto::MpcConfig config,
                   crypto::MpcConfig::Create(n, protocol::MpcThreshold(n)));
  ASSIGN_OR_RETURN(engine_, crypto::MpcEngine::Create(config, committee_transport_,
                                                      rng(PartyRandomSource::kMpcEngine)));
  return absl::OkStatus();
}

absl::StatusOr<pplda::v1::PrepareReply> PartySession::Prepare(
    const pplda::v1::PrepareRequest& request) {
  RETURN_IF_ERROR(CheckUsable("Prepare"));
  if (plan_ != nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " is already prepared"));
  }
  if (dp_vocabulary_.has_value() && vocabulary_steps_ != 3) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_, " selects its vocabulary by DP first: Prepare after ",
                     vocabulary_steps_, " of the DP vocabulary's 3 steps"));
  }
  return Guard(DoPrepare(request));
}

absl::StatusOr<protocol::SecureLdaPlan> PartySession::BuildPlan(
    const std::vector<int64_t>& tokens) {
  // The coordinator and every other party derive the same plan.
  ASSIGN_OR_RETURN(
      protocol::RunPlanInputs inputs,
      protocol::RunPlanInputsFromParameters(parameters_, dp_vocabulary_, resources_.num_parties));
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  ASSIGN_OR_RETURN(protocol::RunPlan plan,
                   protocol::DeriveOwnersRunPlan(inputs, resources_.corpus->vocabulary.size(),
                                                 tokens, key.paillier()));
  mpc_config_ = plan.mpc;
  if (resources_.num_holders > 0) {
    ASSIGN_OR_RETURN(crypto::CommitteeLinks links,
                     crypto::CommitteeLinks::Create(transport_, mpc_config_->shamir()));
    holder_links_.emplace(std::move(links));
  }
  return std::move(plan.lda);
}

absl::StatusOr<pplda::v1::PrepareReply> PartySession::DoPrepare(
    const pplda::v1::PrepareRequest& request) {
  ASSIGN_OR_RETURN(const std::vector<int64_t> tokens,
                   protocol::OwnerTokensOf(request, resources_.num_parties, resources_.num_holders,
                                           resources_.party_index, this->tokens()));
  const std::optional<privacy::DpCountOptions> dp =
      protocol::TrainingDpOptions(parameters_, dp_vocabulary_);
  if (this->tokens() > 0) {
    RETURN_IF_ERROR(protocol::CheckTwoHolderDisclosure(
        protocol::DataHolders(tokens), dp.has_value(), resources_.accept_two_holder_disclosure,
        "accept_two_holder_disclosure = true in this party's party.toml"));
    // With a DP vocabulary the run's budget was debited at its contribution.
    if (!dp_vocabulary_.has_value()) {
      RETURN_IF_ERROR(DebitRunBudget(resources_.state_dir, run_id_,
                                     protocol::DpOptionsFromParameters(parameters_),
                                     resources_.privacy_budget));
    }
  }
  ASSIGN_OR_RETURN(protocol::SecureLdaPlan plan, BuildPlan(tokens));
  plan_ = std::make_unique<protocol::SecureLdaPlan>(std::move(plan));
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  RETURN_IF_ERROR(CreateEngine());
  RETURN_IF_ERROR(ConfirmPlan(tokens));
  // The per-iteration randomness: a run key, and the pseudo-random sharing
  // keys agreed now (one round) from which every iteration's are derived.
  iteration_randomness_ = IterationRandomness::Draw(rng(PartyRandomSource::kIterationKey));
  if (mpc_config_->pseudo_random_sharing()) {
    ASSIGN_OR_RETURN(crypto::MpcEngine::SharedKeys shared, engine_->AgreeSharedKeys());
    iteration_randomness_->set_shared_keys(std::move(shared));
  }
  // DP: the initial topics come from the secret source, whatever seed is
  // configured (simulation/local_consortium.h says why).
  RETURN_IF_ERROR(
      CreateParty(InitialTopics(*resources_.corpus, plan_->num_topics(),
                                dp.has_value() ? std::nullopt : resources_.initial_topics_seed,
                                resources_.party_index, rng(PartyRandomSource::kInitialTopics))));
  ASSIGN_OR_RETURN(protocol::CountUpdate initial, party_->InitialCounts());
  pplda::v1::PrepareReply reply;
  *reply.mutable_initial_counts() = protocol::CountUpdateToProto(key, initial);
  RETURN_IF_ERROR(SaveRunState(0, reply.initial_counts()));
  return reply;
}

absl::Status PartySession::CreateParty(std::vector<std::vector<int>> topics) {
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  ASSIGN_OR_RETURN(encryptor_,
                   crypto::PaillierEncryptor::Create(
                       key.paillier(), rng(PartyRandomSource::kPaillierEncryptor)));
  std::vector<std::vector<lda::TermId>> documents;
  for (const lda::Document& d : resources_.corpus->documents) documents.push_back(d.tokens);
  ASSIGN_OR_RETURN(party_,
                   LdaParty::Create(resources_.party_index, run_id_, *plan_, std::move(documents),
                                    std::move(topics), *resources_.key_share, *encryptor_,
                                    rng(PartyRandomSource::kDecryptionProofs), resources_.pool,
                                    &iteration_randomness_->noise()));
  if (holder_links_.has_value()) party_->set_holder_links(&*holder_links_);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::vector<uint8_t>>> PartySession::ExchangeDigest(
    const std::array<uint8_t, 32>& digest) {
  std::vector<std::vector<uint8_t>> payloads(resources_.num_parties);
  for (int j = 0; j < resources_.num_parties; ++j) {
    if (j != resources_.party_index) payloads[j].assign(digest.begin(), digest.end());
  }
  return engine_->ExchangeWithAll(std::move(payloads));
}

absl::Status PartySession::ConfirmPlan(const std::vector<int64_t>& tokens) {
  tokens_per_party_ = tokens;
  plan_digest_ = protocol::ComputePlanDigest(run_id_, parameters_, tokens);
  const protocol::PlanDigest& digest = plan_digest_;
  const int n = resources_.num_parties;
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received, ExchangeDigest(digest));
  for (int j = 0; j < n; ++j) {
    if (j == resources_.party_index) continue;
    if (received[j] != std::vector<uint8_t>(digest.begin(), digest.end())) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run ", run_id_, ": compute party ", j,
          " was given a different plan (parameters, vocabulary or token totals): the "
          "coordinator told parties different things"));
    }
  }
  // Each data holder checks it was told the plan the committee agreed on.
  for (int h = 0; h < resources_.num_holders; ++h) {
    RETURN_IF_ERROR(holder_links_->SendToClient(
        h, protocol::kPlanRound, std::vector<uint8_t>(digest.begin(), digest.end())));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<protocol::CountUpdate>> PartySession::DecodeRelayed(
    const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& updates) const {
  return protocol::CountUpdatesFromProto(updates, run_id_, *resources_.key_share->public_key(),
                                         *plan_);
}

std::vector<protocol::CountsDigest> PartySession::DigestsOf(
    const std::vector<protocol::CountUpdate>& updates) const {
  const size_t width = resources_.key_share->public_key()->paillier().ciphertext_bytes();
  std::vector<protocol::CountsDigest> digests;
  for (const protocol::CountUpdate& u : updates)
    digests.push_back(protocol::UpdateDigest(u, width));
  return digests;
}

absl::StatusOr<std::vector<protocol::CountsDigest>> PartySession::RelayedDigests(
    const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& updates) const {
  ASSIGN_OR_RETURN(std::vector<protocol::CountUpdate> decoded, DecodeRelayed(updates));
  return DigestsOf(decoded);
}

absl::StatusOr<std::vector<protocol::CountsDigest>> PartySession::AcceptRelayed(
    const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& updates) {
  ASSIGN_OR_RETURN(std::vector<protocol::CountUpdate> decoded, DecodeRelayed(updates));
  RETURN_IF_ERROR(party_->AcceptUpdates(decoded));
  return DigestsOf(decoded);
}

absl::StatusOr<pplda::v1::IterateReply> PartySession::Iterate(
    const pplda::v1::IterateRequest& request) {
  RETURN_IF_ERROR(CheckUsable("Iterate"));
  if (party_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " is not prepared"));
  }
  if (last_iterate_reply_.has_value() &&
      request.header().iteration() == party_->iterations_done()) {
    // A repeated call: the same reply for the same relayed updates.
    ASSIGN_OR_RETURN(std::vector<protocol::CountsDigest> previous,
                     RelayedDigests(request.previous()));
    if (previous != last_iterate_previous_) {
      return absl::FailedPreconditionError(
          absl::StrCat("run ", run_id_, ": iteration ", request.header().iteration(),
                       " was asked again with other updates than this party ran it on"));
    }
    return *last_iterate_reply_;
  }
  const int expected = party_->iterations_done() + 1;
  if (request.header().iteration() != expected) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, ": asked to run iteration ", request.header().iteration(),
        ", but the next iteration is ", expected));
  }
  if (expected > static_cast<int>(parameters_.iterations())) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " has only ",
                                                      parameters_.iterations(), " iterations"));
  }
  return Guard(DoIterate(request));
}

absl::StatusOr<pplda::v1::IterateReply> PartySession::DoIterate(
    const pplda::v1::IterateRequest& request) {
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  ASSIGN_OR_RETURN(std::vector<protocol::CountsDigest> previous_digests,
                   AcceptRelayed(request.previous()));
  const int iteration = party_->iterations_done() + 1;
  ASSIGN_OR_RETURN(engine_,
                   iteration_randomness_->Begin(iteration, *mpc_config_, committee_transport_));
  const protocol::PartyPhaseTimes before = party_->times();
  const uint64_t rounds_before = engine_->rounds();
  ASSIGN_OR_RETURN(protocol::CountUpdate update, party_->RunIteration(*engine_));
  if (engine_->rounds() - RoundsBeforeIteration(iteration) >= RoundsBeforeIteration(1)) {
    return absl::InternalError(absl::StrCat("iteration ", iteration, " took ",
                                            engine_->rounds() - RoundsBeforeIteration(iteration),
                                            " rounds, more than its numbering leaves room for"));
  }
  const protocol::PartyPhaseTimes phases = party_->times().Since(before);
  pplda::v1::IterateReply reply;
  *reply.mutable_update() = protocol::CountUpdateToProto(key, update);
  *reply.mutable_phases() = protocol::PhasesToProto(phases);
  reply.set_mpc_rounds(engine_->rounds() - rounds_before);
  RETURN_IF_ERROR(SaveRunState(party_->iterations_done(), reply.update()));
  last_iterate_previous_ = std::move(previous_digests);
  last_iterate_reply_ = reply;
  return reply;
}

absl::StatusOr<pplda::v1::PublishReply> PartySession::Publish(
    const pplda::v1::PublishRequest& request) {
  if (published_ && !failed_ && publish_reply_.has_value()) {
    // A repeated call: the same reply (the same partial decryptions) for the
    // same request; nothing is decrypted again.
    ASSIGN_OR_RETURN(std::vector<protocol::CountsDigest> last, RelayedDigests(request.last()));
    if (last != publish_last_ || request.counts_digest() != publish_counts_digest_ ||
        request.decrypt() != publish_decrypt_) {
      return absl::FailedPreconditionError(
          absl::StrCat("run ", run_id_,
                       " is already published; publication was asked again with another "
                       "request"));
    }
    return *publish_reply_;
  }
  RETURN_IF_ERROR(CheckUsable("Publish"));
  if (party_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " is not prepared"));
  }
  if (party_->iterations_done() != static_cast<int>(parameters_.iterations())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, ": publication asked after ", party_->iterations_done(), " of ",
        parameters_.iterations(), " iterations"));
  }
  return Guard(DoPublish(request));
}

absl::StatusOr<pplda::v1::PublishReply> PartySession::DoPublish(
    const pplda::v1::PublishRequest& request) {
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  ASSIGN_OR_RETURN(std::vector<protocol::CountsDigest> last_digests, AcceptRelayed(request.last()));
  const int publication = party_->iterations_done() + 1;
  ASSIGN_OR_RETURN(engine_,
                   iteration_randomness_->Begin(publication, *mpc_config_, committee_transport_));
  RETURN_IF_ERROR(party_->ConfirmCounts(*engine_));
  pplda::v1::PublishReply reply;
  if (request.decrypt()) {
    protocol::CountsDigest requested{};
    if (request.counts_digest().size() != requested.size()) {
      return absl::InvalidArgumentError(absl::StrCat("counts_digest: ",
                                                     request.counts_digest().size(),
                                                     " bytes, expected 32"));
    }
    std::copy(request.counts_digest().begin(), request.counts_digest().end(), requested.begin());
    ASSIGN_OR_RETURN(protocol::DecryptionShare share, party_->DecryptModel(requested));
    *reply.mutable_partials() = crypto::PartialDecryptionBatchToProto(key, share.partials);
  }
  ASSIGN_OR_RETURN(std::string path, WriteMixtures());
  reply.set_mixtures_path(path);
  RETURN_IF_ERROR(MarkPublished());
  published_ = true;
  publish_last_ = std::move(last_digests);
  publish_counts_digest_ = request.counts_digest();
  publish_decrypt_ = request.decrypt();
  publish_reply_ = reply;
  return reply;
}

absl::StatusOr<std::string> PartySession::WriteMixtures() const {
  return WriteMixturesFile(resources_.state_dir, run_id_, *resources_.corpus,
                           party_->DocumentTopicMixtures(),
                           static_cast<int>(parameters_.num_topics()));
}

}  // namespace pplda::party
