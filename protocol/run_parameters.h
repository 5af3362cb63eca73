// A secure run's public parameters, checked once and turned into the run's
// plan once: the coordinator daemon, every party session and the one-process
// simulation call these, so that all of them derive the same plan (the
// parties compare its digest, run_state_file.h) from the same rules.
//
//   CheckRunParameters: the RunParameters message a run starts with and
//     every party checks on Join: K in [1, 65535], alpha and beta finite in
//     (0, 1e6], at most 10^6 iterations, a draw method by its name, and the
//     DP options (when dp_epsilon > 0) as privacy::ValidateDpCountOptions
//     checks them. InvalidArgument naming the field ("parameters.alpha").
//   RunPlanInputsFromParameters: what a plan is built from, read off the
//     message; DP training gets what the DP vocabulary (when any) left of
//     the run's budget (run_dp_budget.h).
//   DeriveRunPlan: the MPC configuration (n compute parties, threshold
//     t = MpcThreshold(n)), the DP setup (noise calibrated against a
//     coalition of t, the accountant with every release debited) and the
//     SecureLdaPlan over the parties' public token totals. Errors: the
//     MPC configuration's, SetUpSecureDp's and SecureLdaPlan::Create's.
// Pure functions; thread-safe.
#ifndef PPLDA_PROTOCOL_RUN_PARAMETERS_H_
#define PPLDA_PROTOCOL_RUN_PARAMETERS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/paillier/paillier_public_key.h"
#include "privacy/dp_count_training.h"
#include "proto/party_control_service.pb.h"
#include "protocol/run_dp_budget.h"
#include "protocol/secure_dp_noise.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::protocol {

absl::Status CheckRunParameters(const pplda::v1::RunParameters& parameters);
struct RunPlanInputs {
  SecureLdaOptions lda;                       // its dp is set by DeriveRunPlan, from `dp`
  std::optional<privacy::DpCountOptions> dp;  // DP training's options, if any
  int iterations = 0;
  int compute_parties = 0;  // n
  crypto::MpcConfig::SharedRandomness shared_randomness =
      crypto::MpcConfig::SharedRandomness::kAuto;
};

absl::StatusOr<RunPlanInputs> RunPlanInputsFromParameters(
    const pplda::v1::RunParameters& parameters, const std::optional<RunDpVocabulary>& vocabulary,
    int compute_parties);

struct RunPlan {
  crypto::MpcConfig mpc;
  SecureLdaPlan lda;
  std::optional<SecureDpSetup> dp;  // DP training's setup (its noise is lda's)
};

// tokens_per_holder: the data holders' outside the committee (SecureLdaPlan).
// The same from every owner's tokens in owner order (the committee's
// inputs.compute_parties, then the data holders'), as the daemons carry
// them (PrepareRequest, run state files).
absl::StatusOr<RunPlan> DeriveOwnersRunPlan(const RunPlanInputs& inputs, int32_t num_terms,
                                            const std::vector<int64_t>& owner_tokens,
                                            const crypto::PaillierPublicKey& key);
absl::StatusOr<RunPlan> DeriveRunPlan(const RunPlanInputs& inputs, int32_t num_terms,
                                      std::vector<int64_t> tokens_per_party,
                                      const crypto::PaillierPublicKey& key,
                                      std::vector<int64_t> tokens_per_holder = {});

}  // namespace pplda::protocol

#endif  // PPLDA_PROTOCOL_RUN_PARAMETERS_H_
