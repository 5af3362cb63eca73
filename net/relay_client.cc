#include "net/relay_client.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "grpcpp/create_channel.h"
#include "net/grpc_status.h"
#include "net/protocol_version.h"
#include "spdlog/spdlog.h"

namespace pplda::net {
namespace {

// A peer channel to the coordinator that redials at most every 2 s after a
// failed connection (gRPC's default backoff grows to 120 s: a coordinator
// restart would leave the party unreachable for minutes).
std::shared_ptr<grpc::Channel> RelayChannel(const TlsIdentity& identity,
                                            const RelayClient::Options& options) {
  grpc::ChannelArguments args = PeerChannelArguments(
      options.coordinator_name, MaxMessageBytes(options.max_payload_bytes));
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 200);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
  return grpc::CreateCustomChannel(options.coordinator_address, identity.channel_credentials(),
                                   args);
}

}  // namespace

RelayClient::RelayClient(Options options, const TlsIdentity& identity, CallHandler handler)
    : options_(std::move(options)),
      handler_(std::move(handler)),
      channel_(RelayChannel(identity, options_)),
      thread_([this] { Run(); }) {}

RelayClient::~RelayClient() { Stop(); }

bool RelayClient::WaitConnected(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return connected_ || stopping_; }) && connected_;
}

bool RelayClient::connected() const {
  std::lock_guard<std::mutex> lock(mu_);
  return connected_;
}

void RelayClient::Stop() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (!stopping_) {
      stopping_ = true;
      cv_.notify_all();
      // The writer half-closes after the queued messages; the coordinator
      // then ends the stream. Cancel if it does not within 2 s.
      if (!cv_.wait_for(lock, std::chrono::seconds(2), [&] { return context_ == nullptr; }) &&
          context_ != nullptr) {
        context_->TryCancel();
      }
    }
  }
  if (thread_.joinable()) thread_.join();
  std::list<std::unique_ptr<CallThread>> calls;
  {
    std::lock_guard<std::mutex> lock(mu_);
    calls.swap(call_threads_);
  }
  for (auto& call : calls) call->thread.join();
}

absl::Status RelayClient::Forward(pplda::v1::SealedFrame frame) {
  pplda::v1::RelayUp up;
  *up.mutable_frame() = std::move(frame);
  std::lock_guard<std::mutex> lock(mu_);
  if (!connected_) {
    return absl::UnavailableError(absl::StrCat("party ", options_.name,
                                               " has no open stream to the coordinator's relay at ",
                                               options_.coordinator_address));
  }
  outgoing_.push_back(std::move(up));
  cv_.notify_all();
  return absl::OkStatus();
}

void RelayClient::Enqueue(pplda::v1::RelayUp message) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!connected_) return;  // the stream it answered is gone
  outgoing_.push_back(std::move(message));
  cv_.notify_all();
}

absl::Status RelayClient::Attach(const std::string& run_id, RelayPartyTransport* transport) {
  std::lock_guard<std::mutex> lock(routes_mu_);
  auto [it, inserted] = routes_.try_emplace(run_id, transport);
  if (!inserted) {
    return absl::AlreadyExistsError(absl::StrCat("run ", run_id,
                                                 " already has a relay transport at party ",
                                                 options_.name));
  }
  return absl::OkStatus();
}

void RelayClient::Detach(const std::string& run_id, const RelayPartyTransport* transport) {
  std::lock_guard<std::mutex> lock(routes_mu_);
  auto it = routes_.find(run_id);
  if (it != routes_.end() && it->second == transport) routes_.erase(it);
}

void RelayClient::Disconnect(const absl::Status& why) {
  std::lock_guard<std::mutex> lock(routes_mu_);
  for (auto& [run, transport] : routes_) transport->Disconnected(why);
}

void RelayClient::HandleCall(pplda::v1::RelayedCall call) {
  std::list<std::unique_ptr<CallThread>> finished;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = call_threads_.begin(); it != call_threads_.end();) {
      auto next = std::next(it);
      if ((*it)->done) finished.splice(finished.end(), call_threads_, it);
      it = next;
    }
    if (!stopping_) {
      auto entry = std::make_unique<CallThread>();
      CallThread* self = entry.get();
      call_threads_.push_back(std::move(entry));
      self->thread = std::thread([this, self, call = std::move(call)] {
        pplda::v1::RelayUp up;
        *up.mutable_reply() = handler_(call);
        up.mutable_reply()->set_call_id(call.call_id());
        Enqueue(std::move(up));
        std::lock_guard<std::mutex> lock(mu_);
        self->done = true;
      });
    }
  }
  for (auto& done : finished) done->thread.join();
}

void RelayClient::Run() {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) break;
    }
    const absl::Status ended = Session();
    Disconnect(ended);
    std::unique_lock<std::mutex> lock(mu_);
    if (stopping_) break;
    spdlog::warn("relay: stream to the coordinator at {} ended: {}; dialling again",
                 options_.coordinator_address, ended.ToString());
    cv_.wait_for(lock, options_.retry_delay, [&] { return stopping_; });
  }
}

absl::Status RelayClient::Session() {
  using SystemClock = std::chrono::system_clock;
  const SystemClock::time_point started = SystemClock::now();
  bool warned = false;
  while (!channel_->WaitForConnected(SystemClock::now() + std::chrono::milliseconds(100))) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return absl::CancelledError("stopped");
    }
    if (!warned && SystemClock::now() - started > std::chrono::seconds(10)) {
      spdlog::warn("relay: cannot reach the coordinator at {} yet (down, or TLS refused); "
                   "still trying",
                   options_.coordinator_address);
      warned = true;
    }
  }
  grpc::ClientContext context;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return absl::CancelledError("stopped");
    context_ = &context;
  }
  auto clear_context = [&] {
    std::lock_guard<std::mutex> lock(mu_);
    connected_ = false;
    outgoing_.clear();
    context_ = nullptr;
    cv_.notify_all();
  };
  auto stub = pplda::v1::Relay::NewStub(channel_);
  std::unique_ptr<grpc::ClientReaderWriter<pplda::v1::RelayUp, pplda::v1::RelayDown>> stream =
      stub->Connect(&context);
  std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  absl::StatusOr<std::string> fingerprint =
      auth ? PeerFingerprint(*auth) : absl::UnauthenticatedError("no TLS session");
  if (!fingerprint.ok() || *fingerprint != options_.coordinator_fingerprint) {
    context.TryCancel();
    stream->Finish();
    clear_context();
    return absl::PermissionDeniedError(absl::StrCat(
        "the relay at ", options_.coordinator_address, " presented certificate ",
        fingerprint.ok() ? *fingerprint : std::string(fingerprint.status().message()),
        ", not the coordinator's pinned ", options_.coordinator_fingerprint));
  }
  pplda::v1::RelayUp hello;
  hello.mutable_hello()->mutable_header()->set_protocol_version(kProtocolVersion);
  hello.mutable_hello()->mutable_header()->set_sender(options_.name);
  if (!stream->Write(hello)) {
    const grpc::Status status = stream->Finish();
    clear_context();
    return FromGrpcStatus(status);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    connected_ = true;
    cv_.notify_all();
  }
  spdlog::info("relay connected: party {} reaches the coordinator {} at {} (outbound stream, "
               "mutual TLS)",
               options_.name, options_.coordinator_name, options_.coordinator_address);

  bool reading = true;  // guarded by mu_
  std::thread writer([&] {
    for (;;) {
      pplda::v1::RelayUp up;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return !outgoing_.empty() || stopping_ || !reading; });
        if (outgoing_.empty()) {
          if (stopping_ && reading) {
            lock.unlock();
            stream->WritesDone();
          }
          return;
        }
        up = std::move(outgoing_.front());
        outgoing_.pop_front();
      }
      if (!stream->Write(up)) return;  // the reader sees the end
    }
  });

  pplda::v1::RelayDown down;
  while (stream->Read(&down)) {
    switch (down.kind_case()) {
      case pplda::v1::RelayDown::kCall:
        HandleCall(std::move(*down.mutable_call()));
        break;
      case pplda::v1::RelayDown::kFrame: {
        std::lock_guard<std::mutex> lock(routes_mu_);
        auto it = routes_.find(down.frame().run_id());
        if (it != routes_.end()) {
          it->second->Deliver(down.frame());
        } else {
          spdlog::warn("relay: dropped a sealed frame from {} for run {}, which this party has "
                       "no transport for",
                       down.frame().sender(), down.frame().run_id());
        }
        break;
      }
      case pplda::v1::RelayDown::kNotice: {
        std::lock_guard<std::mutex> lock(routes_mu_);
        for (auto& [run, transport] : routes_) {
          if (down.notice().run_id().empty() || down.notice().run_id() == run) {
            transport->Notice(down.notice());
          }
        }
        break;
      }
      default:
        spdlog::warn("relay: ignored an empty message from the coordinator");
    }
    down.Clear();
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    reading = false;
    connected_ = false;
    cv_.notify_all();
  }
  writer.join();
  const grpc::Status status = stream->Finish();
  clear_context();
  if (status.ok()) return absl::UnavailableError("the coordinator ended the stream");
  return FromGrpcStatus(status);
}

}  // namespace pplda::net
