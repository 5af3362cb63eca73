// The network cost model of the protocol benchmarks: what an
// iteration's traffic would cost on a real link between organisations,
//     network seconds = rounds x RTT + bytes / bandwidth,
// with `bytes` the busiest party's payload bytes sent (its uplink is the
// bottleneck) and every round charged one full round trip (a round's
// messages are sent together, then each party waits for its peers'; with
// TCP and HTTP/2 flow control a round costs about one RTT). Computation is
// not included: add s_per_iteration for a whole-iteration estimate. Figures
// are a model, not a measurement over such links.
#ifndef PPLDA_TESTS_BENCH_NETWORK_COST_MODEL_H_
#define PPLDA_TESTS_BENCH_NETWORK_COST_MODEL_H_

#include <benchmark/benchmark.h>

#include <string>

namespace pplda::bench {

struct NetworkLink {
  const char* name;       // counter suffix
  double bits_per_second;
  double rtt_seconds;
};

inline constexpr NetworkLink kModelLinks[] = {
    {"1G_1ms", 1e9, 0.001},
    {"100M_20ms", 1e8, 0.020},
    {"100M_80ms", 1e8, 0.080},
};

inline double NetworkSeconds(const NetworkLink& link, double rounds, double bytes) {
  return rounds * link.rtt_seconds + bytes * 8 / link.bits_per_second;
}

// Adds counters net_<link>_s (seconds of network per iteration) for every
// model link, from rounds and busiest-party bytes per iteration.
inline void ReportNetworkModel(benchmark::State& state, double rounds, double bytes) {
  for (const NetworkLink& link : kModelLinks) {
    state.counters[std::string("net_") + link.name + "_s"] = NetworkSeconds(link, rounds, bytes);
  }
}

}  // namespace pplda::bench

#endif  // PPLDA_TESTS_BENCH_NETWORK_COST_MODEL_H_
