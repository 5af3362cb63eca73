#include "protocol/run_dp_budget.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "protocol/consortium_policy.h"
#include "protocol/wire.h"

namespace pplda::protocol {

absl::StatusOr<std::optional<RunDpVocabulary>> DpVocabularyFromParameters(
    const pplda::v1::RunParameters& p, int parties, int32_t candidates, int holders) {
  if (p.dp_vocab_epsilon() == 0) {
    if (p.dp_vocab_threshold() != 0 || p.dp_vocab_max_terms() != 0) {
      return absl::InvalidArgumentError(
          "dp_vocab_threshold and dp_vocab_max_terms are the DP vocabulary's: set "
          "dp_vocab_epsilon (pplda run start --dp-vocab-epsilon)");
    }
    return std::nullopt;
  }
  if (p.dp_epsilon() == 0) {
    return absl::InvalidArgumentError(
        "dp_vocab_epsilon without dp_epsilon would publish exact counts over the DP vocabulary: "
        "add --dp-epsilon (the run's budget, the vocabulary included)");
  }
  if (!(p.dp_vocab_epsilon() < p.dp_epsilon()) || !(p.dp_vocab_delta() < p.dp_delta())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the DP vocabulary's budget (", p.dp_vocab_epsilon(), ", ", p.dp_vocab_delta(),
        ") must be below the run's (", p.dp_epsilon(), ", ", p.dp_delta(),
        "): DP training needs the rest (--dp-vocab-epsilon, --dp-vocab-delta, --dp-epsilon, "
        "--dp-delta)"));
  }
  privacy::CandidateUnionOptions o;
  o.epsilon = p.dp_vocab_epsilon();
  o.delta = p.dp_vocab_delta();
  o.max_terms_per_document = static_cast<int>(p.dp_vocab_max_terms());
  o.parties = parties;
  o.coalition = MpcThreshold(parties);
  o.holders = holders;
  o.threshold = p.dp_vocab_threshold();
  RunDpVocabulary v;
  ASSIGN_OR_RETURN(v.plan, privacy::PlanCandidateUnion(o, candidates));
  ASSIGN_OR_RETURN(v.accountant, privacy::PrivacyAccountant::WithBudget(o.epsilon, o.delta));
  RETURN_IF_ERROR(v.accountant.Record(v.plan.TruncationRelease()));
  RETURN_IF_ERROR(v.accountant.Record(v.plan.Release()));
  return std::optional<RunDpVocabulary>(std::move(v));
}

std::optional<privacy::DpCountOptions> TrainingDpOptions(
    const pplda::v1::RunParameters& parameters, const std::optional<RunDpVocabulary>& vocabulary) {
  std::optional<privacy::DpCountOptions> dp = DpOptionsFromParameters(parameters);
  if (dp.has_value() && vocabulary.has_value()) {
    dp->epsilon -= vocabulary->accountant.epsilon();
    dp->delta -= vocabulary->accountant.delta();
  }
  return dp;
}

absl::StatusOr<privacy::PrivacyAccountant> ComposeRunAccountant(
    double epsilon, double delta, const privacy::CandidateUnionPlan* vocabulary_plan,
    const privacy::PrivacyAccountant* vocabulary, const privacy::PrivacyAccountant& training) {
  if (vocabulary == nullptr || vocabulary_plan == nullptr) return training;
  ASSIGN_OR_RETURN(privacy::PrivacyAccountant run,
                   privacy::PrivacyAccountant::WithBudget(epsilon, delta));
  privacy::DpRelease v = vocabulary_plan->Release();
  v.rho.reset();
  v.epsilon = vocabulary->epsilon();
  v.delta = vocabulary->delta();
  v.parameters["composition"] =
      "its zCDP release and share truncation, converted to (epsilon, delta) on their own "
      "(Bun & Steinke Prop. 1.3), then composed with DP training by basic composition";
  RETURN_IF_ERROR(run.Record(std::move(v)));
  for (const privacy::DpRelease& r : training.releases()) RETURN_IF_ERROR(run.Record(r));
  return run;
}

}  // namespace pplda::protocol
