#include "net/party_link_service.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "net/grpc_status.h"
#include "net/protocol_version.h"
#include "net/tls_identity.h"
#include "spdlog/spdlog.h"

namespace pplda::net {
absl::Status CheckMpcFrameHeader(const pplda::v1::MpcFrame& frame,
                                 const std::string& authenticated) {
  if (!frame.has_header()) return absl::InvalidArgumentError("malformed frame: no header");
  const pplda::v1::WireHeader& h = frame.header();
  if (h.protocol_version() != kProtocolVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        "protocol version ", h.protocol_version(), ", this daemon speaks ", kProtocolVersion));
  }
  if (h.sender() != authenticated) {
    return absl::PermissionDeniedError(absl::StrCat(
        "frame claims sender \"", h.sender(), "\" but the TLS certificate is \"",
        authenticated, "\"'s"));
  }
  if (h.run_id().empty()) return absl::InvalidArgumentError("malformed frame: empty run id");
  if (h.iteration() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed frame: negative iteration ", h.iteration()));
  }
  if (h.round() == 0) return absl::InvalidArgumentError("malformed frame: round 0");
  return absl::OkStatus();
}

PartyLinkService::PartyLinkService(const Consortium& consortium, Options options)
    : consortium_(consortium), options_(options) {}

absl::Status PartyLinkService::Register(std::shared_ptr<FrameInbox> inbox) {
  if (inbox == nullptr) return absl::InvalidArgumentError("null frame inbox");
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = runs_.try_emplace(inbox->run_id(), inbox);
  if (!inserted) {
    return absl::AlreadyExistsError(absl::StrCat(
        "run ", inbox->run_id(), " already has a transport registered at this party"));
  }
  registered_.notify_all();
  return absl::OkStatus();
}

void PartyLinkService::Unregister(const FrameInbox& inbox) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = runs_.find(inbox.run_id());
  if (it != runs_.end() && it->second.get() == &inbox) runs_.erase(it);
}

std::map<absl::StatusCode, uint64_t> PartyLinkService::RefusedFrames() const {
  std::lock_guard<std::mutex> lock(mu_);
  return refused_;
}

uint64_t PartyLinkService::AcceptedFrames() const {
  std::lock_guard<std::mutex> lock(mu_);
  return accepted_;
}

void PartyLinkService::CountRefusal(absl::StatusCode code) {
  std::lock_guard<std::mutex> lock(mu_);
  refused_[code] += 1;
}

absl::StatusOr<std::shared_ptr<FrameInbox>> PartyLinkService::FindRun(const std::string& run_id,
                                                                      bool wait) {
  std::unique_lock<std::mutex> lock(mu_);
  auto found = [&] { return runs_.find(run_id) != runs_.end(); };
  if (!found() && wait) registered_.wait_for(lock, options_.unknown_run_grace, found);
  auto it = runs_.find(run_id);
  if (it == runs_.end()) {
    return absl::NotFoundError(absl::StrCat("run \"", run_id, "\" is not known at this party"));
  }
  return it->second;
}

grpc::Status PartyLinkService::Stream(grpc::ServerContext* context,
                                      grpc::ServerReader<pplda::v1::MpcFrame>* reader,
                                      pplda::v1::LinkClosed* response) {
  const std::string peer = context->peer();
  absl::StatusOr<std::string> who = AuthenticatePeer(*context->auth_context(), consortium_);
  if (!who.ok()) {
    spdlog::warn("party link: refused stream from {}: {}", peer,
                 std::string(who.status().message()));
    CountRefusal(who.status().code());
    return ToGrpcStatus(who.status());
  }
  const std::string& sender = *who;

  // Runs this stream delivered to, with the sender's party index in each.
  struct Delivered {
    std::weak_ptr<FrameInbox> inbox;
    int from;
  };
  std::map<const FrameInbox*, Delivered> delivered;
  uint64_t accepted = 0;
  absl::Status refused;
  pplda::v1::MpcFrame frame;
  while (reader->Read(&frame)) {
    absl::Status status = CheckMpcFrameHeader(frame, sender);
    std::shared_ptr<FrameInbox> inbox;
    if (status.ok()) {
      absl::StatusOr<std::shared_ptr<FrameInbox>> run =
          FindRun(frame.header().run_id(), /*wait=*/accepted == 0);
      if (run.ok()) {
        inbox = *std::move(run);
      } else {
        status = run.status();
      }
    }
    const size_t payload_size = frame.payload().size();
    if (status.ok()) {
      status = inbox->Accept(sender, frame.header().iteration(), frame.header().round(),
                             std::move(*frame.mutable_payload()));
    }
    if (!status.ok()) {
      const pplda::v1::WireHeader& h = frame.header();
      spdlog::warn(
          "party link: refused frame from {} ({}): run \"{}\", iteration {}, round {}, "
          "protocol version {}, {} payload bytes: {} ({})",
          sender, peer, h.run_id(), h.iteration(), h.round(), h.protocol_version(),
          payload_size, std::string(status.message()), absl::StatusCodeToString(status.code()));
      CountRefusal(status.code());
      refused = std::move(status);
      break;
    }
    ++accepted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++accepted_;
    }
    if (delivered.find(inbox.get()) == delivered.end()) {
      const int from = inbox->PartyIndex(sender);
      delivered.emplace(inbox.get(), Delivered{inbox, from});
      inbox->LinkStarted(from);
    }
    frame.Clear();
  }

  absl::Status ended;
  if (!refused.ok()) {
    ended = absl::Status(refused.code(),
                         absl::StrCat("this party refused one of its frames: ", refused.message()));
  } else if (context->IsCancelled()) {
    ended = absl::CancelledError("its stream was cancelled (the peer stopped or lost the connection)");
  } else {
    ended = absl::UnavailableError("it half-closed its stream");
  }
  for (auto& [key, d] : delivered) {
    if (std::shared_ptr<FrameInbox> inbox = d.inbox.lock()) inbox->LinkEnded(d.from, ended);
  }
  if (!refused.ok()) return ToGrpcStatus(refused);
  response->set_frames_accepted(accepted);
  return grpc::Status::OK;
}

void ConfigureServerBuilder(grpc::ServerBuilder& builder, size_t max_payload_bytes) {
  builder.SetMaxReceiveMessageSize(MaxMessageBytes(max_payload_bytes));
  builder.SetMaxSendMessageSize(MaxMessageBytes(max_payload_bytes));
  // Accept the clients' keepalive pings on links idle for minutes (gRPC's
  // default would answer them with GOAWAY "too_many_pings" mid-run).
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
                             kMinPingIntervalMs);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
}

}  // namespace pplda::net
