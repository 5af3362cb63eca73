// RunManager: the coordinator daemon's run lifecycle, one run at a time:
// Start validates the parameters and starts the run on its own thread:
// Join (every party checks the vocabulary and reports its token total) ->
// the DP vocabulary, when asked -> plan (protocol/run_parameters.h) ->
// DriveRun (coordinator/run_driver.h: the same schedule as `pplda simulate`)
// over a RemotePartyGroup -> the model JSON (the same format as `pplda
// train`; its metadata from run_publication.h) written to
// STATE/runs/<run id>/model.json. What it keeps on disk is RunStore's
// (run_store.h); while a party is lost it waits, then resumes from the last
// saved boundary or starts over. Status reports the state, iteration,
// phase, rate, time left and which parties the run waits for; a failed run
// names the party and the reason. Cancel stops the run between steps and
// aborts the parties' current step.
// Thread-safety: all methods may be called from any thread.
#ifndef PPLDA_COORDINATOR_DAEMON_RUN_MANAGER_H_
#define PPLDA_COORDINATOR_DAEMON_RUN_MANAGER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "base/thread_pool.h"
#include "coordinator/daemon/coordinator_metrics.h"
#include "coordinator/daemon/remote_party_group.h"
#include "coordinator/daemon/run_context.h"
#include "coordinator/daemon/run_publication.h"
#include "coordinator/daemon/run_store.h"
#include "coordinator/lda_coordinator.h"
#include "coordinator/run_driver.h"
#include "crypto/paillier/paillier_threshold_key.h"
#include "lda/vocabulary.h"
#include "net/consortium_file.h"
#include "net/metrics_registry.h"
#include "net/tls_identity.h"
#include "proto/coordinator_service.pb.h"
#include "proto/run_state.pb.h"
#include "protocol/encrypted_counts.h"
#include "protocol/run_dp_budget.h"
#include "protocol/run_state_file.h"
#include "protocol/secure_lda_plan.h"

namespace pplda::coordinator {

struct RunManagerOptions {
  std::string name;  // the coordinator's participant name
  const net::Consortium* consortium = nullptr;
  const net::TlsIdentity* identity = nullptr;
  crypto::ThresholdPublicKeyPtr key;
  const lda::Vocabulary* vocabulary = nullptr;
  std::string vocabulary_sha256;
  std::filesystem::path state_dir;
  std::chrono::seconds call_timeout{3600};
  // How long a run waits for a lost party to come back (a restart) before
  // it fails; 0 = fail at once. After the run's first saved boundary it
  // resumes from the last one; before it, the run starts over from Join.
  std::chrono::seconds party_restart_wait{600};
  int threads = 0;
  net::MetricsRegistry* metrics = nullptr;  // required; outlives the manager
  // Relay mode: reaches the relay-mode parties (null when none is).
  net::RelayHub* relay = nullptr;
};

class RunManager {
 public:
  // InvalidArgument without a metrics registry or when registration fails.
  static absl::StatusOr<std::unique_ptr<RunManager>> Create(RunManagerOptions options);
  ~RunManager();  // cancels and joins a running run

  // FailedPrecondition while a run is active; InvalidArgument for bad
  // parameters (naming the field). Fills in the vocabulary hash.
  absl::StatusOr<std::string> Start(pplda::v1::RunParameters parameters);
  // run_id empty = the latest run. NotFound when there is none.
  absl::StatusOr<pplda::v1::RunStatus> Status(const std::string& run_id) const;
  // Blocks until the status changes from `seen` or `timeout` passes.
  absl::StatusOr<pplda::v1::RunStatus> WaitForChange(const std::string& run_id, uint64_t* version,
                                                     std::chrono::milliseconds timeout) const;
  // The published model JSON; FailedPrecondition before publication.
  absl::StatusOr<std::string> Result(const std::string& run_id) const;
  absl::Status Cancel(const std::string& run_id, const std::string& reason);
  // After a restart of the coordinator (docs/protocol.md, "Restarts"):
  // resumes the latest run left unfinished in STATE/runs/ (a run state
  // file, no model.json, no `ended` marker) from its last saved iteration
  // boundary, on its own thread, and returns its id. The parties, which
  // kept their sessions, answer a step they already completed with the
  // reply they gave (party/party_session.h). NotFound when there is none;
  // a state file that does not read is marked ended and its error
  // returned. A run that fails or is cancelled is marked ended.
  absl::StatusOr<std::string> ResumeUnfinished();
  // A run before its first saved boundary (Join, the DP vocabulary,
  // Prepare) cannot resume: after a lost party or a restart of this
  // coordinator it starts over from Join, under a new id at the parties
  // (RunStore::SessionId): their ledgers debit each start, and nothing of
  // an earlier start is reused.

  // The active run's id and its last saved boundary (-1: none yet), if a
  // run is active.
  std::optional<std::pair<std::string, int>> ActiveRun() const;

 private:
  explicit RunManager(RunManagerOptions options);
  // Runs `body`, then, while a party is lost, waits for it and resumes or
  // starts over (options_.party_restart_wait).
  void RunThread(std::string run_id, std::function<absl::Status()> body);
  // A run that failed or was cancelled for good: marked ended, the parties
  // told to drop it, the status and metrics updated.
  void EndFailed(const std::string& run_id, const absl::Status& status);
  // One start of a run from Join: the parties join, the DP vocabulary (when
  // asked) is selected, and the run is driven to publication.
  absl::Status Execute(const std::string& run_id, const pplda::v1::RunParameters& parameters);
  // The first party's seed that reports INSECURE deterministic randomness.
  std::optional<uint64_t> InsecureSeedOfParties(const std::string& run_id,
                                                const RemotePartyGroup& group) const;
  // The secure DP vocabulary; sets the context's vocabulary and tokens.
  absl::Status SelectDpVocabulary(RemotePartyGroup& group, RunContext* context);
  // From `state` (this coordinator's saved boundary). attempt 0: after this
  // coordinator restarted (the parties replay what they already did);
  // attempt >= 1: after a party restarted (every party rebuilds its session
  // at the boundary, RemotePartyGroup::Resume).
  absl::Status Resume(const std::string& run_id, const pplda::v1::CoordinatorRunState& state,
                      uint32_t attempt = 0);
  // After `failure` of a run: whether to wait for a restarted party (a
  // party that stopped answering after the run's first saved boundary,
  // options_.party_restart_wait not yet over, not cancelled).
  bool MayWaitForRestartedParty(const std::string& run_id, const absl::Status& failure,
                                std::chrono::steady_clock::time_point deadline) const;
  // After `failure` of a run: whether to start it over (a lost party
  // before its first saved boundary, the wait not over, not cancelled).
  bool MayStartOver(const std::string& run_id, const absl::Status& failure,
                    std::chrono::steady_clock::time_point deadline) const;
  // Shows the run waiting for the parties that are not back (`phase`; from
  // Join: at iteration 0) and pauses; Cancelled when cancelled meanwhile.
  absl::Status WaitForRestartedParty(const std::string& phase, bool from_join);
  // Shows the run waiting, pauses, records the next start and runs it from
  // Join.
  absl::Status StartOverAfterFailure(const std::string& run_id, const absl::Status& failure);
  // Shows the run waiting, pauses, and tries resumption `attempt`.
  absl::Status ResumeAfterPartyFailure(const std::string& run_id, const absl::Status& failure,
                                       uint32_t attempt);
  // After a restart of this coordinator, for the latest unfinished run
  // without a saved boundary: starts it over from Join, or ends it
  // (EndUnresumable) when it may not start again.
  absl::StatusOr<std::string> StartOverAfterRestart(const std::string& run_id);
  absl::StatusOr<std::string> EndUnresumable(const std::string& run_id, const std::string& reason);
  // From the plan to the published model; `resume` (may be null) restores
  // the fold and the schedule's position.
  absl::Status Drive(RunContext& context, std::shared_ptr<RemotePartyGroup> group,
                     const pplda::v1::CoordinatorRunState* resume, uint32_t attempt);
  // The selected vocabulary of a DP vocabulary run, the consortium's otherwise.
  const lda::Vocabulary& RunVocabulary(const RunContext& context) const;
  // Restores the coordinator's fold and the schedule's position from
  // `resume`; attempt >= 1 also rebuilds every party's session there.
  absl::Status RestoreBoundary(const RunContext& context,
                               const pplda::v1::CoordinatorRunState& resume, uint32_t attempt,
                               const protocol::SecureLdaPlan& plan, LdaCoordinator& coordinator,
                               RemotePartyGroup& group, RunDriverOptions* driver);
  // A step's metrics, status and log line (iteration_seconds: the
  // iterations' wall time so far, updated).
  void ReportStep(const std::string& run_id, const IterationReport& report,
                  const RemoteCallStats& calls, int iterations, double* iteration_seconds);
  // The run state saved at iteration boundary `b` (protocol/run_state_file.h).
  pplda::v1::CoordinatorRunState BoundaryState(const RunContext& context,
                                               const protocol::PlanDigest& plan_digest,
                                               const IterationBoundary& b,
                                               const protocol::EncryptedCounts& fold) const;
  // Writes the model, tells the parties the run is over, shows it published.
  absl::Status Publish(const std::string& run_id, const DrivenRun& run, RemotePartyGroup& group);
  // Caller holds mu_: a fresh status for `run_id`, marked active (an ended
  // run's thread is joined first).
  void BeginRunLocked(const std::string& run_id, const std::string& state, int iterations,
                      const std::string& phase);
  // The run's party group, also kept as group_ (Cancel and Status use it).
  std::shared_ptr<RemotePartyGroup> NewGroup(const std::string& run_id);
  // Loads an ended run's outcome (its model, or why it ended) as the latest.
  void RestoreEnded(const std::string& run_id);
  void Update(const std::function<void(pplda::v1::RunStatus&)>& change);
  absl::StatusOr<std::string> CheckRunId(const std::string& run_id) const;

  const RunManagerOptions options_;
  const RunStore store_;
  CoordinatorMetrics metrics_;
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  pplda::v1::RunStatus status_;
  uint64_t version_ = 0;
  bool active_ = false;
  std::string model_json_;
  std::atomic<bool> cancelled_{false};
  std::string cancel_reason_;  // guarded by mu_
  std::shared_ptr<RemotePartyGroup> group_;  // of the active run
  std::thread thread_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_RUN_MANAGER_H_
