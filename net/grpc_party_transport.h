// GrpcPartyTransport: crypto::PartyTransport over proto/party_link.proto,
// between the compute parties of one run (DESIGN.md section 2; the gRPC
// twin of crypto::SimulatedNetwork, with the same contract and counters).
//
// Shape: party i sends to party j over one client stream that i opens to
// j's PartyLinkService (one stream per ordered pair, opened at Connect or
// at the first Send), written by a writer thread per peer, so Send only
// queues (it never waits for the network). Frames carry a WireHeader
// (protocol version, run id, iteration, round, sender name); the receiving
// daemon's PartyLinkService checks them and queues them in this run's
// FrameInbox, from which Receive takes them. Channels use mutual TLS (a
// TlsIdentity) with the TLS target name set to the peer's participant name,
// and each stream checks that the server's certificate is the one pinned for
// that peer (PermissionDenied otherwise).
//
// Errors:
//   Send      InvalidArgument (to = self or outside [0, n)), ResourceExhausted
//             (payload over max_payload_bytes), FailedPrecondition (after
//             Close), then as Receive once the transport has stopped
//   Receive   InvalidArgument (from = self or outside [0, n)),
//             FailedPrecondition (the next message from `from` is of another
//             iteration/round: skipped or repeated), DeadlineExceeded
//             (receive_timeout, naming the peer and round), Unavailable (the
//             peer's stream to this party ended first), Aborted (Shutdown,
//             with its cause)
//   A link that fails stops the whole transport with the link's own status,
//   which every later Send and Receive returns at once (instead of waiting
//   for a timeout), naming the peer: Unavailable (cannot connect within
//   connect_timeout: daemon down, or the TLS handshake refused, e.g. a
//   certificate from another CA), PermissionDenied (the peer's server
//   certificate is not the one pinned for it), or the status with which the
//   peer refused a frame (client streams get the server's answer only when
//   writing, so a refusal is noticed at the next frame to that peer).
//
// Counters (Stats): crypto::NetworkStats as seen from this party, payload
// bytes as in SimulatedNetwork: parties[party_id()] is this party's own
// traffic; parties[j] is party j's traffic with this party (messages_sent /
// bytes_sent = what j sent here, *_received = what this party sent to j,
// rounds_sending = rounds in which j sent here); per_round lists the
// messages and bytes this party sent, by round number; rounds counts the
// round numbers that carried a message to or from this party (the engine's
// round counter runs across iterations, so round numbers identify rounds,
// as in SimulatedNetwork). MergePartyStats combines every party's view into
// the network-wide figures SimulatedNetwork reports.
//
// Lifecycle: Create registers the run's inbox with the daemon's
// PartyLinkService (AlreadyExists if the run already has a transport there);
// Close() after the protocol flushes every queued frame and half-closes the
// streams; the destructor shuts down (queued frames are dropped) and
// unregisters. The header's iteration is the one last passed to
// set_iteration (rounds may restart at 1 in each iteration or keep
// counting: positions are compared as (iteration, round) pairs).
// Thread-safety: Send, Receive, set_iteration, Connect and Close belong to
// the party's protocol thread (PartyTransport's contract); Shutdown, Stats,
// ResetStats may be called from any thread.
#ifndef PPLDA_NET_GRPC_PARTY_TRANSPORT_H_
#define PPLDA_NET_GRPC_PARTY_TRANSPORT_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/mpc/network_stats.h"
#include "crypto/mpc/transport.h"
#include "net/consortium_file.h"
#include "net/frame_inbox.h"
#include "net/inbox_transport.h"
#include "net/message_limits.h"
#include "net/party_link_service.h"
#include "net/run_transport.h"
#include "net/tls_identity.h"

namespace pplda::net {

// One compute party of a run as its peers reach it.
struct PartyEndpoint {
  std::string name;              // participant name (TLS target name)
  std::string address;           // host:port of its daemon
  std::string cert_fingerprint;  // pinned server certificate
};

// The consortium's compute parties by party index (key generation's links).
std::vector<PartyEndpoint> ComputePartyEndpoints(const Consortium& consortium);
// A run's owners by owner index (net/consortium_file.h): the committee,
// then the data holders.
std::vector<PartyEndpoint> OwnerEndpoints(const Consortium& consortium);

class GrpcPartyTransport final : public InboxTransport {
 public:
  static constexpr std::chrono::seconds kDefaultReceiveTimeout{300};

  struct Options {
    std::string run_id;
    int party_id = 0;
    // Every compute party of the run by party index (this one included).
    std::vector<PartyEndpoint> parties;
    int initial_iteration = 0;
    size_t max_payload_bytes = kDefaultMaxPayloadBytes;
    std::chrono::milliseconds receive_timeout = kDefaultReceiveTimeout;
    uint64_t max_rounds_ahead = uint64_t{1} << 20;
    // How long a writer waits for a peer's daemon to accept the TLS
    // connection before the link fails with Unavailable.
    std::chrono::milliseconds connect_timeout{30000};
  };

  // InvalidArgument for inconsistent options; AlreadyExists when `service`
  // already routes this run id. `identity` and `service` must outlive the
  // transport.
  static absl::StatusOr<std::unique_ptr<GrpcPartyTransport>> Create(
      Options options, const TlsIdentity& identity, PartyLinkService& service);
  ~GrpcPartyTransport() override;

  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override;

  // Opens every outgoing stream now and waits until each peer's daemon has
  // accepted it; Unavailable naming the peers that did not within `timeout`.
  absl::Status Connect(std::chrono::milliseconds timeout);
  // Delivers every queued frame and half-closes the streams (waiting at most
  // `timeout` for the peers to acknowledge); returns the first link error.
  // Receive is unusable afterwards.
  absl::Status Close(std::chrono::milliseconds timeout) override;
  using InboxTransport::Close;  // Close() waits kDefaultCloseTimeout (60 s)
  // Wakes every blocked Receive (Aborted with `cause`), cancels the streams
  // and drops queued frames. Idempotent: the first cause stays.
  void Shutdown(const absl::Status& cause) override;

 private:
  class PeerLink;

  GrpcPartyTransport(Options options, const TlsIdentity& identity, PartyLinkService& service,
                     std::shared_ptr<FrameInbox> inbox);
  // A link failed: stops the transport with `failure` (see Errors).
  void FailLink(const absl::Status& failure);

  const Options options_;
  PartyLinkService& service_;
  std::vector<std::unique_ptr<PeerLink>> links_;  // by party index; null for self
};

// Network-wide figures from every party's Stats(), indexed by party id:
// each party's own traffic from its own view, per_round summed over the
// senders, rounds = distinct round numbers with traffic. InvalidArgument when
// the views disagree on the number of parties.
absl::StatusOr<crypto::NetworkStats> MergePartyStats(absl::Span<const crypto::NetworkStats> views);

}  // namespace pplda::net

#endif  // PPLDA_NET_GRPC_PARTY_TRANSPORT_H_
