// SentTraffic: the sending half of a network transport's counters (messages
// and payload bytes by receiver, and per round), combined with a FrameInbox's
// received half into the crypto::NetworkStats that SimulatedNetwork also
// reports (one message per round and pair, so a peer's rounds_sending is its
// message count). Shared by GrpcPartyTransport and RelayPartyTransport.
// Thread-safety: every method may be called from any thread.
#ifndef PPLDA_NET_SENT_TRAFFIC_H_
#define PPLDA_NET_SENT_TRAFFIC_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "crypto/mpc/network_stats.h"
#include "net/frame_inbox.h"

namespace pplda::net {

class SentTraffic {
 public:
  explicit SentTraffic(int num_parties) : messages_(num_parties, 0), bytes_(num_parties, 0) {}

  // One message of `bytes` payload bytes to party `to` in `round`.
  void Note(int to, uint64_t round, uint64_t bytes);
  void Reset();
  // This party's (`me`) view of the network: what it sent, from here, and
  // what it received, from `received`.
  crypto::NetworkStats Combine(const FrameInbox::ReceivedTraffic& received, int me) const;

 private:
  mutable std::mutex mu_;
  std::vector<uint64_t> messages_;  // by receiver
  std::vector<uint64_t> bytes_;     // by receiver
  std::map<uint64_t, crypto::RoundTraffic> per_round_;
};

}  // namespace pplda::net

#endif  // PPLDA_NET_SENT_TRAFFIC_H_
