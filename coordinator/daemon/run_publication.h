// The metadata of a model the coordinator daemon publishes: the shared
// training record and privacy statement (coordinator/published_model_metadata.h)
// with what only a daemon run has: the run and session ids, the consortium,
// the agreed fold's digest, the last iteration's MPC traffic, a resumption
// or a start over, the per-party token totals (not in a DP model), and,
// with DP, the privacy unit as each party's daemon reads its documents and
// the run's composed budget (the vocabulary's part first, then training's).
// Pure function; thread-safe.
#ifndef PPLDA_COORDINATOR_DAEMON_RUN_PUBLICATION_H_
#define PPLDA_COORDINATOR_DAEMON_RUN_PUBLICATION_H_

#include <string>

#include "absl/status/statusor.h"
#include "coordinator/daemon/remote_party_group.h"
#include "coordinator/daemon/run_context.h"
#include "coordinator/run_driver.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "lda/vocabulary.h"
#include "net/consortium_file.h"
#include "nlohmann/json.hpp"
#include "protocol/secure_dp_noise.h"

namespace pplda::coordinator {

// Pointers are not owned; all but dp are required.
struct RunPublication {
  const RunContext* context = nullptr;
  const DrivenRun* run = nullptr;
  const net::Consortium* consortium = nullptr;
  const crypto::ThresholdPublicKey* key = nullptr;
  // The consortium's vocabulary file (a DP vocabulary's candidates).
  const lda::Vocabulary* consortium_vocabulary = nullptr;
  std::string consortium_vocabulary_sha256;
  RemoteCallStats last_iteration;
  const protocol::SecureDpSetup* dp = nullptr;  // DP training's, when the run has it
  int start = 1;                                // the run's current start
  int resumed_after_iteration = -1;             // the coordinator restarted after it
};

// Errors: the composed accountant's (protocol::ComposeRunAccountant).
absl::StatusOr<nlohmann::json> PublishedRunMetadata(const RunPublication& publication);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_RUN_PUBLICATION_H_
