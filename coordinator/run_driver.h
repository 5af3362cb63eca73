// DriveRun: THE schedule of a secure LDA run (DESIGN.md section 4), the one
// copy shared by `pplda simulate` (in-process parties, simulation/) and the
// coordinator daemon (remote parties): initial counts -> fold; per
// iteration relay the previous updates -> every party's iteration -> fold;
// publication: relay the last updates, parties confirm the fold, the
// Paillier threshold's worth of parties (the lowest ids) decrypt with
// proofs, the coordinator verifies and combines.
// Progress: on_step after initialisation (iteration 0), each iteration, and
// publication (-1). cancelled, when set and true between steps, stops the
// run with Cancelled.
// Errors: the parties' and the coordinator's, passed through.
#ifndef PPLDA_COORDINATOR_RUN_DRIVER_H_
#define PPLDA_COORDINATOR_RUN_DRIVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/lda_coordinator.h"
#include "coordinator/party_group.h"
#include "lda/lda_model.h"
#include "lda/vocabulary.h"

namespace pplda::coordinator {

struct IterationReport {
  int iteration = 0;              // 0 = initialisation, -1 = publication
  double seconds = 0;             // wall time of this step
  protocol::PartyPhaseTimes phases;  // party 0's phases in this iteration
  double aggregation = 0;         // coordinator's folding time
};

// The run at an iteration boundary, as the coordinator holds it: after the
// initial counts (iteration 0) and after each iteration, every party's
// updates of that step (folded by the coordinator, to be relayed next) and
// the coordinator's hash chain over every update folded so far.
struct IterationBoundary {
  int iteration = 0;
  const std::vector<protocol::CountUpdate>* updates = nullptr;
  const protocol::CountsDigest* digest = nullptr;
};

struct RunDriverOptions {
  int iterations = 10;
  std::function<void(const IterationReport&)> on_step;  // may be empty
  // May be empty; called at every iteration boundary, before on_step. An
  // error ends the run with it (the daemon persists its run state here).
  std::function<absl::Status(const IterationBoundary&)> on_boundary;
  const std::atomic<bool>* cancelled = nullptr;         // may be null
  // Resuming a run (the coordinator restarted): the coordinator's fold is
  // already restored to the boundary after `resume_iteration` iterations
  // and `resume_updates` are every party's updates of it, to relay next.
  // The schedule goes on from iteration resume_iteration + 1 (publication
  // when that is past the last); on_boundary is not called for the restored
  // boundary. -1 = a new run.
  int resume_iteration = -1;
  std::vector<protocol::CountUpdate> resume_updates;
};

struct RunStats {
  double init_seconds = 0, iteration_seconds = 0, publication_seconds = 0;
  protocol::PartyPhaseTimes phases;  // party 0, summed over iterations
  double aggregation_seconds = 0;
  // Ciphertext bytes the coordinator received and relayed (updates in,
  // DP noise included, every update relayed to every compute party, the
  // draw matrix to every data holder, decryption shares in).
  uint64_t coordinator_bytes = 0;
};

struct DrivenRun {
  lda::LdaModel model;  // published counts; alpha, beta the effective ones
  RunStats stats;
  // The agreed fold the parties decrypted (the hash chain over every update;
  // each party logs the one it confirmed).
  protocol::CountsDigest decrypted_digest{};
};

absl::StatusOr<DrivenRun> DriveRun(LdaCoordinator& coordinator, PartyGroup& parties,
                                   const lda::Vocabulary& vocabulary,
                                   const RunDriverOptions& options);

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_RUN_DRIVER_H_
