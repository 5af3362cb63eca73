#include "protocol/run_parameters.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "protocol/consortium_policy.h"
#include "protocol/secure_draw.h"
#include "protocol/wire.h"

namespace pplda::protocol {
namespace {

absl::Status CheckHyperparameter(const char* field, double value) {
  if (!std::isfinite(value) || value <= 0 || value > 1e6) {
    return absl::InvalidArgumentError(
        absl::StrCat("parameters.", field, ": ", value, " is not in (0, 1e6]"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckRunParameters(const pplda::v1::RunParameters& p) {
  if (p.num_topics() < 1 || p.num_topics() > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("parameters.num_topics: ", p.num_topics(), " is outside [1, 65535]"));
  }
  RETURN_IF_ERROR(CheckHyperparameter("alpha", p.alpha()));
  RETURN_IF_ERROR(CheckHyperparameter("beta", p.beta()));
  if (p.iterations() > 1000000) {
    return absl::InvalidArgumentError(
        absl::StrCat("parameters.iterations: ", p.iterations(), " is above 1000000"));
  }
  if (absl::Status method = DrawMethodFromName(p.draw_method()).status(); !method.ok()) {
    return absl::InvalidArgumentError("parameters.draw_method: " + std::string(method.message()));
  }
  if (const std::optional<privacy::DpCountOptions> dp = DpOptionsFromParameters(p)) {
    RETURN_IF_ERROR(privacy::ValidateDpCountOptions(*dp, static_cast<int>(p.iterations())));
  }
  return absl::OkStatus();
}

absl::StatusOr<RunPlanInputs> RunPlanInputsFromParameters(
    const pplda::v1::RunParameters& parameters, const std::optional<RunDpVocabulary>& vocabulary,
    int compute_parties) {
  RunPlanInputs inputs;
  inputs.lda.num_topics = static_cast<int>(parameters.num_topics());
  inputs.lda.alpha = parameters.alpha();
  inputs.lda.beta = parameters.beta();
  ASSIGN_OR_RETURN(inputs.lda.draw_method, DrawMethodFromName(parameters.draw_method()));
  inputs.lda.verify_conversion = parameters.verify_conversion();
  inputs.dp = TrainingDpOptions(parameters, vocabulary);
  inputs.iterations = static_cast<int>(parameters.iterations());
  inputs.compute_parties = compute_parties;
  return inputs;
}

absl::StatusOr<RunPlan> DeriveRunPlan(const RunPlanInputs& inputs, int32_t num_terms,
                                      std::vector<int64_t> tokens_per_party,
                                      const crypto::PaillierPublicKey& key,
                                      std::vector<int64_t> tokens_per_holder) {
  const int n = inputs.compute_parties;
  const int t = MpcThreshold(n);
  ASSIGN_OR_RETURN(
      crypto::MpcConfig mpc,
      crypto::MpcConfig::Create(n, t, crypto::MpcConfig::kDefaultSigma, inputs.shared_randomness));
  SecureLdaOptions lda = inputs.lda;
  std::optional<SecureDpSetup> dp;
  if (inputs.dp.has_value()) {
    ASSIGN_OR_RETURN(dp,
                     SetUpSecureDp(*inputs.dp, inputs.iterations, n, t, num_terms, lda.num_topics));
    lda.dp = dp->noise;
  }
  ASSIGN_OR_RETURN(SecureLdaPlan plan,
                   SecureLdaPlan::Create(lda, num_terms, std::move(tokens_per_party), key, mpc,
                                         std::move(tokens_per_holder)));
  return RunPlan{std::move(mpc), std::move(plan), std::move(dp)};
}

absl::StatusOr<RunPlan> DeriveOwnersRunPlan(const RunPlanInputs& inputs, int32_t num_terms,
                                            const std::vector<int64_t>& owner_tokens,
                                            const crypto::PaillierPublicKey& key) {
  const size_t n = static_cast<size_t>(inputs.compute_parties);
  if (owner_tokens.size() < n) {
    return absl::InvalidArgumentError(
        absl::StrCat(owner_tokens.size(), " token totals for ", n, " compute parties"));
  }
  return DeriveRunPlan(inputs, num_terms, {owner_tokens.begin(), owner_tokens.begin() + n}, key,
                       {owner_tokens.begin() + n, owner_tokens.end()});
}

}  // namespace pplda::protocol
