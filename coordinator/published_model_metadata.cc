#include "coordinator/published_model_metadata.h"

#include <string>

#include "protocol/phase_times.h"

namespace pplda::coordinator {

nlohmann::json SecureTrainingRecord(std::string_view mode, int iterations, std::string_view draw,
                                    bool verify_conversion, const lda::LdaModel& model,
                                    const RunStats& stats) {
  return {{"mode", std::string(mode)},
          {"sampler", "batched (secure protocol)"},
          {"iterations", iterations},
          {"draw", std::string(draw)},
          {"conversion_proofs_verified", verify_conversion},
          {"alpha_effective", model.alpha},
          {"beta_effective", model.beta},
          {"init_seconds", stats.init_seconds},
          {"iteration_seconds", stats.iteration_seconds},
          {"publication_seconds", stats.publication_seconds},
          {"phase_seconds_party0", protocol::PhaseSecondsJson(stats.phases)},
          {"coordinator_bytes", stats.coordinator_bytes}};
}

void EraseExactStatistics(nlohmann::json* training) {
  for (const char* exact :
       {"key_dealing_seconds", "key_generation_seconds", "init_seconds", "iteration_seconds",
        "publication_seconds", "phase_seconds_party0", "coordinator_bytes", "partial_decryptions",
        "mpc_rounds", "mpc_bytes_sent_per_party", "mpc_bytes_sent_party0_last_iteration",
        "mpc_rounds_last_iteration", "seed"}) {
    training->erase(exact);
  }
}

nlohmann::json PublishedPrivacyStatement(const protocol::LeakageContext& leakage,
                                         const DpPublication* dp) {
  if (dp == nullptr) return protocol::LeakageStatement(leakage);
  protocol::LeakageContext secure = leakage;
  secure.dp_counts = true;
  const int n = leakage.compute_parties;
  nlohmann::json statement = privacy::DpPrivacyStatement(*dp->requested, *dp->accountant, dp->unit,
                                                         std::nullopt, dp->mechanism);
  statement["setting"] = leakage.setting;
  statement["leakage"] = privacy::SecureDpLeakage(
      *dp->accountant, *dp->requested->counts, dp->unit, n, protocol::MpcThreshold(n),
      dp->vocabulary != nullptr, leakage.holders_outside_committee);
  statement["secure_protocol"] = protocol::LeakageStatement(secure);
  if (dp->vocabulary != nullptr) statement["dp_vocabulary"] = dp->vocabulary->Describe();
  return statement;
}

}  // namespace pplda::coordinator
