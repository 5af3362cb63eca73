#include "party/session_base.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "privacy/document_caps.h"
#include "privacy/dp_count_training.h"

namespace pplda::party {

SessionBase::SessionBase(std::string run_id, pplda::v1::RunParameters parameters,
                         const PartyResources& resources, crypto::PartyTransport& transport,
                         std::string_view participant)
    : run_id_(std::move(run_id)),
      parameters_(std::move(parameters)),
      resources_(resources),
      transport_(transport),
      participant_(participant) {}

int64_t SessionBase::join_tokens() const {
  if (dp_vocabulary_.has_value()) return tokens() > 0 ? 1 : 0;
  return tokens();
}

int64_t SessionBase::join_documents() const { return dp_vocabulary_.has_value() ? 0 : documents(); }

absl::Status SessionBase::SetUpAtJoin() {
  // The participant's own ceiling, before anything is computed for the run.
  const PrivacyBudget& ceiling = resources_.run_dp_ceiling;
  if (parameters_.dp_epsilon() > 0 &&
      (parameters_.dp_epsilon() > ceiling.epsilon || parameters_.dp_delta() > ceiling.delta)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id_, " asks (epsilon ", parameters_.dp_epsilon(), ", delta ",
        parameters_.dp_delta(), ") of this ", participant_,
        "'s documents, above its ceiling per run (epsilon ", ceiling.epsilon, ", delta ",
        ceiling.delta, "; max_run_epsilon and max_run_delta in party.toml)"));
  }
  RETURN_IF_ERROR(CheckRunSize());
  ASSIGN_OR_RETURN(dp_vocabulary_,
                   protocol::DpVocabularyFromParameters(parameters_, resources_.num_parties,
                                                        resources_.corpus->vocabulary.size(),
                                                        resources_.num_holders));
  if (const std::optional<privacy::DpCountOptions> dp =
          protocol::TrainingDpOptions(parameters_, dp_vocabulary_)) {
    RETURN_IF_ERROR(
        privacy::ValidateDpCountOptions(*dp, static_cast<int>(parameters_.iterations())));
    // With a DP vocabulary the documents are capped once restricted to it
    // (UseSelectedVocabulary).
    if (!dp_vocabulary_.has_value()) {
      capped_corpus_ = std::make_unique<lda::Corpus>(
          privacy::CapDocuments(*resources_.corpus, dp->caps, nullptr));
      resources_.corpus = capped_corpus_.get();
    }
  }
  for (int s = 0; s < kPartyRandomSources; ++s) {
    std::unique_ptr<crypto::SecureRng> rng =
        resources_.rng_factory(static_cast<PartyRandomSource>(s));
    if (rng == nullptr) {
      return absl::InternalError(absl::StrCat(participant_, " session: no random source"));
    }
    rngs_.push_back(std::move(rng));
  }
  return absl::OkStatus();
}

absl::Status SessionBase::CheckRunSize() const {
  const int64_t k = parameters_.num_topics();
  const int64_t v = resources_.corpus->vocabulary.size();
  const int64_t d = resources_.corpus->num_documents();
  for (const auto& [cells, what] :
       {std::pair{k * v, "topic-term"}, std::pair{k * d, "document-topic"}}) {
    if (cells > kMaxRunCells) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "run ", run_id_, " asks K = ", k, " topics over ", v, " terms and ", d,
          " documents: ", cells, " ", what, " cells, above this ", participant_, "'s limit of ",
          kMaxRunCells, " (party/party_resources.h): ask fewer topics"));
    }
  }
  return absl::OkStatus();
}

absl::Status SessionBase::CheckUsable(std::string_view what) const {
  if (failed_) {
    // Aborted: the run can go on only from a saved boundary (Resume), as
    // after a lost peer; the coordinator then waits and resumes.
    return absl::AbortedError(absl::StrCat("run ", run_id_, " failed at this ", participant_,
                                           " earlier; ", std::string(what), " is refused"));
  }
  if (published_) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id_, " is already published; ", std::string(what), " is refused"));
  }
  return absl::OkStatus();
}

std::string SessionBase::UseSelectedVocabulary(std::vector<lda::TermId> selected) {
  selected_terms_ = std::move(selected);
  return party::UseSelectedVocabulary(
      selected_terms_, protocol::TrainingDpOptions(parameters_, dp_vocabulary_)->caps,
      &capped_corpus_, &resources_.corpus, &parameters_);
}

absl::Status SessionBase::RestoreSelectedVocabulary(const pplda::v1::PartyRunState& state,
                                                    int steps) {
  ASSIGN_OR_RETURN(std::vector<lda::TermId> selected,
                   SavedSelectedTerms(run_id_, state, resources_.corpus->vocabulary.size()));
  UseSelectedVocabulary(std::move(selected));
  vocabulary_steps_ = steps;
  return absl::OkStatus();
}

}  // namespace pplda::party
