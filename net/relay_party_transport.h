// RelayPartyTransport: crypto::PartyTransport for relay mode
// (proto/relay_service.proto): every MPC frame of the run is sealed end to
// end (net/sealed_frame.h) and handed to this party's one stream to the
// coordinator (a RelayEndpoint: net/relay_client.h), which forwards it to
// the receiver's stream; frames for this party come back the same way,
// are opened and checked, and queued in the run's FrameInbox, from which
// Receive takes them. The coordinator sees who talks to whom, when, and how
// many bytes; nothing of the payloads.
//
// Same contract, errors and counters as GrpcPartyTransport (Stats: payload
// bytes before sealing; see grpc_party_transport.h), except the link
// failures, which here are:
//   - a frame that does not open or check (net/sealed_frame.h), or that the
//     inbox refuses (replayed, reordered, too far ahead, too large): the run
//     stops at this party with that status, naming the sender (the
//     coordinator could only have tampered with it, and the expected frame
//     will never come: failing now beats a receive timeout);
//   - a notice from the coordinator that a frame could not be delivered or
//     that a peer's stream ended: the run stops with Unavailable naming the
//     peer;
//   - this party's own stream to the coordinator ending: Unavailable.
// Every later Send and Receive returns that status at once.
//
// Lifecycle: Create attaches the transport to the endpoint under its run id
// (AlreadyExists when the run already has one); Close and the destructor
// detach it. Frames already handed to the endpoint are still delivered
// after Close.
// Thread-safety: Send, Receive, set_iteration and Close belong to the
// party's protocol thread; Deliver, Notice and Disconnected are called by
// the endpoint's reader; Shutdown, Stats and ResetStats from any thread.
#ifndef PPLDA_NET_RELAY_PARTY_TRANSPORT_H_
#define PPLDA_NET_RELAY_PARTY_TRANSPORT_H_

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
#include "net/frame_inbox.h"
#include "net/inbox_transport.h"
#include "net/message_limits.h"
#include "net/run_transport.h"
#include "net/sealed_frame.h"
#include "proto/relay_service.pb.h"

namespace pplda::net {

class RelayPartyTransport;

// A party's connection to the coordinator's relay, as a run's transport
// uses it.
class RelayEndpoint {
 public:
  virtual ~RelayEndpoint() = default;
  // Queues `frame` for the coordinator to forward; never waits for the
  // network. Unavailable when the stream to the coordinator is down.
  virtual absl::Status Forward(pplda::v1::SealedFrame frame) = 0;
  // Routes frames and notices of `run_id` to `transport` until Detach.
  // AlreadyExists when another transport has the run.
  virtual absl::Status Attach(const std::string& run_id, RelayPartyTransport* transport) = 0;
  // Stops routing to `transport` (no call into it after this returns).
  virtual void Detach(const std::string& run_id, const RelayPartyTransport* transport) = 0;
};

class RelayPartyTransport final : public InboxTransport {
 public:
  struct Options {
    std::string run_id;
    int party_id = 0;
    // Every owner of the run by owner index with its pinned box key
    // (FrameSealer::PartiesOf(consortium)).
    std::vector<FrameSealer::Party> parties;
    int initial_iteration = 0;
    size_t max_payload_bytes = kDefaultMaxPayloadBytes;
    std::chrono::milliseconds receive_timeout{300000};
    uint64_t max_rounds_ahead = uint64_t{1} << 20;
  };

  // InvalidArgument for inconsistent options, FailedPrecondition when
  // `secret` is not the key pinned for party_id, AlreadyExists from Attach.
  // `endpoint` must outlive the transport; `secret` is used during Create
  // only (the shared keys are precomputed).
  static absl::StatusOr<std::unique_ptr<RelayPartyTransport>> Create(
      Options options, const BoxSecretKey& secret, RelayEndpoint& endpoint);
  ~RelayPartyTransport() override;

  absl::Status Send(int to, uint64_t round, std::vector<uint8_t> payload) override;

  absl::Status Close(std::chrono::milliseconds timeout) override;
  using InboxTransport::Close;
  void Shutdown(const absl::Status& cause) override;

  // Called by the endpoint: a sealed frame for this run, a notice about
  // this run, the end of the stream to the coordinator.
  void Deliver(const pplda::v1::SealedFrame& frame);
  void Notice(const pplda::v1::RelayNotice& notice);
  void Disconnected(const absl::Status& why);

 private:
  RelayPartyTransport(Options options, std::unique_ptr<FrameSealer> sealer,
                      std::shared_ptr<FrameInbox> inbox, RelayEndpoint& endpoint);

  const Options options_;
  const std::unique_ptr<FrameSealer> sealer_;
  RelayEndpoint& endpoint_;
  std::atomic<bool> attached_{true};
};

}  // namespace pplda::net

#endif  // PPLDA_NET_RELAY_PARTY_TRANSPORT_H_
