// MetricsRegistry: counters and gauges rendered in the Prometheus text
// exposition format (version 0.0.4), for a daemon's /metrics endpoint
// (MetricsServer). A metric family has a name ([a-zA-Z_:][a-zA-Z0-9_:]*),
// help text and a type; each series in it has its own label values
// (label names [a-zA-Z_][a-zA-Z0-9_]*, values escaped on output).
//
//   MetricsRegistry registry;
//   ASSIGN_OR_RETURN(Counter* bytes, registry.AddCounter(
//       "pplda_party_bytes_sent_total", "MPC payload bytes sent", {{"peer", "p2"}}));
//   bytes->Increment(n);
//
// Adding the same name, type and labels again returns the same series; a
// name reused with another type or help text, or bad names, are
// InvalidArgument. Series live as long as the registry (pointers stay
// valid). Counters only go up (Increment by a negative amount is ignored).
// Thread-safety: every method may be called from any thread; Counter and
// Gauge updates are lock-free atomics.
#ifndef PPLDA_NET_METRICS_REGISTRY_H_
#define PPLDA_NET_METRICS_REGISTRY_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace pplda::net {

using MetricLabels = std::map<std::string, std::string>;

class Counter {
 public:
  void Increment(double by = 1.0);
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

class Gauge {
 public:
  void Set(double value) { value_.store(value, std::memory_order_relaxed); }
  void Add(double delta) { value_.fetch_add(delta, std::memory_order_relaxed); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

class MetricsRegistry {
 public:
  absl::StatusOr<Counter*> AddCounter(std::string_view name, std::string_view help,
                                      const MetricLabels& labels = {});
  absl::StatusOr<Gauge*> AddGauge(std::string_view name, std::string_view help,
                                  const MetricLabels& labels = {});

  // Every family in name order, its series in label order.
  std::string Render() const;

 private:
  enum class Type { kCounter, kGauge };
  struct Family {
    std::string help;
    Type type;
    std::map<MetricLabels, std::unique_ptr<Counter>> counters;
    std::map<MetricLabels, std::unique_ptr<Gauge>> gauges;
  };
  absl::StatusOr<Family*> FamilyFor(std::string_view name, std::string_view help, Type type,
                                    const MetricLabels& labels);

  mutable std::mutex mu_;
  std::map<std::string, Family, std::less<>> families_;
};

}  // namespace pplda::net

#endif  // PPLDA_NET_METRICS_REGISTRY_H_
