// RunTransport: what a party daemon needs of one run's MPC transport beyond
// crypto::PartyTransport (same Send/Receive contract and errors): the run
// id, the iteration stamped on outgoing frames, counters, an orderly Close
// and a Shutdown that wakes every blocked Receive. Two implementations:
// GrpcPartyTransport (direct links between parties) and RelayPartyTransport
// (sealed frames through the coordinator, relay mode).
// Thread-safety: as each implementation states; Shutdown, Stats and
// ResetStats may be called from any thread.
#ifndef PPLDA_NET_RUN_TRANSPORT_H_
#define PPLDA_NET_RUN_TRANSPORT_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "crypto/mpc/network_stats.h"
#include "crypto/mpc/transport.h"

namespace pplda::net {

class RunTransport : public crypto::PartyTransport {
 public:
  static constexpr std::chrono::milliseconds kDefaultCloseTimeout{60000};

  virtual const std::string& run_id() const = 0;
  // The iteration stamped on frames sent from now on.
  virtual void set_iteration(int iteration) = 0;
  // Flushes what was sent and ends the run's links; Receive is unusable
  // afterwards. Returns the first link error.
  virtual absl::Status Close(std::chrono::milliseconds timeout) = 0;
  absl::Status Close() { return Close(kDefaultCloseTimeout); }
  // Wakes every blocked Receive (Aborted with `cause`); idempotent.
  virtual void Shutdown(const absl::Status& cause) = 0;
  // crypto::NetworkStats as seen from this party (GrpcPartyTransport::Stats
  // states the layout).
  virtual crypto::NetworkStats Stats() const = 0;
  virtual void ResetStats() = 0;
};

// What both transports check before sending a frame: `to` a peer in
// [0, num_parties) other than `party` (InvalidArgument), and `bytes` within
// the per-frame limit (ResourceExhausted, naming the peer and round).
absl::Status CheckOutgoing(int party, int num_parties, int to, uint64_t round, size_t bytes,
                           size_t max_bytes);

}  // namespace pplda::net

#endif  // PPLDA_NET_RUN_TRANSPORT_H_
