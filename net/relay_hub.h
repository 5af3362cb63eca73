// RelayHub: the coordinator's side of relay mode, the Relay service of
// proto/relay_service.proto. It holds each owner's (compute party's or data holder's) one outbound
// stream (authenticated by the party's pinned client certificate), and
//   - forwards sealed MPC frames from one party's stream to another's, in
//     the order received (so each ordered pair keeps FIFO order). It checks
//     only the routing: the frame's sender must be the stream's
//     participant, its receiver another owner; it cannot open the box
//     (net/sealed_frame.h) and never tries. A frame for a party with no
//     stream is answered with a RelayNotice (Unavailable) to its sender;
//     when a party's stream ends, every other party gets a notice naming it,
//     so that runs stop at once instead of waiting for a receive timeout;
//   - carries the coordinator's PartyControl calls to relay-mode parties:
//     Call sends a RelayedCall with a fresh call id down the party's stream
//     and waits for the RelayedReply of that id (DeadlineExceeded at the
//     deadline, Unavailable when the stream ends first or the party has not
//     connected within the connect grace).
// Stream refusals (the stream ends with that status, logged):
//   PermissionDenied    client certificate pinned by no participant, or the
//                       coordinator's own; hello from another name
//   FailedPrecondition  hello with another protocol version
//   InvalidArgument     a first message that is not a RelayHello; a frame
//                       whose sender is not the stream's participant or
//                       whose receiver is not another owner
// A second stream of the same party replaces the first (which is
// cancelled): a party that reconnects wins.
// Observer: when set, sees the serialized bytes of every message read from
// or written to a party's stream (tests record them to show that the relay
// carries no plaintext share; a daemon leaves it unset).
// The server hosting the hub must accept messages of MaxMessageBytes and
// keepalive pings (ConfigureServerBuilder).
// Thread-safety: gRPC runs Connect concurrently, one thread per stream;
// Call, connected and connected_parties from any thread. The consortium
// must outlive the hub; destroy the hub after the server has shut down.
#ifndef PPLDA_NET_RELAY_HUB_H_
#define PPLDA_NET_RELAY_HUB_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "net/consortium_file.h"
#include "net/metrics_registry.h"
#include "proto/relay_service.grpc.pb.h"

namespace pplda::net {

class RelayHub final : public pplda::v1::Relay::Service {
 public:
  enum class Direction { kUp, kDown };  // party -> hub, hub -> party
  using Observer =
      std::function<void(Direction direction, const std::string& party, const std::string& bytes)>;

  struct Options {
    // How long Call waits for a party that has not connected (yet or again).
    std::chrono::milliseconds connect_grace{10000};
    Observer observer;
    // Optional Prometheus counters (the coordinator's registry).
    Counter* frames_forwarded = nullptr;
    Counter* bytes_forwarded = nullptr;  // sealed box bytes
  };

  explicit RelayHub(const Consortium& consortium) : RelayHub(consortium, Options()) {}
  RelayHub(const Consortium& consortium, Options options);
  ~RelayHub() override;

  grpc::Status Connect(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<pplda::v1::RelayDown, pplda::v1::RelayUp>* stream) override;

  // Sends `call` (its call_id is set here) to `party` and waits for the
  // reply until `deadline`. NotFound for a name that is not an owner.
  absl::StatusOr<pplda::v1::RelayedReply> Call(const std::string& party,
                                               pplda::v1::RelayedCall call,
                                               std::chrono::system_clock::time_point deadline);

  bool connected(const std::string& party) const;
  std::vector<std::string> connected_parties() const;
  // Blocks until every named party is connected or `timeout` passes.
  bool WaitConnected(const std::vector<std::string>& parties, std::chrono::milliseconds timeout);
  // Frames forwarded so far.
  uint64_t forwarded_frames() const;
  // Ends every stream (Cancelled) and fails outstanding calls.
  void Shutdown();

 private:
  class Connection;

  void Route(Connection& from, pplda::v1::SealedFrame frame);
  void Observe(Direction direction, const std::string& party,
               const google::protobuf::Message& message) const;

  const Consortium& consortium_;
  const Options options_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Connection>> connections_;
  uint64_t next_call_id_ = 1;
  uint64_t forwarded_ = 0;
  bool shutdown_ = false;
};

}  // namespace pplda::net

#endif  // PPLDA_NET_RELAY_HUB_H_
