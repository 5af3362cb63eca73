// InboxTransport: the half that GrpcPartyTransport and RelayPartyTransport
// share around their FrameInbox: Receive, the iteration stamped on frames,
// the sent-traffic counters and Stats, and the checks before a frame
// leaves. A subclass carries the frames: its Send calls AdmitOutgoing first
// and NoteSent once the frame is handed on; it implements Close and Shutdown
// and sets closed_ when closing.
// Thread-safety: as RunTransport; Send, Receive and set_iteration belong to
// the protocol's thread.
#ifndef PPLDA_NET_INBOX_TRANSPORT_H_
#define PPLDA_NET_INBOX_TRANSPORT_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/mpc/network_stats.h"
#include "net/frame_inbox.h"
#include "net/run_transport.h"
#include "net/sent_traffic.h"

namespace pplda::net {

class InboxTransport : public RunTransport {
 public:
  int party_id() const final { return inbox_->party_id(); }
  int num_parties() const final { return inbox_->num_parties(); }
  const std::string& run_id() const final { return inbox_->run_id(); }
  int iteration() const { return iteration_; }
  void set_iteration(int iteration) final;
  absl::StatusOr<std::vector<uint8_t>> Receive(int from, uint64_t round) final;
  crypto::NetworkStats Stats() const final;
  void ResetStats() final;

 protected:
  // The inbox of a transport whose Options name the run, this party, its
  // limits and first iteration; `party_names` by party index. Lockstep
  // parties queue a round or two: room for two of the largest frames.
  template <typename TransportOptions>
  static absl::StatusOr<std::shared_ptr<FrameInbox>> MakeInbox(
      const TransportOptions& options, std::vector<std::string> party_names) {
    FrameInbox::Options inbox;
    inbox.run_id = options.run_id;
    inbox.party_names = std::move(party_names);
    inbox.party_id = options.party_id;
    inbox.max_payload_bytes = options.max_payload_bytes;
    inbox.receive_timeout = options.receive_timeout;
    inbox.max_rounds_ahead = options.max_rounds_ahead;
    inbox.max_queued_bytes = std::max(inbox.max_queued_bytes, 2 * options.max_payload_bytes);
    inbox.initial_iteration = options.initial_iteration;
    return FrameInbox::Create(std::move(inbox));
  }

  InboxTransport(std::shared_ptr<FrameInbox> inbox, size_t max_payload_bytes,
                 int initial_iteration);

  // Before a frame of `bytes` to `to` in `round` leaves: CheckOutgoing,
  // FailedPrecondition once closed, the shutdown cause once shut down; notes
  // the progress in the inbox.
  absl::Status AdmitOutgoing(int to, uint64_t round, size_t bytes);
  void NoteSent(int to, uint64_t round, uint64_t bytes) { sent_.Note(to, round, bytes); }

  const std::shared_ptr<FrameInbox> inbox_;
  std::atomic<bool> closed_{false};

 private:
  const size_t max_payload_bytes_;
  int iteration_;
  SentTraffic sent_;
};

}  // namespace pplda::net

#endif  // PPLDA_NET_INBOX_TRANSPORT_H_
