// RelayClient: a party's one outbound stream to the coordinator's relay
// (proto/relay_service.proto; the coordinator's side is RelayHub). It dials
// the coordinator with mutual TLS (TLS target name = the coordinator's
// participant name, its certificate checked against the pin), opens
// Relay.Connect, introduces itself with a RelayHello, and then:
//   - hands every RelayedCall to the CallHandler on a thread of its own
//     (calls may overlap: an Abort must not wait for an Iterate) and writes
//     the handler's RelayedReply back with the call's id; the caller is the
//     coordinator by construction (the stream's server presented the
//     coordinator's pinned certificate), so the handler checks only the
//     request headers;
//   - routes every SealedFrame and RelayNotice to the RelayPartyTransport
//     attached under its run id (frames of a run with no transport attached
//     are dropped with a warning: the coordinator starts the MPC only after
//     every party has joined the run);
//   - queues outgoing frames and replies for one writer thread.
// When the stream ends (coordinator restart, network), every attached
// transport learns it (Disconnected: its run fails with Unavailable), and
// the client dials again after retry_delay, until Stop.
// Errors: Forward is Unavailable while no stream is open.
// Thread-safety: every method may be called from any thread.
#ifndef PPLDA_NET_RELAY_CLIENT_H_
#define PPLDA_NET_RELAY_CLIENT_H_

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "net/message_limits.h"
#include "net/relay_party_transport.h"
#include "net/tls_identity.h"
#include "proto/relay_service.grpc.pb.h"

namespace pplda::net {

class RelayClient final : public RelayEndpoint {
 public:
  using CallHandler = std::function<pplda::v1::RelayedReply(const pplda::v1::RelayedCall&)>;

  struct Options {
    std::string name;                     // this participant
    std::string coordinator_name;         // TLS target name
    std::string coordinator_address;      // host:port
    std::string coordinator_fingerprint;  // pinned certificate
    size_t max_payload_bytes = kDefaultMaxPayloadBytes;
    std::chrono::milliseconds retry_delay{1000};
  };

  // Starts dialling at once. `identity` must outlive the client.
  RelayClient(Options options, const TlsIdentity& identity, CallHandler handler);
  ~RelayClient() override;  // Stop()

  // True once a stream is open (false when `timeout` passed first).
  bool WaitConnected(std::chrono::milliseconds timeout);
  bool connected() const;
  // Ends the stream (half-close after the queued messages), joins every
  // thread; no reconnection afterwards. Idempotent.
  void Stop();

  absl::Status Forward(pplda::v1::SealedFrame frame) override;
  absl::Status Attach(const std::string& run_id, RelayPartyTransport* transport) override;
  void Detach(const std::string& run_id, const RelayPartyTransport* transport) override;

 private:
  void Run();
  // One connection: returns when the stream ended (with its status).
  absl::Status Session();
  void Enqueue(pplda::v1::RelayUp message);
  void HandleCall(pplda::v1::RelayedCall call);
  void Disconnect(const absl::Status& why);

  const Options options_;
  CallHandler handler_;
  std::shared_ptr<grpc::Channel> channel_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  bool connected_ = false;
  std::deque<pplda::v1::RelayUp> outgoing_;
  grpc::ClientContext* context_ = nullptr;  // of the open stream, guarded by mu_
  // One thread per relayed call; finished ones are joined at the next call.
  struct CallThread {
    std::thread thread;
    bool done = false;  // guarded by mu_
  };
  std::list<std::unique_ptr<CallThread>> call_threads_;

  std::mutex routes_mu_;  // held while calling into a transport
  std::map<std::string, RelayPartyTransport*> routes_;

  std::thread thread_;  // last: starts after every member above exists
};

}  // namespace pplda::net

#endif  // PPLDA_NET_RELAY_CLIENT_H_
