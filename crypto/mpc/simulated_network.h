// SimulatedNetwork: n PartyTransports connected in one process, for tests
// and benchmarks of the MPC engine. Each party runs on its own thread over
// blocking in-memory channels (one FIFO per ordered pair of parties), which
// is exactly the shape of the gRPC deployment (one stream per pair), so the
// protocol code is unchanged between the two.
//
// Counters: NetworkStats (network_stats.h) over payload bytes (a real
// transport adds framing and TLS overhead).
//
// Failure handling: RunParties() runs one function per party on its own
// thread; when one returns an error the network is shut down, every blocked
// Receive returns Aborted, and RunParties returns the first (root-cause)
// error. A Receive that waits longer than the timeout returns
// DeadlineExceeded naming the party and round it waited for.
// Thread-safety: all methods may be called from any thread.
#ifndef PPLDA_CRYPTO_MPC_SIMULATED_NETWORK_H_
#define PPLDA_CRYPTO_MPC_SIMULATED_NETWORK_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/mpc/network_stats.h"
#include "crypto/mpc/transport.h"

namespace pplda::crypto {

class SimulatedNetwork {
 public:
  static constexpr std::chrono::seconds kDefaultReceiveTimeout{300};

  // 2 <= num_parties <= 64.
  static absl::StatusOr<std::unique_ptr<SimulatedNetwork>> Create(
      int num_parties, std::chrono::milliseconds receive_timeout = kDefaultReceiveTimeout);
  ~SimulatedNetwork();

  int num_parties() const { return static_cast<int>(endpoints_.size()); }
  PartyTransport& transport(int party);

  NetworkStats Stats() const;
  void ResetStats();

  // Wakes every blocked Receive, which then returns Aborted with `cause`.
  void Shutdown(const absl::Status& cause);

  // Runs fn(party) for every party on its own thread and joins them. If any
  // returns an error, shuts the network down and returns the first error.
  absl::Status RunParties(const std::function<absl::Status(int party)>& fn);

 private:
  class Endpoint;
  struct Message {
    uint64_t round;
    std::vector<uint8_t> payload;
  };

  explicit SimulatedNetwork(int num_parties, std::chrono::milliseconds timeout);
  absl::Status Deliver(int from, int to, uint64_t round, std::vector<uint8_t> payload);
  absl::StatusOr<std::vector<uint8_t>> Take(int to, int from, uint64_t round);

  std::chrono::milliseconds receive_timeout_;
  std::vector<std::unique_ptr<Endpoint>> endpoints_;

  mutable std::mutex mu_;
  std::condition_variable arrived_;
  // queues_[to][from]
  std::vector<std::vector<std::deque<Message>>> queues_;
  absl::Status shutdown_;
  std::vector<PartyTraffic> traffic_;
  std::vector<uint64_t> last_send_round_;
  std::map<uint64_t, RoundTraffic> per_round_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_SIMULATED_NETWORK_H_
