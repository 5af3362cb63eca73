// Size limits of party-to-party frames, and the links' keepalive. An MPC round can carry tens of MB
// per peer (e.g. 10^6 field elements of 16 bytes), so frames are not
// chunked: one PartyTransport message is one MpcFrame, whose payload is at
// most the run's per-frame limit (default 256 MiB), and gRPC's message
// limit on both ends is that plus a fixed allowance for the header.
// A payload over the limit is refused with ResourceExhausted by the sender
// (Send) and by the receiver (PartyLinkService); a message over gRPC's
// limit is refused by gRPC itself, also RESOURCE_EXHAUSTED.
#ifndef PPLDA_NET_MESSAGE_LIMITS_H_
#define PPLDA_NET_MESSAGE_LIMITS_H_

#include <algorithm>
#include <climits>
#include <cstddef>

namespace pplda::net {

inline constexpr size_t kDefaultMaxPayloadBytes = size_t{256} << 20;
// Header fields, protobuf tags and lengths: far less than this.
inline constexpr size_t kFrameOverheadBytes = size_t{64} << 10;

// Clients ping every kKeepaliveTimeMs on idle links; servers must accept
// pings that often (ConfigureServerBuilder allows one per 10 s).
inline constexpr int kKeepaliveTimeMs = 30000;
inline constexpr int kMinPingIntervalMs = 10000;

// gRPC's max send/receive message size for payloads of up to
// max_payload_bytes (capped at INT_MAX, gRPC's own ceiling).
inline int MaxMessageBytes(size_t max_payload_bytes) {
  return static_cast<int>(
      std::min<size_t>(max_payload_bytes + kFrameOverheadBytes, size_t{INT_MAX}));
}

}  // namespace pplda::net

#endif  // PPLDA_NET_MESSAGE_LIMITS_H_
