#include "net/grpc_party_transport.h"

#include <algorithm>
#include <climits>
#include <condition_variable>
#include <deque>
#include <set>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "net/grpc_status.h"
#include "net/protocol_version.h"
#include "proto/party_link.grpc.pb.h"
#include "spdlog/spdlog.h"

namespace pplda::net {

using Clock = std::chrono::steady_clock;

// The outgoing half of one ordered pair: a queue of frames and the thread
// that writes them to the peer's PartyLink stream.
class GrpcPartyTransport::PeerLink {
 public:
  PeerLink(GrpcPartyTransport* owner, int peer, PartyEndpoint endpoint,
           std::shared_ptr<grpc::Channel> channel, std::chrono::milliseconds connect_timeout)
      : owner_(owner),
        peer_(peer),
        endpoint_(std::move(endpoint)),
        channel_(std::move(channel)),
        connect_timeout_(connect_timeout),
        thread_([this] { Run(); }) {}

  ~PeerLink() {
    Cancel();
    Join();
  }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

  void Enqueue(pplda::v1::MpcFrame frame) {
    std::lock_guard<std::mutex> lock(mu_);
    if (cancelled_ || closing_) return;
    queue_.push_back(std::move(frame));
    cv_.notify_all();
  }
  void RequestOpen() {
    std::lock_guard<std::mutex> lock(mu_);
    open_requested_ = true;
    cv_.notify_all();
  }
  // True once the stream is open (or the link is finished either way).
  bool WaitOpen(Clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_until(lock, deadline, [&] { return opened_ || done_; });
  }
  void BeginClose() {
    std::lock_guard<std::mutex> lock(mu_);
    closing_ = true;
    cv_.notify_all();
  }
  bool WaitDone(Clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_until(lock, deadline, [&] { return done_; });
  }
  void Cancel() {
    std::lock_guard<std::mutex> lock(mu_);
    if (cancelled_) return;
    cancelled_ = true;
    queue_.clear();
    context_.TryCancel();
    cv_.notify_all();
  }
  bool opened() const {
    std::lock_guard<std::mutex> lock(mu_);
    return opened_;
  }
  absl::Status error() const {
    std::lock_guard<std::mutex> lock(mu_);
    return error_;
  }
  const PartyEndpoint& endpoint() const { return endpoint_; }

 private:
  std::string Describe() const {
    return absl::StrCat("party ", peer_, " (", endpoint_.name, " at ", endpoint_.address, ")");
  }

  // Records the link's failure and shuts the transport down with it (unless
  // the transport is already shutting the link down).
  void Fail(absl::Status status) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (cancelled_) return;
      error_ = status;
    }
    spdlog::error("party link: run {}: {}", owner_->run_id(), std::string(status.message()));
    owner_->FailLink(status);
  }

  void Finish(bool ok, absl::Status status) {
    if (!ok) Fail(std::move(status));
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    cv_.notify_all();
  }

  void Run() {
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return open_requested_ || !queue_.empty() || closing_ || cancelled_; });
      if (cancelled_ || (closing_ && queue_.empty() && !open_requested_)) {
        done_ = true;
        cv_.notify_all();
        return;
      }
    }
    // Wait for the TLS connection in short slices, so that Cancel is prompt.
    using SystemClock = std::chrono::system_clock;  // gRPC's deadlines
    const SystemClock::time_point connect_deadline = SystemClock::now() + connect_timeout_;
    while (!channel_->WaitForConnected(
        std::min(connect_deadline, SystemClock::now() + std::chrono::milliseconds(100)))) {
      bool cancelled;
      {
        std::lock_guard<std::mutex> lock(mu_);
        cancelled = cancelled_;
      }
      if (cancelled) {
        Finish(true, absl::OkStatus());
        return;
      }
      if (SystemClock::now() >= connect_deadline) {
        Finish(false, absl::UnavailableError(absl::StrCat(
                          "cannot connect to ", Describe(), " within ", connect_timeout_.count(),
                          " ms (daemon down, address wrong, or TLS handshake refused)")));
        return;
      }
    }
    auto stub = pplda::v1::PartyLink::NewStub(channel_);
    pplda::v1::LinkClosed response;
    std::unique_ptr<grpc::ClientWriter<pplda::v1::MpcFrame>> writer =
        stub->Stream(&context_, &response);
    // The server's certificate must be the one pinned for this peer (the CA
    // and the target name were checked by TLS).
    std::shared_ptr<const grpc::AuthContext> auth = context_.auth_context();
    absl::StatusOr<std::string> fingerprint =
        auth ? PeerFingerprint(*auth) : absl::UnauthenticatedError("no TLS session");
    if (!fingerprint.ok() || *fingerprint != endpoint_.cert_fingerprint) {
      context_.TryCancel();
      writer->Finish();
      Finish(false, absl::PermissionDeniedError(absl::StrCat(
                        Describe(), " presented certificate ",
                        fingerprint.ok() ? *fingerprint : std::string(fingerprint.status().message()),
                        ", not the pinned ", endpoint_.cert_fingerprint)));
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      opened_ = true;
      cv_.notify_all();
    }
    for (;;) {
      pplda::v1::MpcFrame frame;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return !queue_.empty() || closing_ || cancelled_; });
        if (cancelled_) break;
        if (queue_.empty()) {  // closing, everything written
          lock.unlock();
          writer->WritesDone();
          const grpc::Status status = writer->Finish();
          Finish(status.ok(), absl::Status(FromGrpcStatus(status).code(),
                                           absl::StrCat(Describe(), " closed the link with: ",
                                                        status.error_message())));
          return;
        }
        frame = std::move(queue_.front());
        queue_.pop_front();
      }
      if (!writer->Write(frame)) {
        const grpc::Status status = writer->Finish();
        Finish(false, absl::Status(FromGrpcStatus(status).code(),
                                   absl::StrCat("link to ", Describe(), " failed: ",
                                                status.error_message())));
        return;
      }
    }
    writer->Finish();
    Finish(true, absl::OkStatus());
  }

  GrpcPartyTransport* owner_;
  const int peer_;
  const PartyEndpoint endpoint_;
  std::shared_ptr<grpc::Channel> channel_;
  const std::chrono::milliseconds connect_timeout_;
  grpc::ClientContext context_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<pplda::v1::MpcFrame> queue_;
  bool open_requested_ = false;
  bool closing_ = false;
  bool cancelled_ = false;
  bool opened_ = false;
  bool done_ = false;
  absl::Status error_;
  std::thread thread_;  // last: starts after every member above exists
};

std::vector<PartyEndpoint> ComputePartyEndpoints(const Consortium& consortium) {
  std::vector<PartyEndpoint> out;
  for (const Participant& p : consortium.compute_parties()) {
    out.push_back(PartyEndpoint{p.name, p.address, p.cert_fingerprint});
  }
  return out;
}

std::vector<PartyEndpoint> OwnerEndpoints(const Consortium& consortium) {
  std::vector<PartyEndpoint> out;
  for (const Participant& p : consortium.owners()) {
    out.push_back(PartyEndpoint{p.name, p.address, p.cert_fingerprint});
  }
  return out;
}

absl::StatusOr<std::unique_ptr<GrpcPartyTransport>> GrpcPartyTransport::Create(
    Options options, const TlsIdentity& identity, PartyLinkService& service) {
  std::vector<std::string> names;
  for (const PartyEndpoint& p : options.parties) names.push_back(p.name);
  ASSIGN_OR_RETURN(std::shared_ptr<FrameInbox> inbox, MakeInbox(options, std::move(names)));
  for (size_t i = 0; i < options.parties.size(); ++i) {
    const PartyEndpoint& p = options.parties[i];
    if (static_cast<int>(i) == options.party_id) continue;
    if (p.address.empty() || p.cert_fingerprint.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "party ", i, " (", p.name, ") needs an address and a pinned certificate fingerprint"));
    }
  }
  if (options.max_payload_bytes > size_t{INT_MAX} - kFrameOverheadBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_payload_bytes ", options.max_payload_bytes, " exceeds gRPC's 2 GiB message limit"));
  }
  RETURN_IF_ERROR(service.Register(inbox));
  return std::unique_ptr<GrpcPartyTransport>(
      new GrpcPartyTransport(std::move(options), identity, service, std::move(inbox)));
}

GrpcPartyTransport::GrpcPartyTransport(Options options, const TlsIdentity& identity,
                                       PartyLinkService& service, std::shared_ptr<FrameInbox> inbox)
    : InboxTransport(std::move(inbox), options.max_payload_bytes, options.initial_iteration),
      options_(std::move(options)),
      service_(service) {
  const int max_message = MaxMessageBytes(options_.max_payload_bytes);
  for (int j = 0; j < num_parties(); ++j) {
    if (j == party_id()) {
      links_.push_back(nullptr);
      continue;
    }
    const PartyEndpoint& peer = options_.parties[j];
    links_.push_back(std::make_unique<PeerLink>(
        this, j, peer, CreatePeerChannel(identity, peer.address, peer.name, max_message),
        options_.connect_timeout));
  }
}

GrpcPartyTransport::~GrpcPartyTransport() {
  if (!closed_) Shutdown(absl::CancelledError("transport destroyed"));
  // Join every writer before destroying any: a failing writer calls
  // Shutdown, which visits every link.
  for (auto& link : links_) {
    if (link) link->Join();
  }
  links_.clear();
  service_.Unregister(*inbox_);
}

absl::Status GrpcPartyTransport::Send(int to, uint64_t round, std::vector<uint8_t> payload) {
  RETURN_IF_ERROR(AdmitOutgoing(to, round, payload.size()));
  pplda::v1::MpcFrame frame;
  pplda::v1::WireHeader* header = frame.mutable_header();
  header->set_protocol_version(kProtocolVersion);
  header->set_run_id(options_.run_id);
  header->set_iteration(iteration());
  header->set_round(round);
  header->set_sender(options_.parties[party_id()].name);
  frame.set_payload(payload.data(), payload.size());
  const uint64_t bytes = payload.size();
  std::vector<uint8_t>().swap(payload);  // the frame has its own copy
  NoteSent(to, round, bytes);
  links_[to]->Enqueue(std::move(frame));
  return absl::OkStatus();
}

absl::Status GrpcPartyTransport::Connect(std::chrono::milliseconds timeout) {
  for (auto& link : links_) {
    if (link) link->RequestOpen();
  }
  const Clock::time_point deadline = Clock::now() + timeout;
  std::vector<std::string> missing;
  for (auto& link : links_) {
    if (!link) continue;
    if (!link->WaitOpen(deadline) || !link->opened()) {
      if (absl::Status error = link->error(); !error.ok()) return error;
      missing.push_back(absl::StrCat(link->endpoint().name, " at ", link->endpoint().address));
    }
  }
  if (!missing.empty()) {
    return absl::UnavailableError(absl::StrCat("run ", run_id(), ": no link within ",
                                               timeout.count(), " ms to ",
                                               absl::StrJoin(missing, ", ")));
  }
  return absl::OkStatus();
}

absl::Status GrpcPartyTransport::Close(std::chrono::milliseconds timeout) {
  if (closed_.exchange(true)) return absl::OkStatus();
  for (auto& link : links_) {
    if (link) link->BeginClose();
  }
  const Clock::time_point deadline = Clock::now() + timeout;
  absl::Status first;
  for (auto& link : links_) {
    if (!link) continue;
    if (!link->WaitDone(deadline)) {
      link->Cancel();
      if (first.ok()) {
        first = absl::DeadlineExceededError(absl::StrCat(
            "run ", run_id(), ": ", link->endpoint().name, " did not acknowledge the end of the link within ",
            timeout.count(), " ms"));
      }
    }
    if (absl::Status error = link->error(); first.ok() && !error.ok()) first = error;
  }
  inbox_->Shutdown(absl::CancelledError("transport closed"));
  service_.Unregister(*inbox_);
  return first;
}

void GrpcPartyTransport::Shutdown(const absl::Status& cause) {
  inbox_->Shutdown(cause);
  for (auto& link : links_) {
    if (link) link->Cancel();
  }
}

void GrpcPartyTransport::FailLink(const absl::Status& failure) {
  inbox_->Fail(failure);
  for (auto& link : links_) {
    if (link) link->Cancel();
  }
}

absl::StatusOr<crypto::NetworkStats> MergePartyStats(absl::Span<const crypto::NetworkStats> views) {
  const size_t n = views.size();
  crypto::NetworkStats merged;
  std::map<uint64_t, crypto::RoundTraffic> per_round;
  for (size_t p = 0; p < n; ++p) {
    if (views[p].parties.size() != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "party ", p, "'s view has ", views[p].parties.size(), " parties, expected ", n));
    }
    merged.parties.push_back(views[p].parties[p]);
    for (const crypto::RoundTraffic& r : views[p].per_round) {
      crypto::RoundTraffic& m = per_round[r.round];
      m.round = r.round;
      m.messages += r.messages;
      m.bytes += r.bytes;
    }
  }
  for (const auto& [round, r] : per_round) merged.per_round.push_back(r);
  merged.rounds = per_round.size();
  return merged;
}

}  // namespace pplda::net
