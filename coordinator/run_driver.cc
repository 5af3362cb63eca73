#include "coordinator/run_driver.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::coordinator {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

uint64_t UpdateBytes(const std::vector<protocol::CountUpdate>& updates, uint64_t ct_bytes) {
  uint64_t b = 0;
  for (const protocol::CountUpdate& u : updates) {
    b += (u.matrix.size() + u.totals.size() + u.noise_matrix.size() + u.noise_totals.size()) *
         ct_bytes;
  }
  return b;
}

absl::Status CheckCancelled(const RunDriverOptions& options, int iteration) {
  if (options.cancelled != nullptr && options.cancelled->load()) {
    return absl::CancelledError(absl::StrCat("the run was cancelled before iteration ", iteration));
  }
  return absl::OkStatus();
}

}  // namespace

// THE schedule, kept in one function on purpose: initialisation, every
// iteration and publication read at once, in the order every path runs them.
absl::StatusOr<DrivenRun> DriveRun(LdaCoordinator& coordinator, PartyGroup& parties,
                                   const lda::Vocabulary& vocabulary,
                                   const RunDriverOptions& options) {
  if (options.iterations < 0) {
    return absl::InvalidArgumentError(absl::StrCat("iterations must be >= 0, got ",
                                                   options.iterations));
  }
  const int n = parties.num_parties();
  const uint64_t ct_bytes = coordinator.public_key().paillier().ciphertext_bytes();
  DrivenRun run;
  RunStats& stats = run.stats;
  // Each update goes in once and out to each of the n compute parties; each
  // data holder receives the draw matrix instead.
  auto relay_bytes = [&](const std::vector<protocol::CountUpdate>& u) {
    return UpdateBytes(u, ct_bytes) * static_cast<uint64_t>(1 + n);
  };

  Clock::time_point start = Clock::now();
  std::vector<protocol::CountUpdate> updates;
  int first = 1;
  if (options.resume_iteration >= 0) {
    if (options.resume_iteration > options.iterations ||
        coordinator.iterations_folded() != options.resume_iteration) {
      return absl::FailedPreconditionError(absl::StrCat(
          "resuming after iteration ", options.resume_iteration, " of ", options.iterations,
          " with a fold of ", coordinator.iterations_folded(), " iterations"));
    }
    updates = options.resume_updates;
    first = options.resume_iteration + 1;
  } else {
    ASSIGN_OR_RETURN(updates, parties.InitialCounts());
    RETURN_IF_ERROR(coordinator.Fold(updates, 0));
    stats.init_seconds = SecondsSince(start);
    if (options.on_boundary) {
      RETURN_IF_ERROR(options.on_boundary(IterationBoundary{0, &updates, &coordinator.digest()}));
    }
    if (options.on_step) options.on_step(IterationReport{0, stats.init_seconds, {}, 0});
  }

  for (int it = first; it <= options.iterations; ++it) {
    RETURN_IF_ERROR(CheckCancelled(options, it));
    start = Clock::now();
    stats.coordinator_bytes += relay_bytes(updates);
    stats.coordinator_bytes += static_cast<uint64_t>(parties.num_holders()) *
                               coordinator.fold().draw_matrix().size() * ct_bytes;
    ASSIGN_OR_RETURN(IterationOutput out,
                     parties.Iterate(it, updates, coordinator.fold().draw_matrix()));
    Clock::time_point fold_start = Clock::now();
    RETURN_IF_ERROR(coordinator.Fold(out.updates, it));
    updates = std::move(out.updates);
    IterationReport report;
    report.iteration = it;
    report.aggregation = SecondsSince(fold_start);
    report.seconds = SecondsSince(start);
    report.phases = out.phases;
    if (options.on_boundary) {
      RETURN_IF_ERROR(options.on_boundary(IterationBoundary{it, &updates, &coordinator.digest()}));
    }
    stats.iteration_seconds += report.seconds;
    stats.aggregation_seconds += report.aggregation;
    stats.phases += out.phases;
    if (options.on_step) options.on_step(report);
  }

  RETURN_IF_ERROR(CheckCancelled(options, options.iterations + 1));
  start = Clock::now();
  stats.coordinator_bytes += relay_bytes(updates);
  const int decryptors = coordinator.public_key().threshold();
  ASSIGN_OR_RETURN(std::vector<protocol::DecryptionShare> shares,
                   parties.Publish(updates, coordinator.digest(), decryptors));
  for (const protocol::DecryptionShare& s : shares) {
    stats.coordinator_bytes += 3 * s.partials.values.size() * ct_bytes;  // value + proof
  }
  ASSIGN_OR_RETURN(run.model, coordinator.Publish(shares, vocabulary));
  run.decrypted_digest = coordinator.digest();
  stats.publication_seconds = SecondsSince(start);
  if (options.on_step) options.on_step(IterationReport{-1, stats.publication_seconds, {}, 0});
  return run;
}

}  // namespace pplda::coordinator
