// What a secure run's published model says of its training and its privacy,
// built once for the two publishers (`pplda simulate` and the coordinator
// daemon); each adds only what is its own (the setting's names, the key's
// source, the run id, the corpus it describes).
//
//   SecureTrainingRecord: the metadata's "training" keys both share: the
//     mode, the sampler, iterations, draw, whether conversion proofs were
//     verified, the effective alpha and beta, the run's timings (set-up,
//     iterations, publication; party 0's seconds per phase) and the
//     coordinator's ciphertext bytes.
//   EraseExactStatistics: a DP model carries no exact statistic of the data
//     (DESIGN.md section 6): every timing, byte, round and count key either
//     publisher records, and the seed, leave the training record.
//   PublishedPrivacyStatement: the "privacy" object. Without DP, the secure
//     protocol's leakage statement (protocol/consortium_policy.h); with DP,
//     the DP statement of the run's composed accountant, its unit and
//     mechanism, the secure setting, what the budget covers against a
//     coalition of t = MpcThreshold(n) of the n compute parties, the
//     protocol's leakage statement beside it, and the DP vocabulary's plan
//     when the vocabulary was chosen by the secure DP set union.
// Pure functions; thread-safe.
#ifndef PPLDA_COORDINATOR_PUBLISHED_MODEL_METADATA_H_
#define PPLDA_COORDINATOR_PUBLISHED_MODEL_METADATA_H_

#include <string_view>

#include "coordinator/run_driver.h"
#include "lda/lda_model.h"
#include "nlohmann/json.hpp"
#include "privacy/dp_candidate_union.h"
#include "privacy/dp_training.h"
#include "privacy/privacy_accountant.h"
#include "privacy/privacy_unit.h"
#include "protocol/consortium_policy.h"

namespace pplda::coordinator {

nlohmann::json SecureTrainingRecord(std::string_view mode, int iterations, std::string_view draw,
                                    bool verify_conversion, const lda::LdaModel& model,
                                    const RunStats& stats);

void EraseExactStatistics(nlohmann::json* training);

// The DP releases behind a published model. Pointers are not owned and
// must outlive the call; vocabulary is null when no secure DP vocabulary ran.
struct DpPublication {
  const privacy::DpTrainingOptions* requested = nullptr;   // the run's whole budget
  const privacy::PrivacyAccountant* accountant = nullptr;  // composed over the run
  privacy::PrivacyUnit unit;
  nlohmann::json mechanism;  // DP training's record (protocol::SecureDpSetup)
  const privacy::CandidateUnionPlan* vocabulary = nullptr;
};

// dp null: no DP in the run. Never fails: the accountant and the options
// were validated when the run was set up.
nlohmann::json PublishedPrivacyStatement(const protocol::LeakageContext& leakage,
                                         const DpPublication* dp);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_PUBLISHED_MODEL_METADATA_H_
