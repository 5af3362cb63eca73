#include "crypto/mpc/network_stats.h"

#include <algorithm>

namespace pplda::crypto {

uint64_t NetworkStats::total_bytes() const {
  uint64_t total = 0;
  for (const PartyTraffic& p : parties) total += p.bytes_sent;
  return total;
}

uint64_t NetworkStats::total_messages() const {
  uint64_t total = 0;
  for (const PartyTraffic& p : parties) total += p.messages_sent;
  return total;
}

uint64_t NetworkStats::max_bytes_sent() const {
  uint64_t best = 0;
  for (const PartyTraffic& p : parties) best = std::max(best, p.bytes_sent);
  return best;
}

}  // namespace pplda::crypto
