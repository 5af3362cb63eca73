// The coordinator daemon's Prometheus metrics (docs/operations.md,
// "Metrics"): runs by outcome, iterations, ciphertext bytes, the active
// run's iteration, rate and per-iteration MPC traffic, and seconds per
// protocol phase (party 0's six phases, protocol/phase_times.h, and the
// coordinator's own fold).
// Thread-safety: the metrics are the registry's (thread-safe).
#ifndef PPLDA_COORDINATOR_DAEMON_COORDINATOR_METRICS_H_
#define PPLDA_COORDINATOR_DAEMON_COORDINATOR_METRICS_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "coordinator/daemon/remote_party_group.h"
#include "coordinator/run_driver.h"
#include "net/metrics_registry.h"

namespace pplda::coordinator {

struct CoordinatorMetrics {
  net::Counter* runs_started = nullptr;
  net::Counter* runs_published = nullptr;
  net::Counter* runs_failed = nullptr;
  net::Counter* iterations = nullptr;
  net::Counter* coordinator_bytes = nullptr;
  net::Gauge* iteration = nullptr;
  net::Gauge* seconds_per_iteration = nullptr;
  net::Gauge* mpc_bytes_per_iteration = nullptr;
  net::Gauge* mpc_rounds_per_iteration = nullptr;
  std::map<std::string, net::Counter*> phase_seconds;  // by phase name, and "fold"

  static absl::StatusOr<CoordinatorMetrics> Register(net::MetricsRegistry& registry);
  // One completed iteration (report.iteration >= 1) of the active run,
  // whose iterations so far took `mean_seconds` each.
  void RecordIteration(const IterationReport& report, const RemoteCallStats& calls,
                       double mean_seconds);
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_COORDINATOR_METRICS_H_
