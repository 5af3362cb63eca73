#include "coordinator/daemon/run_manager.h"

#include <sodium.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/atomic_file.h"
#include "base/status_macros.h"
#include "coordinator/consortium_policy.h"
#include "coordinator/lda_coordinator.h"
#include "coordinator/run_driver.h"
#include "crypto/mpc_config.h"
#include "crypto/paillier_serialization.h"
#include "lda/model_file.h"
#include "lda/text_file.h"
#include "party/party_session.h"
#include "party/protocol_wire.h"
#include "party/run_dp_budget.h"
#include "party/run_state_file.h"
#include "party/secure_dp_noise.h"
#include "party/secure_lda_plan.h"
#include "party/two_holder_disclosure.h"
#include "privacy/dp_training.h"
#include "privacy/dp_vocabulary.h"
#include "privacy/privacy_unit.h"
#include "spdlog/spdlog.h"

namespace pplda::coordinator {
namespace {

std::string NewRunId() {
  uint8_t bytes[3];
  randombytes_buf(bytes, sizeof(bytes));
  char hex[7];
  sodium_bin2hex(hex, sizeof(hex), bytes, sizeof(bytes));
  return absl::StrCat("run-", absl::FormatTime("%Y%m%d-%H%M%S", absl::Now(), absl::UTCTimeZone()),
                      "-", hex);
}

absl::Status CheckParameters(const pplda::v1::RunParameters& p) {
  if (p.num_topics() < 1 || p.num_topics() > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("topics: ", p.num_topics(),
                                                   " is outside [1, 65535]"));
  }
  if (!std::isfinite(p.alpha()) || p.alpha() <= 0 || p.alpha() > 1e6) {
    return absl::InvalidArgumentError(absl::StrCat("alpha: ", p.alpha(), " is not in (0, 1e6]"));
  }
  if (!std::isfinite(p.beta()) || p.beta() <= 0 || p.beta() > 1e6) {
    return absl::InvalidArgumentError(absl::StrCat("beta: ", p.beta(), " is not in (0, 1e6]"));
  }
  if (p.iterations() > 1000000) {
    return absl::InvalidArgumentError(absl::StrCat("iterations: ", p.iterations(),
                                                   " is above 1000000"));
  }
  if (absl::Status method = crypto::DrawMethodFromName(p.draw_method()).status(); !method.ok()) {
    return absl::InvalidArgumentError("draw: " + std::string(method.message()));
  }
  if (const std::optional<privacy::DpCountOptions> dp = party::DpOptionsFromParameters(p)) {
    RETURN_IF_ERROR(privacy::ValidateDpCountOptions(*dp, static_cast<int>(p.iterations())));
  }
  return absl::OkStatus();
}

// In STATE/runs/<run>/: the run's parameters as started, and the number
// of its current start (absent: the first).
constexpr char kParametersFile[] = "parameters.pb";
constexpr char kStartFile[] = "start";
// How many of a run's starts may get past Join (each may debit the data
// holders' privacy ledgers at its DP vocabulary or Prepare): a run that
// keeps losing a participant after Join, or a coordinator that keeps
// crashing there, stops starting over.
constexpr int kMaxJoinedStarts = 3;
constexpr char kJoinedStartsFile[] = "joined-starts";

}  // namespace

std::string RunManager::SessionId(const std::string& run_id, int start) {
  return start <= 1 ? run_id : absl::StrCat(run_id, ".start", start);
}

// A small counter file of the run (absent or unreadable: `fallback`).
int RunManager::ReadRunCounter(const std::string& run_id, const char* file, int fallback) const {
  absl::StatusOr<std::string> text =
      lda::ReadFileBytes((options_.state_dir / "runs" / run_id / file).string(), 64);
  int value = 0;
  if (text.ok() && absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &value) &&
      value >= fallback) {
    return value;
  }
  return fallback;
}

int RunManager::CurrentStart(const std::string& run_id) const {
  return ReadRunCounter(run_id, kStartFile, 1);
}

int RunManager::JoinedStarts(const std::string& run_id) const {
  return ReadRunCounter(run_id, kJoinedStartsFile, 0);
}

bool RunManager::MayStartAgain(const std::string& run_id) const {
  if (JoinedStarts(run_id) < kMaxJoinedStarts) return true;
  spdlog::error(
      "run {}: not started over: {} of its starts got past Join already (at most {}; "
      "each may debit the data holders' privacy ledgers)",
      run_id, JoinedStarts(run_id), kMaxJoinedStarts);
  return false;
}

std::string RunManager::CurrentSession(const std::string& run_id) const {
  return SessionId(run_id, CurrentStart(run_id));
}

absl::StatusOr<pplda::v1::RunParameters> RunManager::StartParameters(
    const std::string& run_id) const {
  const std::filesystem::path path = options_.state_dir / "runs" / run_id / kParametersFile;
  ASSIGN_OR_RETURN(const std::string bytes, lda::ReadFileBytes(path.string(), int64_t{1} << 20));
  pplda::v1::RunParameters parameters;
  if (!parameters.ParseFromString(bytes)) {
    return absl::DataLossError(absl::StrCat(path.string(), " does not hold run parameters"));
  }
  return parameters;
}

absl::StatusOr<CoordinatorMetrics> CoordinatorMetrics::Register(net::MetricsRegistry& r) {
  CoordinatorMetrics m;
  ASSIGN_OR_RETURN(m.runs_started, r.AddCounter("pplda_coordinator_runs_total", "Runs by outcome",
                                                {{"outcome", "started"}}));
  ASSIGN_OR_RETURN(m.runs_published, r.AddCounter("pplda_coordinator_runs_total",
                                                  "Runs by outcome", {{"outcome", "published"}}));
  ASSIGN_OR_RETURN(m.runs_failed, r.AddCounter("pplda_coordinator_runs_total", "Runs by outcome",
                                               {{"outcome", "failed"}}));
  ASSIGN_OR_RETURN(m.iterations, r.AddCounter("pplda_coordinator_iterations_total",
                                              "Iterations completed by the consortium"));
  ASSIGN_OR_RETURN(m.coordinator_bytes,
                   r.AddCounter("pplda_coordinator_ciphertext_bytes_total",
                                "Ciphertext bytes received and relayed by the coordinator"));
  ASSIGN_OR_RETURN(m.iteration, r.AddGauge("pplda_coordinator_iteration",
                                           "Last completed iteration of the active run"));
  ASSIGN_OR_RETURN(m.seconds_per_iteration,
                   r.AddGauge("pplda_coordinator_seconds_per_iteration",
                              "Mean seconds per iteration of the active run"));
  ASSIGN_OR_RETURN(m.mpc_bytes_per_iteration,
                   r.AddGauge("pplda_coordinator_mpc_bytes_per_iteration",
                              "MPC payload bytes party 0 sent in the last iteration"));
  ASSIGN_OR_RETURN(m.mpc_rounds_per_iteration,
                   r.AddGauge("pplda_coordinator_mpc_rounds_per_iteration",
                              "MPC rounds of the last iteration"));
  for (const char* phase : {"selection", "exchange", "conversion", "weights", "draw", "update",
                            "fold"}) {
    ASSIGN_OR_RETURN(m.phase_seconds[phase],
                     r.AddCounter("pplda_coordinator_phase_seconds_total",
                                  "Seconds per protocol phase (party 0's; fold: the coordinator's)",
                                  {{"phase", phase}}));
  }
  return m;
}

RunManager::RunManager(RunManagerOptions options) : options_(std::move(options)) {}

absl::StatusOr<std::unique_ptr<RunManager>> RunManager::Create(RunManagerOptions options) {
  if (options.metrics == nullptr) {
    return absl::InvalidArgumentError("run manager: no metrics registry");
  }
  auto manager = std::unique_ptr<RunManager>(new RunManager(std::move(options)));
  ASSIGN_OR_RETURN(manager->metrics_, CoordinatorMetrics::Register(*manager->options_.metrics));
  return manager;
}

RunManager::~RunManager() {
  cancelled_ = true;
  std::shared_ptr<RemotePartyGroup> group;
  {
    std::lock_guard<std::mutex> lock(mu_);
    group = group_;
  }
  if (group) group->Abort("the coordinator is shutting down");
  if (thread_.joinable()) thread_.join();
}

absl::StatusOr<std::string> RunManager::Start(pplda::v1::RunParameters parameters) {
  RETURN_IF_ERROR(CheckParameters(parameters));
  // The DP vocabulary's split of the budget, and what it leaves training.
  const int n = static_cast<int>(options_.consortium->compute_parties().size());
  ASSIGN_OR_RETURN(const std::optional<party::RunDpVocabulary> dp_vocabulary,
                   party::DpVocabularyFromParameters(parameters, n, options_.vocabulary->size()));
  if (dp_vocabulary.has_value()) {
    RETURN_IF_ERROR(
        privacy::ValidateDpCountOptions(*party::TrainingDpOptions(parameters, dp_vocabulary),
                                        static_cast<int>(parameters.iterations())));
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (active_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", status_.run_id(), " is ", status_.state(), "; cancel it or wait for it to end"));
  }
  parameters.set_vocabulary_sha256(options_.vocabulary_sha256);
  const std::string run_id = NewRunId();
  BeginRunLocked(run_id, "joining", static_cast<int>(parameters.iterations()),
                 "asking every party to join");
  metrics_.runs_started->Increment();
  // The run's folder exists from its start, so that a restarted
  // coordinator knows of it (ResumeUnfinished).
  std::error_code ec;
  std::filesystem::create_directories(options_.state_dir / "runs" / run_id, ec);
  if (ec) {
    active_ = false;
    return absl::PermissionDeniedError(absl::StrCat(
        "cannot create ", (options_.state_dir / "runs" / run_id).string(), ": ", ec.message()));
  }
  // What a start over needs (StartOverAfterFailure, ResumeUnfinished).
  if (absl::Status saved = WriteFileAtomically(
          options_.state_dir / "runs" / run_id / kParametersFile, parameters.SerializeAsString());
      !saved.ok()) {
    active_ = false;
    return saved;
  }
  thread_ = std::thread(
      &RunManager::RunThread, this, run_id,
      [this, run_id, parameters = std::move(parameters)] {
        spdlog::info("run {}: started (K = {}, {} iterations)", run_id, parameters.num_topics(),
                     parameters.iterations());
        return Execute(run_id, parameters);
      });
  changed_.notify_all();
  return run_id;
}

void RunManager::BeginRunLocked(const std::string& run_id, const std::string& state, int iterations,
                                const std::string& phase) {
  if (thread_.joinable()) thread_.join();
  status_ = pplda::v1::RunStatus();
  status_.set_run_id(run_id);
  status_.set_state(state);
  status_.set_iterations(static_cast<int32_t>(iterations));
  status_.set_phase(phase);
  ++version_;
  active_ = true;
  cancelled_ = false;
  cancel_reason_.clear();
  model_json_.clear();
  started_ = std::chrono::steady_clock::now();
}

std::shared_ptr<RemotePartyGroup> RunManager::NewGroup(const std::string& run_id) {
  auto group = std::make_shared<RemotePartyGroup>(options_.name, run_id, *options_.consortium,
                                                  *options_.identity, options_.key,
                                                  options_.call_timeout, options_.relay);
  std::lock_guard<std::mutex> lock(mu_);
  group_ = group;
  return group;
}

void RunManager::MarkEnded(const std::string& run_id, const std::string& reason) {
  // A run that ended without a model is never resumed (ResumeUnfinished).
  const std::filesystem::path dir = options_.state_dir / "runs" / run_id;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return;
  const absl::Status written = WriteFileAtomically(dir / "ended", reason + "\n");
  if (!written.ok()) spdlog::warn("run {}: {}", run_id, written.ToString());
}

std::optional<std::pair<std::string, int>> RunManager::ActiveRun() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!active_) return std::nullopt;
  return std::make_pair(status_.run_id(), status_.iteration());
}

void RunManager::RestoreEnded(const std::string& run_id) {
  const std::filesystem::path dir = options_.state_dir / "runs" / run_id;
  std::lock_guard<std::mutex> lock(mu_);
  if (active_) return;
  status_ = pplda::v1::RunStatus();
  status_.set_run_id(run_id);
  if (std::filesystem::exists(dir / "model.json")) {
    absl::StatusOr<std::string> model =
        lda::ReadFileBytes((dir / "model.json").string(), int64_t{1} << 32);
    if (!model.ok()) return;
    model_json_ = *std::move(model);
    status_.set_state("published");
  } else {
    absl::StatusOr<std::string> reason =
        lda::ReadFileBytes((dir / "ended").string(), int64_t{1} << 20);
    status_.set_state("failed");
    status_.set_error(reason.ok() ? std::string(absl::StripTrailingAsciiWhitespace(*reason))
                                  : std::string("ended"));
  }
  ++version_;
}

absl::StatusOr<std::string> RunManager::ResumeUnfinished() {
  // The latest run (run ids sort by start time) with a state file, no
  // model and no `ended` marker.
  const std::filesystem::path runs = options_.state_dir / "runs";
  std::error_code ec;
  std::vector<std::string> unfinished;
  std::string newest;
  if (std::filesystem::is_directory(runs, ec)) {
    for (const auto& entry : std::filesystem::directory_iterator(runs, ec)) {
      const std::filesystem::path dir = entry.path();
      if (!entry.is_directory()) continue;
      newest = std::max(newest, dir.filename().string());
      if (std::filesystem::exists(dir / "model.json") || std::filesystem::exists(dir / "ended")) {
        continue;
      }
      unfinished.push_back(dir.filename().string());
    }
  }
  std::sort(unfinished.begin(), unfinished.end());
  if (unfinished.empty() || unfinished.back() != newest) {
    for (const std::string& run : unfinished) MarkEnded(run, "superseded by a later run");
    // The latest run ended before the restart: `pplda run status|result`
    // still answer for it.
    if (!newest.empty()) RestoreEnded(newest);
    return absl::NotFoundError("no unfinished run");
  }
  const std::string latest = unfinished.back();
  for (size_t i = 0; i + 1 < unfinished.size(); ++i) {
    MarkEnded(unfinished[i], "superseded by a later run");
  }
  const std::filesystem::path path = party::RunStatePath(options_.state_dir, latest);
  if (!std::filesystem::exists(path)) {
    // Stopped before its first boundary (Join, the DP vocabulary or
    // Prepare): nothing to resume from, so the run starts over from Join
    // under its next start's id (the parties drop the old one at its Join).
    absl::StatusOr<pplda::v1::RunParameters> parameters = StartParameters(latest);
    if (parameters.ok() && options_.party_restart_wait.count() > 0 && MayStartAgain(latest)) {
      const int start = CurrentStart(latest) + 1;
      std::lock_guard<std::mutex> lock(mu_);
      if (active_) return absl::FailedPreconditionError("a run is active");
      RETURN_IF_ERROR(WriteFileAtomically(options_.state_dir / "runs" / latest / kStartFile,
                                          absl::StrCat(start, "\n")));
      BeginRunLocked(latest, "joining", static_cast<int>(parameters->iterations()),
                     absl::StrCat("the coordinator restarted before the run's first saved "
                                  "boundary: the run starts over from Join (start ",
                                  start, ")"));
      thread_ = std::thread(
          &RunManager::RunThread, this, latest,
          [this, latest, parameters = *std::move(parameters), start] {
            spdlog::warn(
                "run {}: starting over from Join (start {}, as {}): the "
                "coordinator restarted before its first saved boundary",
                latest, start, SessionId(latest, start));
            return Execute(latest, parameters);
          });
      changed_.notify_all();
      return latest;
    }
    // A run without its parameters (started by an older version), no wait
    // for restarts, or too many starts past Join: it ends. The parties are told to drop it, so that
    // they accept the next run.
    const std::string reason =
        "the coordinator restarted before the run's first saved iteration boundary";
    RemotePartyGroup(options_.name, CurrentSession(latest), *options_.consortium,
                     *options_.identity, options_.key, options_.call_timeout, options_.relay)
        .Abort(reason);
    MarkEnded(latest, reason);
    std::lock_guard<std::mutex> lock(mu_);
    status_ = pplda::v1::RunStatus();
    status_.set_run_id(latest);
    status_.set_state("failed");
    status_.set_error(reason);
    ++version_;
    return absl::FailedPreconditionError(absl::StrCat("run ", latest, ": ", reason));
  }
  absl::StatusOr<pplda::v1::CoordinatorRunState> state =
      party::ReadCoordinatorRunState(path, CurrentSession(latest), options_.name);
  if (!state.ok()) {
    MarkEnded(latest, absl::StrCat("not resumable: ", state.status().message()));
    return state.status();
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (active_) return absl::FailedPreconditionError("a run is active");
  BeginRunLocked(latest, "resuming", static_cast<int>(state->parameters().iterations()),
                 absl::StrCat("the coordinator restarted: resuming after iteration ",
                              state->header().iteration(), " (its last saved boundary)"));
  status_.set_iteration(state->header().iteration());
  thread_ = std::thread(
      &RunManager::RunThread, this, latest,
      [this, latest, state = *std::move(state)] {
        spdlog::warn(
            "run {}: resuming after iteration {} (the coordinator "
            "restarted)",
            latest, state.header().iteration());
        return Resume(latest, state);
      });
  changed_.notify_all();
  return latest;
}

void RunManager::Update(const std::function<void(pplda::v1::RunStatus&)>& change) {
  std::lock_guard<std::mutex> lock(mu_);
  change(status_);
  ++version_;
  changed_.notify_all();
}

bool RunManager::MayWaitForRestartedParty(const std::string& run_id, const absl::Status& failure,
                                          std::chrono::steady_clock::time_point deadline) const {
  if (cancelled_) return false;
  if (std::chrono::steady_clock::now() >= deadline) return false;
  const bool lost = failure.code() == absl::StatusCode::kUnavailable ||
                    failure.code() == absl::StatusCode::kDeadlineExceeded ||
                    failure.code() == absl::StatusCode::kAborted;
  // A party that restarted while this coordinator was down too has no
  // session of the run ("has not joined run"): it rebuilds from its state
  // file at Resume like any restarted party. (NotFound from Resume itself,
  // a party without that state, ends the run.)
  const bool restarted = failure.code() == absl::StatusCode::kNotFound &&
                         absl::StrContains(failure.message(), "has not joined run");
  if (!lost && !restarted) return false;
  // Only from a saved boundary: before it there is nothing to resume from.
  return party::ReadCoordinatorRunState(party::RunStatePath(options_.state_dir, run_id),
                                        CurrentSession(run_id), options_.name)
      .ok();
}

int RunManager::SavedBoundary(const std::string& run_id) const {
  absl::StatusOr<pplda::v1::CoordinatorRunState> state = party::ReadCoordinatorRunState(
      party::RunStatePath(options_.state_dir, run_id), CurrentSession(run_id), options_.name);
  return state.ok() ? state->header().iteration() : -1;
}

bool RunManager::MayStartOver(const std::string& run_id, const absl::Status& failure,
                              std::chrono::steady_clock::time_point deadline) const {
  if (cancelled_ || std::chrono::steady_clock::now() >= deadline) return false;
  switch (failure.code()) {
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kDeadlineExceeded:
    case absl::StatusCode::kAborted:
      break;
    default:
      return false;
  }
  {
    // A lost party, not a refusal: a step failed because a party could not
    // be reached.
    std::lock_guard<std::mutex> lock(mu_);
    if (group_ == nullptr || group_->not_back().empty()) return false;
  }
  return !std::filesystem::exists(party::RunStatePath(options_.state_dir, run_id)) &&
         StartParameters(run_id).ok() && MayStartAgain(run_id);
}

absl::Status RunManager::StartOverAfterFailure(const std::string& run_id,
                                               const absl::Status& failure) {
  ASSIGN_OR_RETURN(const pplda::v1::RunParameters parameters, StartParameters(run_id));
  std::vector<std::string> not_back;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (group_ != nullptr) not_back = group_->not_back();
  }
  const int start = CurrentStart(run_id) + 1;
  spdlog::warn(
      "run {}: a party was lost before the run's first saved boundary; starting over "
      "from Join (start {}) once every party answers: {}",
      run_id, start, std::string(failure.message()));
  Update([&](pplda::v1::RunStatus& s) {
    s.set_state("waiting");
    s.set_iteration(0);
    s.set_phase(
        absl::StrCat("for a restarted party: the run had not reached its first saved "
                     "boundary, so it starts over from Join (start ",
                     start, ", at most ", options_.party_restart_wait.count(),
                     " s in all); the last failure: ", failure.message()));
    s.clear_waiting_for();
    for (const std::string& name : not_back) s.add_waiting_for(name);
  });
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(2), [&] { return cancelled_.load(); });
  }
  if (cancelled_) return absl::CancelledError("cancelled while waiting for a restarted party");
  RETURN_IF_ERROR(WriteFileAtomically(options_.state_dir / "runs" / run_id / kStartFile,
                                      absl::StrCat(start, "\n")));
  Update([&](pplda::v1::RunStatus& s) {
    s.set_state("joining");
    s.set_phase(absl::StrCat("asking every party to join (start ", start, ")"));
    s.clear_waiting_for();
  });
  return Execute(run_id, parameters);
}

absl::Status RunManager::ResumeAfterPartyFailure(const std::string& run_id,
                                                 const absl::Status& failure, uint32_t attempt) {
  ASSIGN_OR_RETURN(pplda::v1::CoordinatorRunState state,
                   party::ReadCoordinatorRunState(party::RunStatePath(options_.state_dir, run_id),
                                                  CurrentSession(run_id), options_.name));
  std::vector<std::string> not_back;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (group_ != nullptr) not_back = group_->not_back();
  }
  const int iteration = state.header().iteration();
  spdlog::warn(
      "run {}: waiting for the parties to answer, to resume after iteration {} "
      "(attempt {}): {}",
      run_id, iteration, attempt, std::string(failure.message()));
  Update([&](pplda::v1::RunStatus& s) {
    s.set_state("waiting");
    s.set_phase(absl::StrCat("for a restarted party: the run resumes after iteration ", iteration,
                             " once every party answers (attempt ", attempt, ", at most ",
                             options_.party_restart_wait.count(),
                             " s in all); the last failure: ", failure.message()));
    s.clear_waiting_for();
    for (const std::string& name : not_back) s.add_waiting_for(name);
  });
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(2), [&] { return cancelled_.load(); });
  }
  if (cancelled_) return absl::CancelledError("cancelled while waiting for a restarted party");
  return Resume(run_id, state, attempt);
}

void RunManager::RunThread(std::string run_id, std::function<absl::Status()> body) {
  absl::Status status = body();
  // Resumptions are numbered from this process's start in seconds since
  // the epoch (below 2^31 until 2038), one more per attempt: attempts are
  // at least 2 s apart, so a later coordinator process never reuses a
  // number (the parties refuse one that is not above the last they took,
  // and it names the attempt's links).
  auto attempt = static_cast<uint32_t>(
      std::max<int64_t>(1, std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                                   .count() &
                               0x7fffffff));
  auto deadline = std::chrono::steady_clock::now() + options_.party_restart_wait;
  while (!status.ok()) {
    const int boundary_before = SavedBoundary(run_id);
    if (MayWaitForRestartedParty(run_id, status, deadline)) {
      status = ResumeAfterPartyFailure(run_id, status, attempt++);
    } else if (MayStartOver(run_id, status, deadline)) {
      status = StartOverAfterFailure(run_id, status);
    } else {
      break;
    }
    if (SavedBoundary(run_id) > boundary_before) {
      // The run got past a new boundary: a later loss gets a wait of its
      // own. A failure that comes back at the same boundary (not a lost
      // party after all) runs out of the wait instead of looping forever.
      deadline = std::chrono::steady_clock::now() + options_.party_restart_wait;
    }
  }
  if (!status.ok()) {
    MarkEnded(run_id, std::string(status.message()));
    // A failure of the coordinator's own after Join (a refused policy, a plan
    // it cannot build) would otherwise leave every party joined to a dead
    // run, refusing the next one; parties already out of it ignore this.
    std::shared_ptr<RemotePartyGroup> group;
    {
      std::lock_guard<std::mutex> lock(mu_);
      group = group_;
    }
    if (group != nullptr) group->Abort(absl::StrCat("the run failed: ", status.message()));
    const bool cancelled = status.code() == absl::StatusCode::kCancelled || cancelled_;
    spdlog::error("run {}: {}: {}", run_id, cancelled ? "cancelled" : "failed", status.ToString());
    metrics_.runs_failed->Increment();
    Update([&](pplda::v1::RunStatus& s) {
      s.set_state(cancelled ? "cancelled" : "failed");
      s.set_error(cancelled && !cancel_reason_.empty()
                      ? absl::StrCat("cancelled: ", cancel_reason_, " (", status.message(), ")")
                      : std::string(status.message()));
      s.set_phase("");
      s.clear_waiting_for();
    });
  }
  std::lock_guard<std::mutex> lock(mu_);
  active_ = false;
  group_.reset();
  ++version_;
  changed_.notify_all();
}

absl::Status RunManager::Execute(const std::string& run_id,
                                 const pplda::v1::RunParameters& parameters) {
  const std::string session_id = CurrentSession(run_id);
  std::shared_ptr<RemotePartyGroup> group = NewGroup(session_id);
  ASSIGN_OR_RETURN(std::vector<int64_t> tokens, group->Join(parameters));
  RETURN_IF_ERROR(WriteFileAtomically(options_.state_dir / "runs" / run_id / kJoinedStartsFile,
                                      absl::StrCat(JoinedStarts(run_id) + 1, "\n")));
  const int n = group->num_parties();
  RETURN_IF_ERROR(party::CheckTwoHolderDisclosure(
      party::DataHolders(tokens), party::DpOptionsFromParameters(parameters).has_value(),
      parameters.accept_two_holder_disclosure(),
      "pplda run start --accept-two-holder-disclosure (and accept_two_holder_disclosure = true "
      "in each data holder's party.toml)"));
  // A party with INSECURE deterministic randomness (tests only) makes the
  // model say so (the first such party's seed).
  std::optional<uint64_t> insecure_deterministic_rng_seed;
  for (int p = 0; p < n; ++p) {
    const std::optional<uint64_t>& seed = group->insecure_deterministic_rng_seeds()[p];
    if (!seed.has_value()) continue;
    spdlog::warn("run {}: party {} reports INSECURE deterministic randomness (seed {}; testing "
                 "only): the published model will say so",
                 run_id, options_.consortium->compute_parties()[p].name, *seed);
    if (!insecure_deterministic_rng_seed.has_value()) insecure_deterministic_rng_seed = seed;
  }
  ThreadPool pool(options_.threads);
  // The secure DP vocabulary: the consortium file is then the public
  // candidate list, and the run's vocabulary the selected terms.
  ASSIGN_OR_RETURN(std::optional<party::RunDpVocabulary> dp_vocabulary,
                   party::DpVocabularyFromParameters(parameters, n, options_.vocabulary->size()));
  const lda::Vocabulary* vocabulary = options_.vocabulary;
  std::string vocabulary_sha256 = options_.vocabulary_sha256;
  pplda::v1::RunParameters run_parameters = parameters;
  std::optional<SelectedDpVocabulary> selection;
  if (dp_vocabulary.has_value()) {
    Update([&](pplda::v1::RunStatus& s) {
      s.set_state("selecting vocabulary");
      s.set_phase(absl::StrCat("parties select the vocabulary by a DP set union over ",
                               options_.vocabulary->size(), " public candidates"));
    });
    ASSIGN_OR_RETURN(selection,
                     group->SelectDpVocabulary(dp_vocabulary->plan, *options_.vocabulary, &pool));
    tokens = selection->tokens;
    vocabulary = &selection->vocabulary;
    vocabulary_sha256 = party::VocabularySha256(selection->vocabulary);
    run_parameters.set_vocabulary_sha256(vocabulary_sha256);
    // Its cost on the wire: 3 calls to every party and 1 MPC round among
    // them; the ciphertext bytes the coordinator received and relayed.
    spdlog::info(
        "run {}: DP vocabulary: {} of {} candidates selected in {:.1f} s (3 calls, 1 "
        "MPC round, {:.2f} MB of ciphertexts through the coordinator)",
        run_id, vocabulary->size(), options_.vocabulary->size(), selection->seconds,
        selection->coordinator_bytes / 1e6);
    metrics_.coordinator_bytes->Increment(static_cast<double>(selection->coordinator_bytes));
  }
  RunContext context;
  context.run_id = run_id;
  context.session_id = session_id;
  context.parameters = parameters;
  context.run_parameters = run_parameters;
  context.tokens = tokens;
  context.dp_vocabulary = std::move(dp_vocabulary);
  if (selection.has_value()) context.selected_vocabulary = std::move(selection->vocabulary);
  context.insecure_deterministic_rng_seed = insecure_deterministic_rng_seed;
  return Drive(context, group, nullptr, 0);
}

absl::Status RunManager::Resume(const std::string& run_id,
                                const pplda::v1::CoordinatorRunState& state, uint32_t attempt) {
  RunContext context;
  context.run_id = run_id;
  context.session_id = state.header().run_id();  // the current start's (checked when read)
  context.run_parameters = state.parameters();
  context.parameters = state.parameters();
  // The parameters as started: the vocabulary hash is the consortium file's
  // (the candidates' in a DP vocabulary run).
  context.parameters.set_vocabulary_sha256(options_.vocabulary_sha256);
  const int n = static_cast<int>(options_.consortium->compute_parties().size());
  if (state.parties_size() != n || state.tokens_per_party_size() != n) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id, ": its state names ",
                                                      state.parties_size(),
                                                      " parties, the consortium has ", n));
  }
  for (int p = 0; p < n; ++p) {
    if (state.parties(p) != options_.consortium->compute_parties()[p].name) {
      return absl::FailedPreconditionError(
          absl::StrCat("run ", run_id, ": compute party ", p, " was ", state.parties(p), ", now ",
                       options_.consortium->compute_parties()[p].name));
    }
    context.tokens.push_back(static_cast<int64_t>(state.tokens_per_party(p)));
  }
  ASSIGN_OR_RETURN(context.dp_vocabulary, party::DpVocabularyFromParameters(
                                              context.parameters, n, options_.vocabulary->size()));
  if (state.vocabulary_size() > 0) {
    lda::Vocabulary selected;
    for (const std::string& term : state.vocabulary()) selected.Add(term);
    context.selected_vocabulary = std::move(selected);
  }
  const std::string expected_sha = context.selected_vocabulary.has_value()
                                       ? party::VocabularySha256(*context.selected_vocabulary)
                                       : options_.vocabulary_sha256;
  if (context.run_parameters.vocabulary_sha256() != expected_sha) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run_id, ": its vocabulary (SHA-256 ", context.run_parameters.vocabulary_sha256(),
        ") is not the one this coordinator holds (", expected_sha, ")"));
  }
  if (state.has_insecure_deterministic_rng_seed()) {
    context.insecure_deterministic_rng_seed = state.insecure_deterministic_rng_seed();
  }
  std::shared_ptr<RemotePartyGroup> group = NewGroup(context.session_id);
  return Drive(context, group, &state, attempt);
}

absl::Status RunManager::Drive(RunContext& context, std::shared_ptr<RemotePartyGroup> group,
                               const pplda::v1::CoordinatorRunState* resume, uint32_t attempt) {
  const std::string& run_id = context.run_id;
  // The parties know this start of the run by its session id: the protocol
  // (plan digest, updates, state header) uses it; files and status, run_id.
  const std::string& session_id = context.session_id;
  const pplda::v1::RunParameters& parameters = context.parameters;
  const pplda::v1::RunParameters& run_parameters = context.run_parameters;
  const std::vector<int64_t>& tokens = context.tokens;
  const std::optional<party::RunDpVocabulary>& dp_vocabulary = context.dp_vocabulary;
  const lda::Vocabulary* vocabulary =
      context.selected_vocabulary.has_value() ? &*context.selected_vocabulary : options_.vocabulary;
  const std::string vocabulary_sha256 = run_parameters.vocabulary_sha256();
  const std::optional<uint64_t>& insecure_deterministic_rng_seed =
      context.insecure_deterministic_rng_seed;
  const bool selected_by_dp = context.selected_vocabulary.has_value();
  const int n = group->num_parties();
  ThreadPool pool(options_.threads);
  if (resume == nullptr) {
    Update([&](pplda::v1::RunStatus& s) {
      s.set_state("preparing");
      s.set_phase("parties encrypt their initial counts");
    });
  }
  party::SecureLdaOptions lda;
  lda.num_topics = static_cast<int>(parameters.num_topics());
  lda.alpha = parameters.alpha();
  lda.beta = parameters.beta();
  ASSIGN_OR_RETURN(lda.draw_method, crypto::DrawMethodFromName(parameters.draw_method()));
  lda.verify_conversion = parameters.verify_conversion();
  // DP training gets what the vocabulary left of the run's budget.
  const std::optional<privacy::DpCountOptions> dp =
      party::TrainingDpOptions(parameters, dp_vocabulary);
  std::optional<party::SecureDpSetup> dp_setup;
  if (dp.has_value()) {
    // The parties derive the same (party/party_session.cc).
    ASSIGN_OR_RETURN(dp_setup,
                     party::SetUpSecureDp(*dp, static_cast<int>(parameters.iterations()), n,
                                          MpcThreshold(n), vocabulary->size(), lda.num_topics));
    lda.dp = dp_setup->noise;
  }
  ASSIGN_OR_RETURN(crypto::MpcConfig config, crypto::MpcConfig::Create(n, MpcThreshold(n)));
  ASSIGN_OR_RETURN(party::SecureLdaPlan plan,
                   party::SecureLdaPlan::Create(lda, vocabulary->size(), tokens,
                                                options_.key->paillier(), config));
  group->set_plan(plan, tokens);
  group->set_iterations(static_cast<int>(parameters.iterations()));
  ASSIGN_OR_RETURN(std::unique_ptr<LdaCoordinator> coordinator,
                   LdaCoordinator::Create(session_id, plan, options_.key, &pool));
  RunDriverOptions driver;
  driver.iterations = static_cast<int>(parameters.iterations());
  driver.cancelled = &cancelled_;
  if (resume != nullptr) {
    RETURN_IF_ERROR(coordinator->Restore(*resume));
    ASSIGN_OR_RETURN(
        driver.resume_updates,
        party::CountUpdatesFromProto(resume->last_updates(), session_id, *options_.key, plan));
    driver.resume_iteration = resume->header().iteration();
    if (attempt > 0) {
      // The parameters as Join gave them (a DP vocabulary's parties rebuild
      // the selected one from their state).
      RETURN_IF_ERROR(
          group->Resume(driver.resume_iteration, attempt, parameters, driver.resume_updates));
      spdlog::info("run {}: every party resumed after iteration {} (attempt {})", run_id,
                   driver.resume_iteration, attempt);
      Update([&](pplda::v1::RunStatus& s) {
        s.set_state("iterating");
        s.set_phase(absl::StrCat("resumed after iteration ", driver.resume_iteration,
                                 " (a party restarted)"));
        s.clear_waiting_for();
      });
    }
  }
  double iteration_seconds = 0;
  driver.on_step = [&](const IterationReport& r) {
    const RemoteCallStats calls = group->last_iteration();
    if (r.iteration > 0) {
      iteration_seconds += r.seconds;
      metrics_.iterations->Increment();
      metrics_.iteration->Set(r.iteration);
      metrics_.seconds_per_iteration->Set(iteration_seconds / r.iteration);
      metrics_.mpc_bytes_per_iteration->Set(static_cast<double>(calls.mpc_bytes_sent_party0));
      metrics_.mpc_rounds_per_iteration->Set(static_cast<double>(calls.mpc_rounds));
      metrics_.phase_seconds["selection"]->Increment(r.phases.selection);
      metrics_.phase_seconds["exchange"]->Increment(r.phases.exchange);
      metrics_.phase_seconds["conversion"]->Increment(r.phases.conversion);
      metrics_.phase_seconds["weights"]->Increment(r.phases.weights);
      metrics_.phase_seconds["draw"]->Increment(r.phases.draw);
      metrics_.phase_seconds["update"]->Increment(r.phases.update);
      metrics_.phase_seconds["fold"]->Increment(r.aggregation);
    }
    Update([&](pplda::v1::RunStatus& s) {
      if (r.iteration == -1) return;
      s.set_state("iterating");
      s.set_iteration(r.iteration);
      if (r.iteration > 0) {
        const double rate = iteration_seconds / r.iteration;
        s.set_seconds_per_iteration(rate);
        s.set_seconds_left(rate * (driver.iterations - r.iteration));
        s.set_mpc_bytes_per_iteration(calls.mpc_bytes_sent_party0);
        s.set_mpc_rounds_per_iteration(calls.mpc_rounds);
      }
      s.set_phase(r.iteration < driver.iterations
                      ? absl::StrCat("iteration ", r.iteration + 1, ": secure sampling among the parties")
                      : "publication: parties confirm the final counts and decrypt them");
      if (r.iteration == driver.iterations) s.set_state("publishing");
    });
    spdlog::info("run {}: {} done in {:.2f} s", run_id,
                 r.iteration == 0    ? std::string("initialisation")
                 : r.iteration == -1 ? std::string("publication (confirmation, partial "
                                                   "decryptions with proofs, verification)")
                                     : absl::StrCat("iteration ", r.iteration),
                 r.seconds);
  };
  // The run state at every iteration boundary (party/run_state_file.h).
  const party::PlanDigest plan_digest =
      party::ComputePlanDigest(session_id, run_parameters, tokens);
  const std::filesystem::path state_path = party::RunStatePath(options_.state_dir, run_id);
  driver.on_boundary = [&](const IterationBoundary& b) -> absl::Status {
    pplda::v1::CoordinatorRunState state;
    pplda::v1::RunStateHeader& header = *state.mutable_header();
    header.set_run_id(session_id);
    header.set_participant(options_.name);
    header.set_iteration(b.iteration);
    header.set_plan_digest(std::string(plan_digest.begin(), plan_digest.end()));
    *state.mutable_parameters() = run_parameters;
    for (const net::Participant& p : options_.consortium->compute_parties()) {
      state.add_parties(p.name);
    }
    for (int64_t t : tokens) state.add_tokens_per_party(static_cast<uint64_t>(t));
    for (const party::CountUpdate& u : *b.updates) {
      *state.add_last_updates() = party::CountUpdateToProto(*options_.key, u);
    }
    state.set_counts_digest(std::string(b.digest->begin(), b.digest->end()));
    const crypto::ThresholdPublicKey& key = *options_.key;
    *state.mutable_matrix() = crypto::CiphertextBatchToProto(key, coordinator->fold().matrix());
    *state.mutable_totals() = crypto::CiphertextBatchToProto(key, coordinator->fold().totals());
    *state.mutable_noisy_matrix() =
        crypto::CiphertextBatchToProto(key, coordinator->fold().noisy_matrix());
    *state.mutable_noisy_totals() =
        crypto::CiphertextBatchToProto(key, coordinator->fold().noisy_totals());
    state.set_release_iteration(coordinator->fold().release_iteration());
    if (selected_by_dp) {
      for (const std::string& term : vocabulary->terms()) state.add_vocabulary(term);
    }
    if (insecure_deterministic_rng_seed.has_value()) {
      state.set_insecure_deterministic_rng_seed(*insecure_deterministic_rng_seed);
    }
    std::error_code ec;
    std::filesystem::create_directories(state_path.parent_path(), ec);
    if (ec) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot create ", state_path.parent_path().string(), ": ", ec.message()));
    }
    return party::WriteRunState(state_path, state);
  };
  ASSIGN_OR_RETURN(DrivenRun run, DriveRun(*coordinator, *group, *vocabulary, driver));

  LeakageContext leakage;
  leakage.setting = "secure multi-party run over the network (party daemons, untrusted coordinator)";
  leakage.key_origin = KeyOriginLabel(options_.key->origin());
  leakage.data_holders = party::DataHolders(tokens);
  leakage.compute_parties = n;
  leakage.modulus_bits = static_cast<int>(mpz_sizeinbase(options_.key->paillier().n().get_mpz_t(), 2));
  leakage.insecure_deterministic_rng_seed = insecure_deterministic_rng_seed;
  nlohmann::json parties = nlohmann::json::array();
  for (int p = 0; p < n; ++p) {
    parties.push_back({{"name", options_.consortium->compute_parties()[p].name},
                       {"tokens", tokens[p]}});
  }
  nlohmann::json& m = run.model.metadata;
  m["pplda_version"] = PPLDA_VERSION;
  m["created"] = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::Now(), absl::UTCTimeZone());
  m["training"] = {{"mode", "secure (consortium over the network)"},
                   {"sampler", "batched (secure protocol)"},
                   {"run_id", run_id},
                   {"consortium", options_.consortium->name()},
                   {"iterations", parameters.iterations()},
                   {"draw", parameters.draw_method()},
                   {"conversion_proofs_verified", parameters.verify_conversion()},
                   {"alpha_effective", run.model.alpha},
                   {"beta_effective", run.model.beta},
                   {"init_seconds", run.stats.init_seconds},
                   {"iteration_seconds", run.stats.iteration_seconds},
                   {"publication_seconds", run.stats.publication_seconds},
                   {"coordinator_bytes", run.stats.coordinator_bytes},
                   {"decrypted_counts_digest", party::DigestHex(run.decrypted_digest)},
                   {"mpc_bytes_sent_party0_last_iteration", group->last_iteration().mpc_bytes_sent_party0},
                   {"mpc_rounds_last_iteration", group->last_iteration().mpc_rounds},
                   {"phase_seconds_party0",
                    {{"selection", run.stats.phases.selection}, {"exchange", run.stats.phases.exchange},
                     {"conversion", run.stats.phases.conversion}, {"weights", run.stats.phases.weights},
                     {"draw", run.stats.phases.draw}, {"update", run.stats.phases.update}}}};
  m["corpus"] = {{"parties", parties},
                 {"vocabulary_size", vocabulary->size()},
                 {"vocabulary_sha256", vocabulary_sha256}};
  m["privacy"] = LeakageStatement(leakage);
  if (resume != nullptr) {
    // The coordinator restarted; the timings above cover what ran after.
    m["training"]["resumed_after_iteration"] = resume->header().iteration();
  }
  if (session_id != run_id) {
    // Started over (a loss before the first saved boundary): the parties
    // knew this start as session_id.
    m["training"]["start"] = CurrentStart(run_id);
    m["training"]["session_id"] = session_id;
  }
  if (dp_setup.has_value()) {
    // Parameters only: no timing, byte or round count, no per-party token
    // count (exact statistics of the documents).
    for (const char* exact : {"init_seconds", "iteration_seconds", "publication_seconds",
                              "coordinator_bytes", "mpc_bytes_sent_party0_last_iteration",
                              "mpc_rounds_last_iteration", "phase_seconds_party0"}) {
      m["training"].erase(exact);
    }
    nlohmann::json names = nlohmann::json::array();
    for (int p = 0; p < n; ++p) names.push_back(options_.consortium->compute_parties()[p].name);
    m["corpus"] = {{"parties", names}, {"vocabulary_sha256", vocabulary_sha256}};
    if (selected_by_dp) {
      m["corpus"]["vocabulary"] = {
          {"source", "secure DP set union over the consortium's public candidates"},
          {"candidates", options_.vocabulary->size()},
          {"candidates_sha256", options_.vocabulary_sha256}};
    }
    leakage.dp_counts = true;
    // The unit: one document as each party's daemon reads it. The parties'
    // reading options (split, window) are theirs and unknown here, so the
    // unit is stated as such (docs/privacy.md, "The privacy unit").
    privacy::PrivacyUnit unit;
    unit.name = "document as its party's daemon reads it";
    unit.description =
        "one document of a party's corpus as its daemon's reading options cut it (with "
        "split input a window or paragraph, not the source file: see each party's config)";
    unit.part_of_a_file = true;
    // The run's budget as requested: the vocabulary's part first, then
    // training's (party/run_dp_budget.h).
    privacy::DpTrainingOptions options;
    options.counts = party::DpOptionsFromParameters(parameters);
    if (dp_vocabulary.has_value()) {
      options.vocabulary =
          privacy::DpVocabularyOptions{parameters.dp_vocab_epsilon(), parameters.dp_vocab_delta(),
                                       static_cast<int>(parameters.dp_vocab_max_terms())};
    }
    ASSIGN_OR_RETURN(
        const privacy::PrivacyAccountant accountant,
        party::ComposeRunAccountant(parameters.dp_epsilon(), parameters.dp_delta(),
                                    dp_vocabulary ? &dp_vocabulary->plan : nullptr,
                                    dp_vocabulary ? &dp_vocabulary->accountant : nullptr,
                                    dp_setup->accountant));
    nlohmann::json statement =
        privacy::DpPrivacyStatement(options, accountant, unit, std::nullopt, dp_setup->description);
    statement["setting"] = leakage.setting;
    statement["leakage"] = privacy::SecureDpLeakage(accountant, *options.counts, unit, n,
                                                    MpcThreshold(n), dp_vocabulary.has_value());
    statement["secure_protocol"] = LeakageStatement(leakage);
    if (dp_vocabulary.has_value()) statement["dp_vocabulary"] = dp_vocabulary->plan.Describe();
    if (session_id != run_id) {
      statement["earlier_starts"] = absl::StrCat(
          "this run started over ", CurrentStart(run_id) - 1,
          " time(s), after a participant was lost before its first saved boundary; an earlier "
          "start may have released its own DP vocabulary to the parties and the coordinator. "
          "Each start is a release of its own, debited in each data holder's ledger under its "
          "own id; the budget above covers this model's start only");
    }
    m["privacy"] = std::move(statement);
  }
  const std::string json = lda::ModelToJson(run.model).dump(1);
  const std::filesystem::path dir = options_.state_dir / "runs" / run_id;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::PermissionDeniedError("cannot create " + dir.string() + ": " + ec.message());
  RETURN_IF_ERROR(WriteFileAtomically(dir / "model.json", json));
  spdlog::info("run {}: published; model in {}", run_id, (dir / "model.json").string());
  // The run is over: each party drops the last boundary it kept in case its
  // publication had to run again (best effort; the next Join drops it too).
  group->EndPublished();
  metrics_.runs_published->Increment();
  metrics_.coordinator_bytes->Increment(static_cast<double>(run.stats.coordinator_bytes));
  std::lock_guard<std::mutex> lock(mu_);
  model_json_ = json;
  status_.set_state("published");
  status_.set_phase("");
  status_.set_seconds_left(0);
  status_.set_coordinator_bytes(run.stats.coordinator_bytes);
  ++version_;
  changed_.notify_all();
  return absl::OkStatus();
}

absl::StatusOr<std::string> RunManager::CheckRunId(const std::string& run_id) const {
  if (status_.run_id().empty()) return absl::NotFoundError("no run was started yet");
  if (!run_id.empty() && run_id != status_.run_id()) {
    return absl::NotFoundError(absl::StrCat("run '", run_id, "' is unknown here (the latest is ",
                                            status_.run_id(), ")"));
  }
  return status_.run_id();
}

absl::StatusOr<pplda::v1::RunStatus> RunManager::Status(const std::string& run_id) const {
  std::shared_ptr<RemotePartyGroup> group;
  pplda::v1::RunStatus status;
  bool active = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    RETURN_IF_ERROR(CheckRunId(run_id).status());
    status = status_;
    group = group_;
    active = active_;
  }
  // While a step runs, the parties it waits on; while the run waits for a
  // restarted party, the parties not back (set with the state).
  if (group != nullptr && active && status.state() != "waiting") {
    status.clear_waiting_for();
    for (const std::string& name : group->waiting_for()) status.add_waiting_for(name);
  }
  return status;
}

absl::StatusOr<pplda::v1::RunStatus> RunManager::WaitForChange(
    const std::string& run_id, uint64_t* version, std::chrono::milliseconds timeout) const {
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, timeout, [&] { return version_ != *version; });
    *version = version_;
  }
  return Status(run_id);
}

absl::StatusOr<std::string> RunManager::Result(const std::string& run_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  RETURN_IF_ERROR(CheckRunId(run_id).status());
  if (model_json_.empty()) {
    return absl::FailedPreconditionError(absl::StrCat("run ", status_.run_id(), " is ",
                                                      status_.state(), ", not published"));
  }
  return model_json_;
}

absl::Status RunManager::Cancel(const std::string& run_id, const std::string& reason) {
  std::shared_ptr<RemotePartyGroup> group;
  {
    std::lock_guard<std::mutex> lock(mu_);
    RETURN_IF_ERROR(CheckRunId(run_id).status());
    if (!active_) {
      return absl::FailedPreconditionError(absl::StrCat("run ", status_.run_id(), " is ",
                                                        status_.state(), ", not running"));
    }
    cancelled_ = true;
    cancel_reason_ = reason;
    group = group_;
  }
  spdlog::warn("run {}: cancel requested: {}", run_id, reason);
  if (group != nullptr) group->Abort("cancelled: " + reason);
  return absl::OkStatus();
}

}  // namespace pplda::coordinator
