#include "net/relay_party_transport.h"

#include <sodium.h>

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "spdlog/spdlog.h"

namespace pplda::net {

absl::StatusOr<std::unique_ptr<RelayPartyTransport>> RelayPartyTransport::Create(
    Options options, const BoxSecretKey& secret, RelayEndpoint& endpoint) {
  std::vector<std::string> names;
  for (const FrameSealer::Party& p : options.parties) names.push_back(p.name);
  ASSIGN_OR_RETURN(std::shared_ptr<FrameInbox> inbox, MakeInbox(options, std::move(names)));
  ASSIGN_OR_RETURN(std::unique_ptr<FrameSealer> sealer,
                   FrameSealer::Create(options.run_id, options.party_id, options.parties, secret));
  std::unique_ptr<RelayPartyTransport> transport(new RelayPartyTransport(
      std::move(options), std::move(sealer), std::move(inbox), endpoint));
  RETURN_IF_ERROR(endpoint.Attach(transport->run_id(), transport.get()));
  return transport;
}

RelayPartyTransport::RelayPartyTransport(Options options, std::unique_ptr<FrameSealer> sealer,
                                         std::shared_ptr<FrameInbox> inbox, RelayEndpoint& endpoint)
    : InboxTransport(std::move(inbox), options.max_payload_bytes, options.initial_iteration),
      options_(std::move(options)),
      sealer_(std::move(sealer)),
      endpoint_(endpoint) {}

RelayPartyTransport::~RelayPartyTransport() {
  inbox_->Shutdown(absl::CancelledError("transport destroyed"));
  if (attached_.exchange(false)) endpoint_.Detach(run_id(), this);
}

absl::Status RelayPartyTransport::Send(int to, uint64_t round, std::vector<uint8_t> payload) {
  RETURN_IF_ERROR(AdmitOutgoing(to, round, payload.size()));
  absl::StatusOr<pplda::v1::SealedFrame> frame = sealer_->Seal(to, iteration(), round, payload);
  const uint64_t bytes = payload.size();
  // The shares leave this party only sealed; wipe the plaintext copy.
  if (!payload.empty()) sodium_memzero(payload.data(), payload.size());
  if (!frame.ok()) return frame.status();
  NoteSent(to, round, bytes);
  absl::Status forwarded = endpoint_.Forward(*std::move(frame));
  if (!forwarded.ok()) {
    const absl::Status failure(forwarded.code(),
                               absl::StrCat("run ", run_id(), ": cannot send to party ", to, " (",
                                            sealer_->party_name(to), ") through the relay: ",
                                            forwarded.message()));
    inbox_->Fail(failure);
    return failure;
  }
  return absl::OkStatus();
}

void RelayPartyTransport::Deliver(const pplda::v1::SealedFrame& frame) {
  absl::StatusOr<OpenedFrame> opened = sealer_->Open(frame);
  absl::Status status = opened.status();
  if (opened.ok()) {
    status = inbox_->Accept(frame.sender(), opened->iteration, opened->round,
                            std::move(opened->payload));
  }
  if (status.ok()) return;
  spdlog::warn("relay: run {}: refused a sealed frame from {} ({} bytes): {} ({})", run_id(),
               frame.sender(), frame.box().size(), std::string(status.message()),
               absl::StatusCodeToString(status.code()));
  if (status.code() == absl::StatusCode::kAborted) return;  // the run has already stopped
  inbox_->Fail(absl::Status(status.code(),
                            absl::StrCat("run ", run_id(), ": refused a frame relayed from \"",
                                         frame.sender(), "\": ", status.message())));
}

void RelayPartyTransport::Notice(const pplda::v1::RelayNotice& notice) {
  const absl::StatusCode code = notice.status_code() == 0
                                    ? absl::StatusCode::kUnavailable
                                    : static_cast<absl::StatusCode>(notice.status_code());
  spdlog::warn("relay: run {}: the coordinator reports about {}: {}", run_id(), notice.party(),
               notice.status_message());
  inbox_->Fail(absl::Status(code, absl::StrCat("run ", run_id(), ": relay to party \"",
                                               notice.party(), "\": ", notice.status_message())));
}

void RelayPartyTransport::Disconnected(const absl::Status& why) {
  inbox_->Fail(absl::UnavailableError(absl::StrCat(
      "run ", run_id(), ": the stream to the coordinator's relay ended: ", why.message())));
}

absl::Status RelayPartyTransport::Close(std::chrono::milliseconds timeout) {
  (void)timeout;  // frames already forwarded are flushed by the endpoint
  if (closed_.exchange(true)) return absl::OkStatus();
  const absl::Status cause = inbox_->shutdown_cause();
  inbox_->Shutdown(absl::CancelledError("transport closed"));
  if (attached_.exchange(false)) endpoint_.Detach(run_id(), this);
  // A failure other than our own shutdown is the link error Close reports.
  if (!cause.ok() && cause.code() != absl::StatusCode::kAborted) return cause;
  return absl::OkStatus();
}

void RelayPartyTransport::Shutdown(const absl::Status& cause) { inbox_->Shutdown(cause); }

}  // namespace pplda::net
