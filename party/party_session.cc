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
#include "crypto/mpc_config.h"
#include "crypto/paillier_serialization.h"
#include "lda/gibbs_state.h"
#include "party/protocol_wire.h"
#include "party/secure_dp_noise.h"
#include "party/two_holder_disclosure.h"
#include "privacy/document_caps.h"
#include "privacy/dp_vocabulary.h"

namespace pplda::party {
namespace {

absl::Status CheckParameters(const pplda::v1::RunParameters& p) {
  if (p.num_topics() < 1 || p.num_topics() > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("parameters.num_topics: ", p.num_topics(), " is outside [1, 65535]"));
  }
  if (!std::isfinite(p.alpha()) || p.alpha() <= 0 || p.alpha() > 1e6) {
    return absl::InvalidArgumentError(
        absl::StrCat("parameters.alpha: ", p.alpha(), " is not in (0, 1e6]"));
  }
  if (!std::isfinite(p.beta()) || p.beta() <= 0 || p.beta() > 1e6) {
    return absl::InvalidArgumentError(
        absl::StrCat("parameters.beta: ", p.beta(), " is not in (0, 1e6]"));
  }
  if (p.iterations() > 1000000) {
    return absl::InvalidArgumentError(
        absl::StrCat("parameters.iterations: ", p.iterations(), " is above 1000000"));
  }
  if (absl::Status method = crypto::DrawMethodFromName(p.draw_method()).status(); !method.ok()) {
    return absl::InvalidArgumentError("parameters.draw_method: " + std::string(method.message()));
  }
  return absl::OkStatus();
}

std::string Hex(const uint8_t* data, size_t size) {
  std::string hex(2 * size + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), data, size);
  hex.pop_back();
  return hex;
}

std::vector<std::vector<int>> InitialTopics(const lda::Corpus& corpus, int num_topics,
                                            const std::optional<uint64_t>& seed, int index,
                                            crypto::SecureRng& rng) {
  if (seed.has_value()) {
    // The same derivation as simulation/local_consortium.cc, so that a run
    // with the same seed starts from the same topics.
    return lda::GibbsState::RandomTopics(corpus, num_topics,
                                         *seed * 1000003ULL + static_cast<uint64_t>(index));
  }
  std::vector<std::vector<int>> topics;
  for (const lda::Document& d : corpus.documents) {
    std::vector<int> z(d.tokens.size());
    for (int& k : z) k = static_cast<int>(rng.UniformUint64(static_cast<uint64_t>(num_topics)));
    topics.push_back(std::move(z));
  }
  return topics;
}

}  // namespace

std::string VocabularySha256(const lda::Vocabulary& vocabulary) {
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  for (const std::string& t : vocabulary.terms()) {
    crypto_hash_sha256_update(&state, reinterpret_cast<const uint8_t*>(t.data()), t.size());
    const uint8_t newline = '\n';
    crypto_hash_sha256_update(&state, &newline, 1);
  }
  uint8_t out[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&state, out);
  return Hex(out, sizeof(out));
}

PartySession::PartySession(std::string run_id, pplda::v1::RunParameters parameters,
                           const PartyResources& resources, crypto::PartyTransport& transport)
    : run_id_(std::move(run_id)),
      parameters_(std::move(parameters)),
      resources_(resources),
      transport_(transport) {}

absl::StatusOr<std::unique_ptr<PartySession>> PartySession::Create(
    const std::string& run_id, const pplda::v1::RunParameters& parameters,
    const PartyResources& resources, crypto::PartyTransport& transport) {
  // The run id names this party's folder state_dir/runs/<run id>/.
  RETURN_IF_ERROR(CheckPathComponent(run_id, "header.run_id"));
  RETURN_IF_ERROR(CheckParameters(parameters));
  if (parameters.vocabulary_sha256() != resources.vocabulary_sha256) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id, ": the coordinator's vocabulary has SHA-256 ",
        parameters.vocabulary_sha256(), ", this party's ", resources.vocabulary_sha256,
        ": every participant must hold the same vocabulary file"));
  }
  if (resources.key_share == nullptr || resources.corpus == nullptr || !resources.rng_factory) {
    return absl::InternalError("party session: resources incomplete");
  }
  if (transport.party_id() != resources.party_index ||
      transport.num_parties() != resources.num_parties) {
    return absl::InternalError("party session: the transport is not this party's");
  }
  auto session = std::unique_ptr<PartySession>(
      new PartySession(run_id, parameters, resources, transport));
  ASSIGN_OR_RETURN(session->dp_vocabulary_,
                   DpVocabularyFromParameters(parameters, resources.num_parties,
                                              resources.corpus->vocabulary.size()));
  if (const std::optional<privacy::DpCountOptions> dp =
          TrainingDpOptions(parameters, session->dp_vocabulary_)) {
    RETURN_IF_ERROR(privacy::ValidateDpCountOptions(*dp, static_cast<int>(parameters.iterations())));
    // DP training caps every document (privacy/document_caps.h) before the
    // token count is reported; with a DP vocabulary, once the documents are
    // restricted to it (DoSelectVocabulary).
    if (!session->dp_vocabulary_.has_value()) {
      session->capped_corpus_ = std::make_unique<lda::Corpus>(
          privacy::CapDocuments(*resources.corpus, dp->caps, nullptr));
      session->resources_.corpus = session->capped_corpus_.get();
    }
  }
  for (int s = 0; s < kPartyRandomSources; ++s) {
    std::unique_ptr<crypto::SecureRng> rng =
        resources.rng_factory(static_cast<PartyRandomSource>(s));
    if (rng == nullptr) return absl::InternalError("party session: no random source");
    session->rngs_.push_back(std::move(rng));
  }
  return session;
}

int64_t PartySession::tokens() const { return resources_.corpus->num_tokens(); }
int64_t PartySession::documents() const { return resources_.corpus->num_documents(); }
int64_t PartySession::join_tokens() const {
  if (dp_vocabulary_.has_value()) return tokens() > 0 ? 1 : 0;
  return tokens();
}
int64_t PartySession::join_documents() const {
  return dp_vocabulary_.has_value() ? 0 : documents();
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

absl::Status PartySession::CheckUsable(std::string_view what) const {
  if (failed_) {
    // Aborted: the run can go on only from a saved boundary (Resume), as
    // after a lost peer; the coordinator then waits and resumes.
    return absl::AbortedError(absl::StrCat("run ", run_id_, " failed at this party earlier; ",
                                           std::string(what), " is refused"));
  }
  if (published_) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " is already published; ",
                                                      std::string(what), " is refused"));
  }
  return absl::OkStatus();
}

template <typename T>
absl::StatusOr<T> PartySession::Guard(absl::StatusOr<T> result) {
  // An error inside a step puts the parties out of step: the run is over.
  if (!result.ok()) failed_ = true;
  return result;
}

absl::StatusOr<pplda::v1::VocabularyReply> PartySession::Vocabulary(
    const pplda::v1::VocabularyRequest& request) {
  RETURN_IF_ERROR(CheckUsable("the DP vocabulary"));
  if (!dp_vocabulary_.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_,
                     " has no DP vocabulary (dp_vocab_epsilon 0): its vocabulary is the "
                     "consortium's file"));
  }
  if (plan_ != nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id_, " is already prepared"));
  }
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
  if (tokens() > 0) RETURN_IF_ERROR(DebitPrivacyBudget(DpOptionsFromParameters(parameters_)));
  ASSIGN_OR_RETURN(VocabularyContribution mine,
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
                   VocabularyPackingLayout(dp_vocabulary_->plan, key.paillier()));
  const size_t ciphertexts = layout.NumPlaintexts(dp_vocabulary_->plan.candidates);
  std::vector<VocabularyContribution> contributions;
  for (int p = 0; p < request.contributions_size(); ++p) {
    VocabularyContribution c;
    c.run_id = run_id_;
    c.party = p;
    absl::StatusOr<std::vector<crypto::Ciphertext>> counts =
        crypto::CiphertextBatchFromProto(key, request.contributions(p), ciphertexts);
    if (!counts.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("contributions[", p, "] (compute party ", p,
                                                     "): ", counts.status().message()));
    }
    c.counts = *std::move(counts);
    contributions.push_back(std::move(c));
  }
  ASSIGN_OR_RETURN(CountsDigest digest, vocabulary_party_->AcceptContributions(contributions));
  // The digests travel over the parties' own links, never the coordinator.
  RETURN_IF_ERROR(CreateEngine());
  const int n = resources_.num_parties;
  std::vector<std::vector<uint8_t>> payloads(n);
  for (int j = 0; j < n; ++j) {
    if (j != resources_.party_index) payloads[j].assign(digest.begin(), digest.end());
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received,
                   engine_->ExchangeWithAll(std::move(payloads)));
  std::vector<CountsDigest> digests(n);
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

std::string PartySession::UseSelectedVocabulary(std::vector<lda::TermId> selected) {
  // The documents over the selected terms, then DP training's caps.
  const lda::Corpus restricted = privacy::RestrictToTerms(*resources_.corpus, selected, nullptr);
  const std::optional<privacy::DpCountOptions> training =
      TrainingDpOptions(parameters_, dp_vocabulary_);
  capped_corpus_ =
      std::make_unique<lda::Corpus>(privacy::CapDocuments(restricted, training->caps, nullptr));
  resources_.corpus = capped_corpus_.get();
  selected_terms_ = std::move(selected);
  // From here the run's vocabulary is the selected one (the plan digest
  // Prepare confirms binds it).
  const std::string sha = VocabularySha256(resources_.corpus->vocabulary);
  parameters_.set_vocabulary_sha256(sha);
  return sha;
}

absl::StatusOr<pplda::v1::VocabularyReply> PartySession::DoSelectVocabulary(
    const pplda::v1::VocabularySelect& request) {
  const crypto::ThresholdPublicKeyPtr& key = resources_.key_share->public_key();
  const privacy::CandidateUnionPlan& plan = dp_vocabulary_->plan;
  if (request.partials_size() != key->threshold()) {
    return absl::InvalidArgumentError(absl::StrCat("partials: ", request.partials_size(),
                                                   " batches, the key needs ", key->threshold()));
  }
  ASSIGN_OR_RETURN(crypto::PackingLayout layout, VocabularyPackingLayout(plan, key->paillier()));
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
                   DecodeNoisyCandidateCounts(key, layout, vocabulary_party_->sum(), batches,
                                              plan.candidates, resources_.pool));
  ASSIGN_OR_RETURN(std::vector<lda::TermId> selected, privacy::SelectCandidates(plan, noisy));
  if (selected.empty()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the DP vocabulary kept none of the %d candidates (threshold %d documents): raise "
        "--dp-vocab-epsilon, lower --dp-vocab-max-terms, or use more documents",
        plan.candidates, plan.threshold));
  }
  const std::string sha = UseSelectedVocabulary(std::move(selected));
  pplda::v1::VocabularyReply reply;
  reply.set_vocabulary_sha256(sha);
  reply.set_vocabulary_size(static_cast<uint32_t>(resources_.corpus->vocabulary.size()));
  reply.set_tokens(static_cast<uint64_t>(tokens()));
  reply.set_documents(static_cast<uint64_t>(documents()));
  return reply;
}

absl::Status PartySession::CreateEngine() {
  if (engine_ != nullptr) return absl::OkStatus();
  const int n = resources_.num_parties;
  ASSIGN_OR_RETURN(crypto::MpcConfig config, crypto::MpcConfig::Create(n, (n - 1) / 2));
  ASSIGN_OR_RETURN(
      engine_, crypto::MpcEngine::Create(config, transport_, rng(PartyRandomSource::kMpcEngine)));
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

absl::StatusOr<SecureLdaPlan> PartySession::BuildPlan(const std::vector<int64_t>& tokens) {
  const int n = resources_.num_parties;
  const std::optional<privacy::DpCountOptions> dp = TrainingDpOptions(parameters_, dp_vocabulary_);
  SecureLdaOptions options;
  options.num_topics = static_cast<int>(parameters_.num_topics());
  options.alpha = parameters_.alpha();
  options.beta = parameters_.beta();
  ASSIGN_OR_RETURN(options.draw_method, crypto::DrawMethodFromName(parameters_.draw_method()));
  options.verify_conversion = parameters_.verify_conversion();
  if (dp.has_value()) {
    // The same derivation as the coordinator's (and every other party's).
    ASSIGN_OR_RETURN(SecureDpSetup setup,
                     SetUpSecureDp(*dp, static_cast<int>(parameters_.iterations()), n, (n - 1) / 2,
                                   resources_.corpus->vocabulary.size(), options.num_topics));
    options.dp = std::move(setup.noise);
  }
  ASSIGN_OR_RETURN(crypto::MpcConfig config, crypto::MpcConfig::Create(n, (n - 1) / 2));
  mpc_config_ = config;
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  return SecureLdaPlan::Create(options, resources_.corpus->vocabulary.size(), tokens,
                               key.paillier(), config);
}

absl::StatusOr<pplda::v1::PrepareReply> PartySession::DoPrepare(
    const pplda::v1::PrepareRequest& request) {
  const int n = resources_.num_parties;
  if (request.tokens_per_party_size() != n) {
    return absl::InvalidArgumentError(absl::StrCat("tokens_per_party: ",
                                                   request.tokens_per_party_size(),
                                                   " totals for ", n, " compute parties"));
  }
  std::vector<int64_t> tokens(request.tokens_per_party().begin(),
                              request.tokens_per_party().end());
  if (tokens[resources_.party_index] != this->tokens()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tokens_per_party[", resources_.party_index, "] = ", tokens[resources_.party_index],
        ", but this party holds ", this->tokens(), " tokens"));
  }
  const std::optional<privacy::DpCountOptions> dp = TrainingDpOptions(parameters_, dp_vocabulary_);
  if (this->tokens() > 0) {
    RETURN_IF_ERROR(CheckTwoHolderDisclosure(
        DataHolders(tokens), dp.has_value(), resources_.accept_two_holder_disclosure,
        "accept_two_holder_disclosure = true in this party's party.toml"));
    // With a DP vocabulary the run's budget was debited at its contribution.
    if (!dp_vocabulary_.has_value()) {
      RETURN_IF_ERROR(DebitPrivacyBudget(DpOptionsFromParameters(parameters_)));
    }
  }
  ASSIGN_OR_RETURN(SecureLdaPlan plan, BuildPlan(tokens));
  plan_ = std::make_unique<SecureLdaPlan>(std::move(plan));
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
  ASSIGN_OR_RETURN(CountUpdate initial, party_->InitialCounts());
  pplda::v1::PrepareReply reply;
  *reply.mutable_initial_counts() = CountUpdateToProto(key, initial);
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
  return absl::OkStatus();
}

absl::Status PartySession::DebitPrivacyBudget(const std::optional<privacy::DpCountOptions>& dp) {
  if (!resources_.privacy_budget.has_value()) return absl::OkStatus();
  if (!dp.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, " has no differential privacy and would publish exact counts of this "
        "party's documents, which have a privacy budget (privacy_budget_epsilon in party.toml): "
        "start the run with --dp-epsilon"));
  }
  ASSIGN_OR_RETURN(PrivacyLedger ledger, PrivacyLedger::Load(resources_.state_dir));
  return ledger.Debit(run_id_, dp->epsilon, dp->delta, *resources_.privacy_budget);
}

absl::Status PartySession::ConfirmPlan(const std::vector<int64_t>& tokens_per_party) {
  tokens_per_party_ = tokens_per_party;
  plan_digest_ = ComputePlanDigest(run_id_, parameters_, tokens_per_party);
  const PlanDigest& digest = plan_digest_;
  const int n = resources_.num_parties;
  std::vector<std::vector<uint8_t>> payloads(n);
  for (int j = 0; j < n; ++j) {
    if (j != resources_.party_index) payloads[j].assign(digest.begin(), digest.end());
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> received,
                   engine_->ExchangeWithAll(std::move(payloads)));
  for (int j = 0; j < n; ++j) {
    if (j == resources_.party_index) continue;
    if (received[j] != std::vector<uint8_t>(digest.begin(), digest.end())) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run ", run_id_, ": compute party ", j,
          " was given a different plan (parameters, vocabulary or token totals): the "
          "coordinator told parties different things"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<CountsDigest>> PartySession::RelayedDigests(
    const google::protobuf::RepeatedPtrField<pplda::v1::CountUpdateMessage>& updates) const {
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  ASSIGN_OR_RETURN(std::vector<CountUpdate> decoded,
                   CountUpdatesFromProto(updates, run_id_, key, *plan_));
  std::vector<CountsDigest> digests;
  for (const CountUpdate& u : decoded) {
    digests.push_back(UpdateDigest(u, key.paillier().ciphertext_bytes()));
  }
  return digests;
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
    ASSIGN_OR_RETURN(std::vector<CountsDigest> previous, RelayedDigests(request.previous()));
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
  ASSIGN_OR_RETURN(std::vector<CountUpdate> previous,
                   CountUpdatesFromProto(request.previous(), run_id_, key, *plan_));
  RETURN_IF_ERROR(party_->AcceptUpdates(previous));
  std::vector<CountsDigest> previous_digests;
  for (const CountUpdate& u : previous) {
    previous_digests.push_back(UpdateDigest(u, key.paillier().ciphertext_bytes()));
  }
  const int iteration = party_->iterations_done() + 1;
  ASSIGN_OR_RETURN(engine_, iteration_randomness_->Begin(iteration, *mpc_config_, transport_));
  const PartyPhaseTimes before = party_->times();
  const uint64_t rounds_before = engine_->rounds();
  ASSIGN_OR_RETURN(CountUpdate update, party_->RunIteration(*engine_));
  if (engine_->rounds() - RoundsBeforeIteration(iteration) >= RoundsBeforeIteration(1)) {
    return absl::InternalError(absl::StrCat("iteration ", iteration, " took ",
                                            engine_->rounds() - RoundsBeforeIteration(iteration),
                                            " rounds, more than its numbering leaves room for"));
  }
  PartyPhaseTimes phases = party_->times();
  phases += PartyPhaseTimes{-before.selection, -before.exchange, -before.conversion,
                            -before.weights,   -before.draw,     -before.update};
  pplda::v1::IterateReply reply;
  *reply.mutable_update() = CountUpdateToProto(key, update);
  *reply.mutable_phases() = PhasesToProto(phases);
  reply.set_mpc_rounds(engine_->rounds() - rounds_before);
  RETURN_IF_ERROR(SaveRunState(party_->iterations_done(), reply.update()));
  last_iterate_previous_ = std::move(previous_digests);
  last_iterate_reply_ = reply;
  return reply;
}

absl::Status PartySession::SaveRunState(int iteration, const pplda::v1::CountUpdateMessage& sent) {
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  pplda::v1::PartyRunState state;
  pplda::v1::RunStateHeader& header = *state.mutable_header();
  header.set_run_id(run_id_);
  header.set_participant(resources_.participant);
  header.set_iteration(iteration);
  header.set_plan_digest(std::string(plan_digest_.begin(), plan_digest_.end()));
  state.set_party_index(static_cast<uint32_t>(resources_.party_index));
  *state.mutable_parameters() = parameters_;
  for (int64_t t : tokens_per_party_) state.add_tokens_per_party(static_cast<uint64_t>(t));
  for (const std::vector<int>& document : party_->Assignments()) {
    for (int k : document) state.add_topics(static_cast<uint32_t>(k));
  }
  *state.mutable_sent() = sent;
  const EncryptedCounts& counts = party_->counts();
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
  const std::filesystem::path path = RunStatePath(resources_.state_dir, run_id_);
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create ", path.parent_path().string(), ": ", ec.message()));
  }
  // The boundary before becomes the previous one (a rename: a crash right
  // after it leaves that one, which Resume reads); an iteration run again
  // after a restart replaces the latest and keeps the previous.
  if (current_file_iteration_ >= 0 && current_file_iteration_ < iteration &&
      std::filesystem::exists(path, ec)) {
    const std::filesystem::path previous = PreviousRunStatePath(resources_.state_dir, run_id_);
    std::filesystem::rename(path, previous, ec);
    if (ec) {
      return absl::PermissionDeniedError(absl::StrCat("cannot rename ", path.string(), " to ",
                                                      previous.string(), ": ", ec.message()));
    }
  }
  const absl::Status written = WriteRunState(path, state);
  sodium_memzero(state.mutable_iteration_key()->data(), state.iteration_key().size());
  sodium_memzero(state.mutable_shared_keys()->data(), state.shared_keys().size());
  if (written.ok()) current_file_iteration_ = iteration;
  return written;
}

std::filesystem::path PublishedMarkerPath(const std::filesystem::path& state_dir,
                                          const std::string& run_id) {
  return state_dir / "runs" / run_id / "published";
}

absl::Status PartySession::MarkPublished() const {
  RETURN_IF_ERROR(WriteFileAtomically(PublishedMarkerPath(resources_.state_dir, run_id_),
                                      run_id_ + "\n", FileMode::kPrivate));
  std::error_code ec;
  const std::filesystem::path previous = PreviousRunStatePath(resources_.state_dir, run_id_);
  std::filesystem::remove(previous, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot remove ", previous.string(), ": ", ec.message()));
  }
  return absl::OkStatus();
}

absl::Status PartySession::RemoveRunState(const std::filesystem::path& state_dir,
                                          const std::string& run_id) {
  for (const std::filesystem::path& path :
       {RunStatePath(state_dir, run_id), PreviousRunStatePath(state_dir, run_id)}) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (ec) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot remove ", path.string(), ": ", ec.message()));
    }
  }
  return absl::OkStatus();
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
  std::string found;
  // A damaged file's own code (DataLoss, FailedPrecondition) wins over
  // NotFound: the operator has a file to look at.
  absl::StatusCode code = absl::StatusCode::kNotFound;
  for (const std::filesystem::path& path : {RunStatePath(resources_.state_dir, run_id_),
                                            PreviousRunStatePath(resources_.state_dir, run_id_)}) {
    absl::StatusOr<pplda::v1::PartyRunState> state =
        ReadPartyRunState(path, run_id_, resources_.participant);
    if (state.ok() && path == RunStatePath(resources_.state_dir, run_id_)) {
      current_file_iteration_ = state->header().iteration();
    }
    if (state.ok() && state->header().iteration() == iteration) return state;
    if (!state.ok() && state.status().code() != absl::StatusCode::kNotFound &&
        code == absl::StatusCode::kNotFound) {
      code = state.status().code();
    }
    absl::StrAppend(&found, found.empty() ? "" : "; ",
                    state.ok()
                        ? absl::StrCat(path.string(), ": iteration ", state->header().iteration())
                        : std::string(state.status().message()));
  }
  return absl::Status(code, absl::StrCat("run ", run_id_, ": this party has no saved state after ",
                                         iteration, " iterations (", found, ")"));
}

absl::Status PartySession::RestoreFrom(const pplda::v1::PartyRunState& state) {
  const int n = resources_.num_parties;
  if (dp_vocabulary_.has_value()) {
    // The run's documents over the terms the DP vocabulary selected.
    std::vector<lda::TermId> selected(state.selected_terms().begin(), state.selected_terms().end());
    const auto candidates = static_cast<lda::TermId>(resources_.corpus->vocabulary.size());
    for (size_t i = 0; i < selected.size(); ++i) {
      if (selected[i] < 0 || selected[i] >= candidates ||
          (i > 0 && selected[i] <= selected[i - 1])) {
        return absl::FailedPreconditionError(absl::StrCat(
            "run ", run_id_, ": the saved state's selected terms are not increasing ids below ",
            candidates));
      }
    }
    if (selected.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("run ", run_id_, ": the saved state has no selected vocabulary"));
    }
    UseSelectedVocabulary(std::move(selected));
    vocabulary_steps_ = 3;
  }
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
  const PlanDigest digest = ComputePlanDigest(run_id_, parameters_, tokens);
  if (state.header().plan_digest() != std::string(digest.begin(), digest.end())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, ": the coordinator's parameters are not the run's saved plan"));
  }
  tokens_per_party_ = tokens;
  plan_digest_ = digest;
  ASSIGN_OR_RETURN(SecureLdaPlan plan, BuildPlan(tokens));
  plan_ = std::make_unique<SecureLdaPlan>(std::move(plan));
  const crypto::ThresholdPublicKey& key = *resources_.key_share->public_key();
  ASSIGN_OR_RETURN(iteration_randomness_, IterationRandomness::FromKey(state.iteration_key()));
  if (mpc_config_->pseudo_random_sharing()) {
    ASSIGN_OR_RETURN(crypto::MpcEngine::SharedKeys shared,
                     SharedKeysFromBytes(state.shared_keys()));
    iteration_randomness_->set_shared_keys(std::move(shared));
  }
  if (state.topics_size() != this->tokens()) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_, ": the saved state has ", state.topics_size(),
                     " topics, this party's documents ", this->tokens(), " tokens"));
  }
  std::vector<std::vector<int>> topics;
  int64_t next = 0;
  for (const lda::Document& d : resources_.corpus->documents) {
    const auto length = static_cast<int64_t>(d.tokens.size());
    topics.emplace_back(state.topics().begin() + next, state.topics().begin() + next + length);
    next += length;
  }
  RETURN_IF_ERROR(CreateParty(std::move(topics)));
  ASSIGN_OR_RETURN(CountUpdate sent, CountUpdateFromProto(state.sent(), run_id_, key, *plan_));
  RETURN_IF_ERROR(party_->Restore(state.header().iteration(), sent, state));
  resumed_update_ = state.sent();
  return absl::OkStatus();
}

absl::StatusOr<pplda::v1::PublishReply> PartySession::Publish(
    const pplda::v1::PublishRequest& request) {
  if (published_ && !failed_ && publish_reply_.has_value()) {
    // A repeated call: the same reply (the same partial decryptions) for the
    // same request; nothing is decrypted again.
    ASSIGN_OR_RETURN(std::vector<CountsDigest> last, RelayedDigests(request.last()));
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
  ASSIGN_OR_RETURN(std::vector<CountUpdate> last,
                   CountUpdatesFromProto(request.last(), run_id_, key, *plan_));
  RETURN_IF_ERROR(party_->AcceptUpdates(last));
  const int publication = party_->iterations_done() + 1;
  ASSIGN_OR_RETURN(engine_, iteration_randomness_->Begin(publication, *mpc_config_, transport_));
  RETURN_IF_ERROR(party_->ConfirmCounts(*engine_));
  pplda::v1::PublishReply reply;
  if (request.decrypt()) {
    CountsDigest requested{};
    if (request.counts_digest().size() != requested.size()) {
      return absl::InvalidArgumentError(absl::StrCat("counts_digest: ",
                                                     request.counts_digest().size(),
                                                     " bytes, expected 32"));
    }
    std::copy(request.counts_digest().begin(), request.counts_digest().end(), requested.begin());
    ASSIGN_OR_RETURN(DecryptionShare share, party_->DecryptModel(requested));
    *reply.mutable_partials() = crypto::PartialDecryptionBatchToProto(key, share.partials);
  }
  ASSIGN_OR_RETURN(std::string path, WriteMixtures());
  reply.set_mixtures_path(path);
  RETURN_IF_ERROR(MarkPublished());
  published_ = true;
  for (const CountUpdate& u : last) {
    publish_last_.push_back(UpdateDigest(u, key.paillier().ciphertext_bytes()));
  }
  publish_counts_digest_ = request.counts_digest();
  publish_decrypt_ = request.decrypt();
  publish_reply_ = reply;
  return reply;
}

absl::StatusOr<std::string> PartySession::WriteMixtures() const {
  const std::filesystem::path dir = resources_.state_dir / "runs" / run_id_;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::PermissionDeniedError("cannot create " + dir.string() + ": " + ec.message());
  const std::filesystem::path path = dir / "mixtures.csv";
  const std::vector<std::vector<double>> theta = party_->DocumentTopicMixtures();
  std::string text = "document";
  for (uint32_t k = 0; k < parameters_.num_topics(); ++k) absl::StrAppend(&text, ",topic_", k);
  text += "\n";
  for (size_t m = 0; m < theta.size(); ++m) {
    std::string name = resources_.corpus->documents[m].name;
    if (name.find_first_of(",\"\n") != std::string::npos) {
      std::string quoted = "\"";
      for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      name = quoted + "\"";
    }
    text += name;
    for (double v : theta[m]) absl::StrAppendFormat(&text, ",%.6g", v);
    text += "\n";
  }
  // This party's exact per-document mixtures: readable by its owner only.
  RETURN_IF_ERROR(WriteFileAtomically(path, text, FileMode::kPrivate));
  return path.string();
}

}  // namespace pplda::party
