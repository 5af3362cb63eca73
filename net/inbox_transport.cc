#include "net/inbox_transport.h"

#include "base/status_macros.h"

namespace pplda::net {

InboxTransport::InboxTransport(std::shared_ptr<FrameInbox> inbox, size_t max_payload_bytes,
                               int initial_iteration)
    : inbox_(std::move(inbox)),
      max_payload_bytes_(max_payload_bytes),
      iteration_(initial_iteration),
      sent_(inbox_->num_parties()) {}

void InboxTransport::set_iteration(int iteration) {
  iteration_ = iteration;
  inbox_->NoteProgress(iteration, 0);
}

absl::Status InboxTransport::AdmitOutgoing(int to, uint64_t round, size_t bytes) {
  RETURN_IF_ERROR(CheckOutgoing(party_id(), num_parties(), to, round, bytes, max_payload_bytes_));
  if (closed_) return absl::FailedPreconditionError("transport closed");
  if (absl::Status cause = inbox_->shutdown_cause(); !cause.ok()) return cause;
  inbox_->NoteProgress(iteration_, round);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint8_t>> InboxTransport::Receive(int from, uint64_t round) {
  if (closed_) return absl::FailedPreconditionError("transport closed");
  inbox_->NoteProgress(iteration_, round);
  return inbox_->Take(from, iteration_, round);
}

crypto::NetworkStats InboxTransport::Stats() const {
  return sent_.Combine(inbox_->Traffic(), party_id());
}

void InboxTransport::ResetStats() {
  inbox_->ResetTraffic();
  sent_.Reset();
}

}  // namespace pplda::net
