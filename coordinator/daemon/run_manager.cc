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
#include "coordinator/lda_coordinator.h"
#include "coordinator/run_driver.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/paillier/paillier_serialization.h"
#include "lda/model_file.h"
#include "lda/text_file.h"
#include "privacy/dp_training.h"
#include "privacy/dp_vocabulary.h"
#include "privacy/privacy_unit.h"
#include "protocol/consortium_policy.h"
#include "protocol/run_dp_budget.h"
#include "protocol/run_parameters.h"
#include "protocol/run_state_file.h"
#include "protocol/secure_dp_noise.h"
#include "protocol/secure_lda_plan.h"
#include "protocol/two_holder_disclosure.h"
#include "protocol/vocabulary_digest.h"
#include "protocol/wire.h"
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

}  // namespace

RunManager::RunManager(RunManagerOptions options)
    : options_(std::move(options)), store_(options_.state_dir, options_.name) {}

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
  RETURN_IF_ERROR(protocol::CheckRunParameters(parameters));
  // The DP vocabulary's split of the budget, and what it leaves training.
  const int n = static_cast<int>(options_.consortium->compute_parties().size());
  ASSIGN_OR_RETURN(const std::optional<protocol::RunDpVocabulary> dp_vocabulary,
                   protocol::DpVocabularyFromParameters(parameters, n, options_.vocabulary->size(),
                                                        options_.consortium->num_data_holders()));
  if (dp_vocabulary.has_value()) {
    RETURN_IF_ERROR(
        privacy::ValidateDpCountOptions(*protocol::TrainingDpOptions(parameters, dp_vocabulary),
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
  // The run's folder and parameters exist from its start, so that a
  // restarted coordinator knows of it and can start it over
  // (ResumeUnfinished, StartOverAfterFailure).
  if (absl::Status created = store_.CreateRun(run_id, parameters); !created.ok()) {
    active_ = false;
    return created;
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

std::optional<std::pair<std::string, int>> RunManager::ActiveRun() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!active_) return std::nullopt;
  return std::make_pair(status_.run_id(), store_.SavedBoundary(status_.run_id()));
}

void RunManager::RestoreEnded(const std::string& run_id) {
  const std::optional<RunStore::Ended> ended = store_.ReadEnded(run_id);
  std::lock_guard<std::mutex> lock(mu_);
  if (active_ || !ended.has_value()) return;
  status_ = pplda::v1::RunStatus();
  status_.set_run_id(run_id);
  if (ended->published) {
    model_json_ = ended->model_json;
    status_.set_state("published");
  } else {
    status_.set_state("failed");
    status_.set_error(ended->error);
  }
  ++version_;
}

absl::StatusOr<std::string> RunManager::ResumeUnfinished() {
  // The latest run (run ids sort by start time) with neither a model nor an
  // `ended` marker; every earlier unfinished one is superseded.
  const RunStore::Runs runs = store_.ListRuns();
  const std::string newest = runs.all.empty() ? std::string() : runs.all.back();
  if (runs.unfinished.empty() || runs.unfinished.back() != newest) {
    for (const std::string& run : runs.unfinished)
      store_.MarkEnded(run, "superseded by a later run");
    // The latest run ended before the restart: `pplda run status|result`
    // still answer for it.
    if (!newest.empty()) RestoreEnded(newest);
    return absl::NotFoundError("no unfinished run");
  }
  for (size_t i = 0; i + 1 < runs.unfinished.size(); ++i) {
    store_.MarkEnded(runs.unfinished[i], "superseded by a later run");
  }
  if (!store_.HasBoundary(newest)) return StartOverAfterRestart(newest);
  absl::StatusOr<pplda::v1::CoordinatorRunState> state = store_.ReadBoundary(newest);
  if (!state.ok()) {
    store_.MarkEnded(newest, absl::StrCat("not resumable: ", state.status().message()));
    return state.status();
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (active_) return absl::FailedPreconditionError("a run is active");
  BeginRunLocked(newest, "resuming", static_cast<int>(state->parameters().iterations()),
                 absl::StrCat("the coordinator restarted: resuming after iteration ",
                              state->header().iteration(), " (its last saved boundary)"));
  status_.set_iteration(state->header().iteration());
  thread_ =
      std::thread(&RunManager::RunThread, this, newest, [this, newest, state = *std::move(state)] {
        spdlog::warn(
            "run {}: resuming after iteration {} (the coordinator "
            "restarted)",
            newest, state.header().iteration());
        return Resume(newest, state);
      });
  changed_.notify_all();
  return newest;
}

absl::StatusOr<std::string> RunManager::StartOverAfterRestart(const std::string& run_id) {
  // Stopped before its first boundary (Join, the DP vocabulary or Prepare):
  // nothing to resume from, so the run starts over from Join under its next
  // start's id (the parties drop the old one at its Join).
  absl::StatusOr<pplda::v1::RunParameters> parameters = store_.StartParameters(run_id);
  if (!parameters.ok() || options_.party_restart_wait.count() == 0 ||
      !store_.MayStartAgain(run_id)) {
    // A run without its parameters (started by an older version), no wait
    // for restarts, or too many starts past Join: it ends.
    return EndUnresumable(
        run_id, "the coordinator restarted before the run's first saved iteration boundary");
  }
  const int start = store_.CurrentStart(run_id) + 1;
  std::lock_guard<std::mutex> lock(mu_);
  if (active_) return absl::FailedPreconditionError("a run is active");
  RETURN_IF_ERROR(store_.RecordStart(run_id, start));
  BeginRunLocked(run_id, "joining", static_cast<int>(parameters->iterations()),
                 absl::StrCat("the coordinator restarted before the run's first saved "
                              "boundary: the run starts over from Join (start ",
                              start, ")"));
  thread_ = std::thread(&RunManager::RunThread, this, run_id,
                        [this, run_id, parameters = *std::move(parameters), start] {
                          spdlog::warn(
                              "run {}: starting over from Join (start {}, as {}): the "
                              "coordinator restarted before its first saved boundary",
                              run_id, start, RunStore::SessionId(run_id, start));
                          return Execute(run_id, parameters);
                        });
  changed_.notify_all();
  return run_id;
}

absl::StatusOr<std::string> RunManager::EndUnresumable(const std::string& run_id,
                                                       const std::string& reason) {
  // The parties are told to drop the run, so that they accept the next one.
  RemotePartyGroup(options_.name, store_.CurrentSession(run_id), *options_.consortium,
                   *options_.identity, options_.key, options_.call_timeout, options_.relay)
      .Abort(reason);
  store_.MarkEnded(run_id, reason);
  std::lock_guard<std::mutex> lock(mu_);
  status_ = pplda::v1::RunStatus();
  status_.set_run_id(run_id);
  status_.set_state("failed");
  status_.set_error(reason);
  ++version_;
  return absl::FailedPreconditionError(absl::StrCat("run ", run_id, ": ", reason));
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
  return store_.ReadBoundary(run_id).ok();
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
  return !store_.HasBoundary(run_id) && store_.StartParameters(run_id).ok() &&
         store_.MayStartAgain(run_id);
}

absl::Status RunManager::WaitForRestartedParty(const std::string& phase, bool from_join) {
  std::vector<std::string> not_back;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (group_ != nullptr) not_back = group_->not_back();
  }
  Update([&](pplda::v1::RunStatus& s) {
    s.set_state("waiting");
    if (from_join) s.set_iteration(0);
    s.set_phase(phase);
    s.clear_waiting_for();
    for (const std::string& name : not_back) s.add_waiting_for(name);
  });
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(2), [&] { return cancelled_.load(); });
  }
  if (cancelled_) return absl::CancelledError("cancelled while waiting for a restarted party");
  return absl::OkStatus();
}

absl::Status RunManager::StartOverAfterFailure(const std::string& run_id,
                                               const absl::Status& failure) {
  ASSIGN_OR_RETURN(const pplda::v1::RunParameters parameters, store_.StartParameters(run_id));
  const int start = store_.CurrentStart(run_id) + 1;
  spdlog::warn(
      "run {}: a party was lost before the run's first saved boundary; starting over "
      "from Join (start {}) once every party answers: {}",
      run_id, start, std::string(failure.message()));
  RETURN_IF_ERROR(WaitForRestartedParty(
      absl::StrCat("for a restarted party: the run had not reached its first saved "
                   "boundary, so it starts over from Join (start ",
                   start, ", at most ", options_.party_restart_wait.count(),
                   " s in all); the last failure: ", failure.message()),
      /*from_join=*/true));
  RETURN_IF_ERROR(store_.RecordStart(run_id, start));
  Update([&](pplda::v1::RunStatus& s) {
    s.set_state("joining");
    s.set_phase(absl::StrCat("asking every party to join (start ", start, ")"));
    s.clear_waiting_for();
  });
  return Execute(run_id, parameters);
}

absl::Status RunManager::ResumeAfterPartyFailure(const std::string& run_id,
                                                 const absl::Status& failure, uint32_t attempt) {
  ASSIGN_OR_RETURN(pplda::v1::CoordinatorRunState state, store_.ReadBoundary(run_id));
  const int iteration = state.header().iteration();
  spdlog::warn(
      "run {}: waiting for the parties to answer, to resume after iteration {} "
      "(attempt {}): {}",
      run_id, iteration, attempt, std::string(failure.message()));
  RETURN_IF_ERROR(
      WaitForRestartedParty(absl::StrCat("for a restarted party: the run resumes after iteration ",
                                         iteration, " once every party answers (attempt ", attempt,
                                         ", at most ", options_.party_restart_wait.count(),
                                         " s in all); the last failure: ", failure.message()),
                            /*from_join=*/false));
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
    const int boundary_before = store_.SavedBoundary(run_id);
    if (MayWaitForRestartedParty(run_id, status, deadline)) {
      status = ResumeAfterPartyFailure(run_id, status, attempt++);
    } else if (MayStartOver(run_id, status, deadline)) {
      status = StartOverAfterFailure(run_id, status);
    } else {
      break;
    }
    if (store_.SavedBoundary(run_id) > boundary_before) {
      // The run got past a new boundary: a later loss gets a wait of its
      // own. A failure that comes back at the same boundary (not a lost
      // party after all) runs out of the wait instead of looping forever.
      deadline = std::chrono::steady_clock::now() + options_.party_restart_wait;
    }
  }
  if (!status.ok()) EndFailed(run_id, status);
  std::lock_guard<std::mutex> lock(mu_);
  active_ = false;
  group_.reset();
  ++version_;
  changed_.notify_all();
}

void RunManager::EndFailed(const std::string& run_id, const absl::Status& status) {
  store_.MarkEnded(run_id, std::string(status.message()));
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

absl::Status RunManager::Execute(const std::string& run_id,
                                 const pplda::v1::RunParameters& parameters) {
  RunContext context;
  context.run_id = run_id;
  context.session_id = store_.CurrentSession(run_id);
  context.parameters = parameters;
  context.run_parameters = parameters;
  std::shared_ptr<RemotePartyGroup> group = NewGroup(context.session_id);
  ASSIGN_OR_RETURN(context.tokens, group->Join(parameters));
  RETURN_IF_ERROR(store_.RecordJoinedStart(run_id));
  RETURN_IF_ERROR(protocol::CheckTwoHolderDisclosure(
      protocol::DataHolders(context.tokens),
      protocol::DpOptionsFromParameters(parameters).has_value(),
      parameters.accept_two_holder_disclosure(),
      "pplda run start --accept-two-holder-disclosure (and accept_two_holder_disclosure = true "
      "in each data holder's party.toml)"));
  context.insecure_deterministic_rng_seed = InsecureSeedOfParties(run_id, *group);
  // The secure DP vocabulary: the consortium file is then the public
  // candidate list, and the run's vocabulary the selected terms.
  ASSIGN_OR_RETURN(context.dp_vocabulary, protocol::DpVocabularyFromParameters(
                                              parameters, group->num_parties(),
                                              options_.vocabulary->size(), group->num_holders()));
  if (context.dp_vocabulary.has_value()) RETURN_IF_ERROR(SelectDpVocabulary(*group, &context));
  return Drive(context, group, nullptr, 0);
}

std::optional<uint64_t> RunManager::InsecureSeedOfParties(const std::string& run_id,
                                                          const RemotePartyGroup& group) const {
  // A party with INSECURE deterministic randomness (tests only) makes the
  // model say so (the first such party's seed).
  std::optional<uint64_t> first;
  for (int p = 0; p < group.num_owners(); ++p) {
    const std::optional<uint64_t>& seed = group.insecure_deterministic_rng_seeds()[p];
    if (!seed.has_value()) continue;
    spdlog::warn(
        "run {}: party {} reports INSECURE deterministic randomness (seed {}; testing "
        "only): the published model will say so",
        run_id, options_.consortium->owners()[p].name, *seed);
    if (!first.has_value()) first = seed;
  }
  return first;
}

absl::Status RunManager::SelectDpVocabulary(RemotePartyGroup& group, RunContext* context) {
  Update([&](pplda::v1::RunStatus& s) {
    s.set_state("selecting vocabulary");
    s.set_phase(absl::StrCat("parties select the vocabulary by a DP set union over ",
                             options_.vocabulary->size(), " public candidates"));
  });
  ThreadPool pool(options_.threads);
  ASSIGN_OR_RETURN(
      SelectedDpVocabulary selection,
      group.SelectDpVocabulary(context->dp_vocabulary->plan, *options_.vocabulary, &pool));
  context->tokens = selection.tokens;
  context->run_parameters.set_vocabulary_sha256(protocol::VocabularySha256(selection.vocabulary));
  // Its cost on the wire: 3 calls to every party and 1 MPC round among
  // them; the ciphertext bytes the coordinator received and relayed.
  spdlog::info(
      "run {}: DP vocabulary: {} of {} candidates selected in {:.1f} s (3 calls, 1 "
      "MPC round, {:.2f} MB of ciphertexts through the coordinator)",
      context->run_id, selection.vocabulary.size(), options_.vocabulary->size(), selection.seconds,
      selection.coordinator_bytes / 1e6);
  metrics_.coordinator_bytes->Increment(static_cast<double>(selection.coordinator_bytes));
  context->selected_vocabulary = std::move(selection.vocabulary);
  return absl::OkStatus();
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
  const std::vector<net::Participant> owners = options_.consortium->owners();
  const int n = static_cast<int>(owners.size());
  if (state.parties_size() != n || state.tokens_per_party_size() != n) {
    return absl::FailedPreconditionError(absl::StrCat("run ", run_id, ": its state names ",
                                                      state.parties_size(),
                                                      " parties, the consortium has ", n));
  }
  for (int p = 0; p < n; ++p) {
    if (state.parties(p) != owners[p].name) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run ", run_id, ": owner ", p, " was ", state.parties(p), ", now ", owners[p].name));
    }
    context.tokens.push_back(static_cast<int64_t>(state.tokens_per_party(p)));
  }
  ASSIGN_OR_RETURN(context.dp_vocabulary,
                   protocol::DpVocabularyFromParameters(
                       context.parameters, options_.consortium->num_compute_parties(),
                       options_.vocabulary->size(), options_.consortium->num_data_holders()));
  if (state.vocabulary_size() > 0) {
    lda::Vocabulary selected;
    for (const std::string& term : state.vocabulary()) selected.Add(term);
    context.selected_vocabulary = std::move(selected);
  }
  const std::string expected_sha = context.selected_vocabulary.has_value()
                                       ? protocol::VocabularySha256(*context.selected_vocabulary)
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

const lda::Vocabulary& RunManager::RunVocabulary(const RunContext& context) const {
  return context.selected_vocabulary.has_value() ? *context.selected_vocabulary
                                                 : *options_.vocabulary;
}

absl::Status RunManager::Drive(RunContext& context, std::shared_ptr<RemotePartyGroup> group,
                               const pplda::v1::CoordinatorRunState* resume, uint32_t attempt) {
  const pplda::v1::RunParameters& parameters = context.parameters;
  const lda::Vocabulary& vocabulary = RunVocabulary(context);
  ThreadPool pool(options_.threads);
  if (resume == nullptr) {
    Update([&](pplda::v1::RunStatus& s) {
      s.set_state("preparing");
      s.set_phase("parties encrypt their initial counts");
    });
  }
  // The plan as every party derives it (protocol/run_parameters.h).
  ASSIGN_OR_RETURN(protocol::RunPlanInputs inputs,
                   protocol::RunPlanInputsFromParameters(parameters, context.dp_vocabulary,
                                                         group->num_parties()));
  ASSIGN_OR_RETURN(protocol::RunPlan plan,
                   protocol::DeriveOwnersRunPlan(inputs, vocabulary.size(), context.tokens,
                                                 options_.key->paillier()));
  group->set_plan(plan.lda, context.tokens);
  group->set_iterations(inputs.iterations);
  ASSIGN_OR_RETURN(std::unique_ptr<LdaCoordinator> coordinator,
                   LdaCoordinator::Create(context.session_id, plan.lda, options_.key, &pool));
  RunDriverOptions driver;
  driver.iterations = inputs.iterations;
  driver.cancelled = &cancelled_;
  if (resume != nullptr) {
    RETURN_IF_ERROR(
        RestoreBoundary(context, *resume, attempt, plan.lda, *coordinator, *group, &driver));
  }
  double iteration_seconds = 0;
  driver.on_step = [&](const IterationReport& r) {
    ReportStep(context.run_id, r, group->last_iteration(), driver.iterations, &iteration_seconds);
  };
  const protocol::PlanDigest plan_digest =
      protocol::ComputePlanDigest(context.session_id, context.run_parameters, context.tokens);
  driver.on_boundary = [&](const IterationBoundary& b) {
    return store_.WriteBoundary(context.run_id,
                                BoundaryState(context, plan_digest, b, coordinator->fold()));
  };
  ASSIGN_OR_RETURN(DrivenRun run, DriveRun(*coordinator, *group, vocabulary, driver));
  RunPublication publication{&context,
                             &run,
                             options_.consortium,
                             options_.key.get(),
                             options_.vocabulary,
                             options_.vocabulary_sha256,
                             group->last_iteration(),
                             plan.dp.has_value() ? &*plan.dp : nullptr,
                             store_.CurrentStart(context.run_id),
                             resume != nullptr ? resume->header().iteration() : -1};
  ASSIGN_OR_RETURN(run.model.metadata, PublishedRunMetadata(publication));
  return Publish(context.run_id, run, *group);
}

absl::Status RunManager::RestoreBoundary(const RunContext& context,
                                         const pplda::v1::CoordinatorRunState& resume,
                                         uint32_t attempt, const protocol::SecureLdaPlan& plan,
                                         LdaCoordinator& coordinator, RemotePartyGroup& group,
                                         RunDriverOptions* driver) {
  RETURN_IF_ERROR(coordinator.Restore(resume));
  ASSIGN_OR_RETURN(driver->resume_updates,
                   protocol::CountUpdatesFromProto(resume.last_updates(), context.session_id,
                                                   *options_.key, plan));
  driver->resume_iteration = resume.header().iteration();
  if (attempt == 0) return absl::OkStatus();  // the parties kept their sessions
  // The parameters as Join gave them (a DP vocabulary's parties rebuild the
  // selected one from their state).
  RETURN_IF_ERROR(
      group.Resume(driver->resume_iteration, attempt, context.parameters, driver->resume_updates));
  spdlog::info("run {}: every party resumed after iteration {} (attempt {})", context.run_id,
               driver->resume_iteration, attempt);
  Update([&](pplda::v1::RunStatus& s) {
    s.set_state("iterating");
    s.set_phase(
        absl::StrCat("resumed after iteration ", driver->resume_iteration, " (a party restarted)"));
    s.clear_waiting_for();
  });
  return absl::OkStatus();
}

void RunManager::ReportStep(const std::string& run_id, const IterationReport& r,
                            const RemoteCallStats& calls, int iterations,
                            double* iteration_seconds) {
  if (r.iteration > 0) {
    *iteration_seconds += r.seconds;
    metrics_.RecordIteration(r, calls, *iteration_seconds / r.iteration);
  }
  Update([&](pplda::v1::RunStatus& s) {
    if (r.iteration == -1) return;
    s.set_state("iterating");
    s.set_iteration(r.iteration);
    if (r.iteration > 0) {
      const double rate = *iteration_seconds / r.iteration;
      s.set_seconds_per_iteration(rate);
      s.set_seconds_left(rate * (iterations - r.iteration));
      s.set_mpc_bytes_per_iteration(calls.mpc_bytes_sent_party0);
      s.set_mpc_rounds_per_iteration(calls.mpc_rounds);
    }
    s.set_phase(
        r.iteration < iterations
            ? absl::StrCat("iteration ", r.iteration + 1, ": secure sampling among the parties")
            : "publication: parties confirm the final counts and decrypt them");
    if (r.iteration == iterations) s.set_state("publishing");
  });
  spdlog::info("run {}: {} done in {:.2f} s", run_id,
               r.iteration == 0    ? std::string("initialisation")
               : r.iteration == -1 ? std::string("publication (confirmation, partial "
                                                 "decryptions with proofs, verification)")
                                   : absl::StrCat("iteration ", r.iteration),
               r.seconds);
}

pplda::v1::CoordinatorRunState RunManager::BoundaryState(
    const RunContext& context, const protocol::PlanDigest& plan_digest, const IterationBoundary& b,
    const protocol::EncryptedCounts& fold) const {
  pplda::v1::CoordinatorRunState state;
  pplda::v1::RunStateHeader& header = *state.mutable_header();
  header.set_run_id(context.session_id);
  header.set_participant(options_.name);
  header.set_iteration(b.iteration);
  header.set_plan_digest(std::string(plan_digest.begin(), plan_digest.end()));
  *state.mutable_parameters() = context.run_parameters;
  for (const net::Participant& p : options_.consortium->owners()) state.add_parties(p.name);
  for (int64_t t : context.tokens) state.add_tokens_per_party(static_cast<uint64_t>(t));
  for (const protocol::CountUpdate& u : *b.updates) {
    *state.add_last_updates() = protocol::CountUpdateToProto(*options_.key, u);
  }
  state.set_counts_digest(std::string(b.digest->begin(), b.digest->end()));
  const crypto::ThresholdPublicKey& key = *options_.key;
  *state.mutable_matrix() = crypto::CiphertextBatchToProto(key, fold.matrix());
  *state.mutable_totals() = crypto::CiphertextBatchToProto(key, fold.totals());
  *state.mutable_noisy_matrix() = crypto::CiphertextBatchToProto(key, fold.noisy_matrix());
  *state.mutable_noisy_totals() = crypto::CiphertextBatchToProto(key, fold.noisy_totals());
  state.set_release_iteration(fold.release_iteration());
  if (context.selected_vocabulary.has_value()) {
    for (const std::string& term : context.selected_vocabulary->terms()) state.add_vocabulary(term);
  }
  if (context.insecure_deterministic_rng_seed.has_value()) {
    state.set_insecure_deterministic_rng_seed(*context.insecure_deterministic_rng_seed);
  }
  return state;
}

absl::Status RunManager::Publish(const std::string& run_id, const DrivenRun& run,
                                 RemotePartyGroup& group) {
  const std::string json = lda::ModelToJson(run.model).dump(1);
  ASSIGN_OR_RETURN(const std::filesystem::path path, store_.WriteModel(run_id, json));
  spdlog::info("run {}: published; model in {}", run_id, path.string());
  // The run is over: each party drops the last boundary it kept in case its
  // publication had to run again (best effort; the next Join drops it too).
  group.EndPublished();
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
