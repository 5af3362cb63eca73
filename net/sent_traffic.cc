#include "net/sent_traffic.h"

#include <set>

namespace pplda::net {

void SentTraffic::Note(int to, uint64_t round, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  messages_[to] += 1;
  bytes_[to] += bytes;
  crypto::RoundTraffic& r = per_round_[round];
  r.round = round;
  r.messages += 1;
  r.bytes += bytes;
}

void SentTraffic::Reset() {
  std::lock_guard<std::mutex> lock(mu_);
  messages_.assign(messages_.size(), 0);
  bytes_.assign(bytes_.size(), 0);
  per_round_.clear();
}

crypto::NetworkStats SentTraffic::Combine(const FrameInbox::ReceivedTraffic& received,
                                          int me) const {
  std::lock_guard<std::mutex> lock(mu_);
  const int n = static_cast<int>(messages_.size());
  crypto::NetworkStats stats;
  stats.parties.resize(n);
  crypto::PartyTraffic& own = stats.parties[me];
  for (int j = 0; j < n; ++j) {
    if (j == me) continue;
    crypto::PartyTraffic& peer = stats.parties[j];
    peer.messages_sent = received.messages[j];
    peer.bytes_sent = received.bytes[j];
    peer.rounds_sending = received.messages[j];  // one message per round and pair
    peer.messages_received = messages_[j];
    peer.bytes_received = bytes_[j];
    own.messages_sent += messages_[j];
    own.bytes_sent += bytes_[j];
    own.messages_received += received.messages[j];
    own.bytes_received += received.bytes[j];
  }
  own.rounds_sending = per_round_.size();
  std::set<uint64_t> rounds = received.rounds;
  for (const auto& [round, traffic] : per_round_) {
    stats.per_round.push_back(traffic);
    rounds.insert(round);
  }
  stats.rounds = rounds.size();
  return stats;
}

}  // namespace pplda::net
