#include "net/relay_hub.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "net/grpc_status.h"
#include "net/protocol_version.h"
#include "net/tls_identity.h"
#include "spdlog/spdlog.h"

namespace pplda::net {

// One party's stream; every field is guarded by the hub's mu_.
class RelayHub::Connection {
 public:
  Connection(std::string party, grpc::ServerContext* context)
      : party(std::move(party)), context(context) {}

  const std::string party;
  grpc::ServerContext* const context;
  bool open = true;
  std::deque<pplda::v1::RelayDown> queue;
  std::condition_variable writable;
  // Outstanding calls by id; the reply once it came.
  std::map<uint64_t, std::optional<pplda::v1::RelayedReply>> pending;
};

RelayHub::RelayHub(const Consortium& consortium, Options options)
    : consortium_(consortium), options_(std::move(options)) {}

RelayHub::~RelayHub() { Shutdown(); }

void RelayHub::Shutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  shutdown_ = true;
  for (auto& [name, conn] : connections_) {
    conn->open = false;
    conn->context->TryCancel();
    conn->writable.notify_all();
  }
  changed_.notify_all();
}

void RelayHub::Observe(Direction direction, const std::string& party,
                       const google::protobuf::Message& message) const {
  if (options_.observer) options_.observer(direction, party, message.SerializeAsString());
}

bool RelayHub::connected(const std::string& party) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = connections_.find(party);
  return it != connections_.end() && it->second->open;
}

std::vector<std::string> RelayHub::connected_parties() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [name, conn] : connections_) {
    if (conn->open) out.push_back(name);
  }
  return out;
}

bool RelayHub::WaitConnected(const std::vector<std::string>& parties,
                             std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return changed_.wait_for(lock, timeout, [&] {
    return std::all_of(parties.begin(), parties.end(), [&](const std::string& p) {
      auto it = connections_.find(p);
      return it != connections_.end() && it->second->open;
    });
  });
}

uint64_t RelayHub::forwarded_frames() const {
  std::lock_guard<std::mutex> lock(mu_);
  return forwarded_;
}

grpc::Status RelayHub::Connect(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<pplda::v1::RelayDown, pplda::v1::RelayUp>* stream) {
  const std::string peer = context->peer();
  auto refuse = [&](const absl::Status& status) {
    spdlog::warn("relay: refused a stream from {}: {}", peer, status.ToString());
    return ToGrpcStatus(status);
  };
  absl::StatusOr<std::string> who = AuthenticatePeer(*context->auth_context(), consortium_);
  if (!who.ok()) return refuse(who.status());
  absl::StatusOr<Participant> participant = consortium_.FindByName(*who);
  if (!participant.ok()) return refuse(participant.status());
  if (!participant->is_owner()) {
    return refuse(absl::PermissionDeniedError(absl::StrCat(
        "participant \"", *who, "\" is the coordinator; only the runs' owners use the relay")));
  }
  pplda::v1::RelayUp first;
  if (!stream->Read(&first)) return grpc::Status::OK;  // gone before saying hello
  Observe(Direction::kUp, *who, first);
  if (!first.has_hello() || !first.hello().has_header()) {
    return refuse(absl::InvalidArgumentError(absl::StrCat(
        "the first message of \"", *who, "\"'s relay stream is not a RelayHello with a header")));
  }
  const pplda::v1::WireHeader& hello = first.hello().header();
  if (hello.protocol_version() != kProtocolVersion) {
    return refuse(absl::FailedPreconditionError(
        absl::StrCat("protocol version ", hello.protocol_version(), ", this daemon speaks ",
                     kProtocolVersion)));
  }
  if (hello.sender() != *who) {
    return refuse(absl::PermissionDeniedError(
        absl::StrCat("relay hello from \"", hello.sender(), "\" but the TLS certificate is \"",
                     *who, "\"'s")));
  }

  auto conn = std::make_shared<Connection>(*who, context);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (shutdown_) return ToGrpcStatus(absl::UnavailableError("the coordinator is shutting down"));
    auto it = connections_.find(*who);
    if (it != connections_.end()) {
      spdlog::warn("relay: party {} connected again; ending its older stream", *who);
      it->second->open = false;
      it->second->context->TryCancel();
      it->second->writable.notify_all();
    }
    connections_[*who] = conn;
    changed_.notify_all();
  }
  spdlog::info("relay: party {} connected ({})", *who, peer);

  std::thread writer([&] {
    for (;;) {
      pplda::v1::RelayDown down;
      {
        std::unique_lock<std::mutex> lock(mu_);
        conn->writable.wait(lock, [&] { return !conn->queue.empty() || !conn->open; });
        if (!conn->open) return;
        down = std::move(conn->queue.front());
        conn->queue.pop_front();
      }
      Observe(Direction::kDown, *who, down);
      if (!stream->Write(down)) return;
    }
  });

  absl::Status refused;
  pplda::v1::RelayUp up;
  while (refused.ok() && stream->Read(&up)) {
    Observe(Direction::kUp, *who, up);
    switch (up.kind_case()) {
      case pplda::v1::RelayUp::kReply: {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = conn->pending.find(up.reply().call_id());
        if (it != conn->pending.end()) {
          it->second = std::move(*up.mutable_reply());
          changed_.notify_all();
        } else {
          spdlog::warn("relay: party {} answered call {}, which nobody waits for", *who,
                       up.reply().call_id());
        }
        break;
      }
      case pplda::v1::RelayUp::kFrame: {
        pplda::v1::SealedFrame& frame = *up.mutable_frame();
        if (frame.sender() != *who) {
          refused = absl::InvalidArgumentError(absl::StrCat(
              "party \"", *who, "\" sent a frame claiming sender \"", frame.sender(), "\""));
          break;
        }
        absl::StatusOr<Participant> receiver = consortium_.FindByName(frame.receiver());
        if (!receiver.ok() || !receiver->is_owner() || frame.receiver() == *who ||
            frame.run_id().empty()) {
          refused = absl::InvalidArgumentError(absl::StrCat(
              "party \"", *who, "\" sent a frame of run \"", frame.run_id(), "\" for \"",
              frame.receiver(), "\", which is not another participant of the runs"));
          break;
        }
        Route(*conn, std::move(frame));
        break;
      }
      default:
        refused = absl::InvalidArgumentError(absl::StrCat(
            "party \"", *who, "\" sent a message that is neither a reply nor a frame"));
    }
    up.Clear();
  }

  bool replaced = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    conn->open = false;
    conn->writable.notify_all();
    auto it = connections_.find(*who);
    if (it != connections_.end() && it->second == conn) {
      connections_.erase(it);
    } else {
      replaced = true;
    }
    changed_.notify_all();  // outstanding calls see the stream closed
  }
  writer.join();
  if (!refused.ok()) spdlog::warn("relay: ended the stream of {}: {}", *who, refused.ToString());
  spdlog::info("relay: party {}'s stream ended", *who);
  if (!replaced) {
    // Every other party's run with this one cannot go on.
    std::lock_guard<std::mutex> lock(mu_);
    if (!shutdown_) {
      for (auto& [name, other] : connections_) {
        pplda::v1::RelayDown down;
        pplda::v1::RelayNotice* notice = down.mutable_notice();
        notice->set_party(*who);
        notice->set_status_code(static_cast<int>(absl::StatusCode::kUnavailable));
        notice->set_status_message(
            absl::StrCat("party \"", *who, "\"'s stream to the coordinator's relay ended"));
        other->queue.push_back(std::move(down));
        other->writable.notify_all();
      }
    }
  }
  return ToGrpcStatus(refused);
}

void RelayHub::Route(Connection& from, pplda::v1::SealedFrame frame) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = connections_.find(frame.receiver());
  if (it == connections_.end() || !it->second->open) {
    pplda::v1::RelayDown down;
    pplda::v1::RelayNotice* notice = down.mutable_notice();
    notice->set_run_id(frame.run_id());
    notice->set_party(frame.receiver());
    notice->set_status_code(static_cast<int>(absl::StatusCode::kUnavailable));
    notice->set_status_message(absl::StrCat("party \"", frame.receiver(),
                                            "\" has no stream to the coordinator's relay; "
                                            "the frame was not delivered"));
    from.queue.push_back(std::move(down));
    from.writable.notify_all();
    return;
  }
  if (options_.frames_forwarded != nullptr) options_.frames_forwarded->Increment();
  if (options_.bytes_forwarded != nullptr) {
    options_.bytes_forwarded->Increment(static_cast<double>(frame.box().size()));
  }
  pplda::v1::RelayDown down;
  *down.mutable_frame() = std::move(frame);
  it->second->queue.push_back(std::move(down));
  it->second->writable.notify_all();
  ++forwarded_;
}

absl::StatusOr<pplda::v1::RelayedReply> RelayHub::Call(
    const std::string& party, pplda::v1::RelayedCall call,
    std::chrono::system_clock::time_point deadline) {
  absl::StatusOr<Participant> participant = consortium_.FindByName(party);
  if (!participant.ok()) return participant.status();
  if (!participant->is_owner()) {
    return absl::NotFoundError(absl::StrCat("\"", party, "\" is the coordinator"));
  }
  std::unique_lock<std::mutex> lock(mu_);
  const auto grace = std::min(deadline, std::chrono::system_clock::now() + options_.connect_grace);
  std::shared_ptr<Connection> conn;
  changed_.wait_until(lock, grace, [&] {
    auto it = connections_.find(party);
    if (it != connections_.end() && it->second->open) conn = it->second;
    return conn != nullptr || shutdown_;
  });
  if (shutdown_) return absl::UnavailableError("the coordinator's relay is shutting down");
  if (conn == nullptr) {
    return absl::UnavailableError(absl::StrCat(
        "party \"", party, "\" is not connected to the coordinator's relay (relay mode: its "
        "daemon dials the coordinator; is it running?)"));
  }
  const uint64_t id = next_call_id_++;
  call.set_call_id(id);
  conn->pending.emplace(id, std::nullopt);
  pplda::v1::RelayDown down;
  *down.mutable_call() = std::move(call);
  conn->queue.push_back(std::move(down));
  conn->writable.notify_all();
  const bool answered = changed_.wait_until(lock, deadline, [&] {
    return conn->pending[id].has_value() || !conn->open;
  });
  std::optional<pplda::v1::RelayedReply> reply = std::move(conn->pending[id]);
  conn->pending.erase(id);
  if (reply.has_value()) return *std::move(reply);
  if (!answered) {
    return absl::DeadlineExceededError(
        absl::StrCat("party \"", party, "\" did not answer relayed call ", id, " in time"));
  }
  return absl::UnavailableError(absl::StrCat(
      "party \"", party, "\"'s stream to the coordinator's relay ended before it answered"));
}

}  // namespace pplda::net
