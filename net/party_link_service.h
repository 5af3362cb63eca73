// PartyLinkService: the server side of proto/party_link.proto, one per
// party daemon, shared by every run the daemon takes part in. It accepts
// the streams other compute parties open to this one, authenticates each
// stream by its client certificate (pinned in the consortium file), checks
// every frame and hands it to the FrameInbox that the run's
// GrpcPartyTransport registered under the frame's run id.
//
// Checks on every frame, in this order; the first failure ends the stream
// with that status (the client sees it at Finish), is logged with spdlog
// (run, sender, iteration, round, payload size; never payload bytes) and
// counted, and leaves the run's queues as they were:
//   PermissionDenied    the client certificate is pinned by no participant
//                       (checked once per stream, before any frame)
//   InvalidArgument     malformed: no header
//   FailedPrecondition  header.protocol_version != kProtocolVersion
//                       ("protocol version X, this daemon speaks 1")
//   PermissionDenied    header.sender is not the certificate's participant
//   InvalidArgument     malformed: empty run id, negative iteration, round 0
//   NotFound            no run registered under header.run_id (a stream's
//                       first frame waits up to unknown_run_grace for the
//                       run to be registered: peers start a run at slightly
//                       different times)
//   PermissionDenied /  FrameInbox::Accept: sender not a compute party of
//   ResourceExhausted / the run, payload over the limit, stale position,
//   FailedPrecondition/ position too far ahead, run shut down
//   OutOfRange/Aborted
// Bytes that do not decode as an MpcFrame, or a message over gRPC's size
// limit, are refused by gRPC itself (INTERNAL / RESOURCE_EXHAUSTED).
// A stream that ends normally gets LinkClosed; then (or when it is
// cancelled) the runs it delivered to learn that the sender's link ended.
//
// The server that hosts the service must accept messages of
// MaxMessageBytes(max payload) and keepalive pings (ConfigureServerBuilder
// does both) and use a TlsIdentity's server credentials (client
// certificates required).
// Thread-safety: all methods may be called from any thread; gRPC calls
// Stream concurrently, one thread per open stream. The consortium must
// outlive the service.
#ifndef PPLDA_NET_PARTY_LINK_SERVICE_H_
#define PPLDA_NET_PARTY_LINK_SERVICE_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "grpcpp/server_builder.h"
#include "net/consortium_file.h"
#include "net/frame_inbox.h"
#include "net/message_limits.h"
#include "proto/party_link.grpc.pb.h"

namespace pplda::net {

// The wire-level checks of one frame that need no run, in the order above:
// header present, protocol version, sender equal to `authenticated` (the
// stream's certificate's participant), non-empty run id, iteration >= 0,
// round >= 1. Pure function (the fuzz target fuzz_mpc_frames calls it).
absl::Status CheckMpcFrameHeader(const pplda::v1::MpcFrame& frame,
                                 const std::string& authenticated);

class PartyLinkService final : public pplda::v1::PartyLink::Service {
 public:
  struct Options {
    std::chrono::milliseconds unknown_run_grace{10000};
  };

  explicit PartyLinkService(const Consortium& consortium) : PartyLinkService(consortium, {}) {}
  PartyLinkService(const Consortium& consortium, Options options);

  // Routes frames of inbox->run_id() to `inbox`. AlreadyExists when another
  // inbox is registered under that run id.
  absl::Status Register(std::shared_ptr<FrameInbox> inbox);
  // Removes `inbox` if it is the one registered under its run id.
  void Unregister(const FrameInbox& inbox);

  // Frames refused so far, by status code.
  std::map<absl::StatusCode, uint64_t> RefusedFrames() const;
  uint64_t AcceptedFrames() const;

  grpc::Status Stream(grpc::ServerContext* context,
                      grpc::ServerReader<pplda::v1::MpcFrame>* reader,
                      pplda::v1::LinkClosed* response) override;

 private:
  absl::StatusOr<std::shared_ptr<FrameInbox>> FindRun(const std::string& run_id, bool wait);
  void CountRefusal(absl::StatusCode code);

  const Consortium& consortium_;
  const Options options_;
  mutable std::mutex mu_;
  std::condition_variable registered_;
  std::map<std::string, std::shared_ptr<FrameInbox>, std::less<>> runs_;
  std::map<absl::StatusCode, uint64_t> refused_;
  uint64_t accepted_ = 0;
};

// Sets the server's max receive and send message sizes for frames of up to
// max_payload_bytes, and lets clients keep idle links alive with pings
// (kKeepaliveTimeMs). Every pplda gRPC server should use it.
void ConfigureServerBuilder(grpc::ServerBuilder& builder,
                            size_t max_payload_bytes = kDefaultMaxPayloadBytes);

}  // namespace pplda::net

#endif  // PPLDA_NET_PARTY_LINK_SERVICE_H_
