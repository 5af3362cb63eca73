// NetworkStats: what a PartyTransport carried, as every transport counts it
// (the in-process SimulatedNetwork, the gRPC and relay transports of net/):
// per party, messages and payload bytes sent and received and the number of
// rounds in which it sent anything; per round, messages and bytes; in total,
// the number of distinct rounds that carried traffic.
// Plain data; thread-safety of a value.
#ifndef PPLDA_CRYPTO_MPC_NETWORK_STATS_H_
#define PPLDA_CRYPTO_MPC_NETWORK_STATS_H_

#include <cstdint>
#include <vector>

namespace pplda::crypto {

struct PartyTraffic {
  uint64_t messages_sent = 0;
  uint64_t bytes_sent = 0;
  uint64_t messages_received = 0;
  uint64_t bytes_received = 0;
  // Rounds in which this party sent at least one message.
  uint64_t rounds_sending = 0;
};

struct RoundTraffic {
  uint64_t round = 0;
  uint64_t messages = 0;
  uint64_t bytes = 0;
};

struct NetworkStats {
  // Distinct rounds that carried at least one message.
  uint64_t rounds = 0;
  std::vector<PartyTraffic> parties;
  std::vector<RoundTraffic> per_round;  // ordered by round

  uint64_t total_bytes() const;
  uint64_t total_messages() const;
  // Largest bytes_sent over the parties.
  uint64_t max_bytes_sent() const;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_NETWORK_STATS_H_
