#include "coordinator/daemon/coordinator_metrics.h"

#include <array>
#include <vector>

#include "base/status_macros.h"
#include "protocol/phase_times.h"

namespace pplda::coordinator {

absl::StatusOr<CoordinatorMetrics> CoordinatorMetrics::Register(net::MetricsRegistry& r) {
  CoordinatorMetrics m;
  ASSIGN_OR_RETURN(m.runs_started, r.AddCounter("pplda_coordinator_runs_total", "Runs by outcome",
                                                {{"outcome", "started"}}));
  ASSIGN_OR_RETURN(m.runs_published, r.AddCounter("pplda_coordinator_runs_total", "Runs by outcome",
                                                  {{"outcome", "published"}}));
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
  ASSIGN_OR_RETURN(
      m.mpc_rounds_per_iteration,
      r.AddGauge("pplda_coordinator_mpc_rounds_per_iteration", "MPC rounds of the last iteration"));
  std::vector<std::string> phases(protocol::kPhaseNames.begin(), protocol::kPhaseNames.end());
  phases.push_back("fold");
  for (const std::string& phase : phases) {
    ASSIGN_OR_RETURN(m.phase_seconds[phase],
                     r.AddCounter("pplda_coordinator_phase_seconds_total",
                                  "Seconds per protocol phase (party 0's; fold: the coordinator's)",
                                  {{"phase", phase}}));
  }
  return m;
}

void CoordinatorMetrics::RecordIteration(const IterationReport& report,
                                         const RemoteCallStats& calls, double mean_seconds) {
  iterations->Increment();
  iteration->Set(report.iteration);
  seconds_per_iteration->Set(mean_seconds);
  mpc_bytes_per_iteration->Set(static_cast<double>(calls.mpc_bytes_sent_party0));
  mpc_rounds_per_iteration->Set(static_cast<double>(calls.mpc_rounds));
  const std::array<double, protocol::kNumPhases> seconds = report.phases.Seconds();
  for (int i = 0; i < protocol::kNumPhases; ++i) {
    phase_seconds[std::string(protocol::kPhaseNames[i])]->Increment(seconds[i]);
  }
  phase_seconds["fold"]->Increment(report.aggregation);
}

}  // namespace pplda::coordinator
