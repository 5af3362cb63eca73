// RunDpBudget: how a secure run's DP budget (dp_epsilon, dp_delta of its
// RunParameters) splits between the secure DP vocabulary and DP training,
// derived identically by every party and the coordinator from the public
// parameters (docs/privacy.md, "Secure DP vocabulary"):
//   - the vocabulary (dp_vocab_epsilon > 0): a DP set union over the
//     consortium's public candidate list (privacy/dp_candidate_union.h),
//     n compute parties, coalition t = (n - 1) / 2; its accountant, budget
//     (dp_vocab_epsilon, dp_vocab_delta), holds the share truncation and the
//     release, debited before anything is computed;
//   - DP training: the run's (epsilon, delta) minus what the vocabulary's
//     accountant spent (basic composition);
//   - the run's accountant: the vocabulary's (epsilon, delta) first, then
//     every release of DP training.
// Errors: InvalidArgument naming the field (a vocabulary without DP training
// would publish exact counts; a vocabulary budget not below the run's).
#ifndef PPLDA_PROTOCOL_RUN_DP_BUDGET_H_
#define PPLDA_PROTOCOL_RUN_DP_BUDGET_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "privacy/dp_candidate_union.h"
#include "privacy/dp_count_training.h"
#include "privacy/privacy_accountant.h"
#include "proto/party_control_service.pb.h"

namespace pplda::protocol {

struct RunDpVocabulary {
  privacy::CandidateUnionPlan plan;
  privacy::PrivacyAccountant accountant;  // truncation and release recorded
};

// nullopt when dp_vocab_epsilon is 0. `candidates` is the size of the
// consortium's candidate list; `parties` the compute parties (they add the
// noise), `holders` the data holders outside the committee.
absl::StatusOr<std::optional<RunDpVocabulary>> DpVocabularyFromParameters(
    const pplda::v1::RunParameters& parameters, int parties, int32_t candidates, int holders = 0);

// DP training's options (nullopt without dp_epsilon): the run's budget less
// what `vocabulary` spent. Not validated (privacy::ValidateDpCountOptions).
std::optional<privacy::DpCountOptions> TrainingDpOptions(
    const pplda::v1::RunParameters& parameters, const std::optional<RunDpVocabulary>& vocabulary);

// The run's accountant with budget (epsilon, delta): `vocabulary`'s
// (epsilon, delta) when present, then `training`'s releases.
absl::StatusOr<privacy::PrivacyAccountant> ComposeRunAccountant(
    double epsilon, double delta, const privacy::CandidateUnionPlan* vocabulary_plan,
    const privacy::PrivacyAccountant* vocabulary, const privacy::PrivacyAccountant& training);

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_RUN_DP_BUDGET_H_
