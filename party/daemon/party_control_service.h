// PartyControlService: the gRPC adapter of PartySession (party_session.h),
// the PartyControl service of proto/party_control_service.proto. It owns the
// party's one active run: every call is authenticated (net/request_check.h:
// protocol version, pinned certificate, caller must be the consortium's
// coordinator), routed by run id (NotFound for another run), and run under a
// lock, with the session's status mapped one to one. Join creates the run's
// GrpcPartyTransport (registered with the daemon's PartyLinkService) and
// session; a Join while another run is active is AlreadyExists, unless that
// run failed, was aborted or was published. Abort (no lock wait) shuts the
// run's transport down, which fails any step in progress.
// Thread-safety: gRPC calls the methods concurrently; they serialise.
#ifndef PPLDA_PARTY_DAEMON_PARTY_CONTROL_SERVICE_H_
#define PPLDA_PARTY_DAEMON_PARTY_CONTROL_SERVICE_H_

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "net/consortium_file.h"
#include "net/grpc_party_transport.h"
#include "net/metrics_registry.h"
#include "net/party_link_service.h"
#include "net/tls_identity.h"
#include "party/party_session.h"
#include "proto/party_control_service.grpc.pb.h"

namespace pplda::party {

struct PartyMetrics {
  net::Counter* iterations = nullptr;
  net::Counter* errors = nullptr;
  net::Counter* mpc_bytes_sent = nullptr;
  net::Counter* mpc_rounds = nullptr;
  net::Gauge* iteration = nullptr;
  std::map<std::string, net::Counter*> phase_seconds;
  static absl::StatusOr<PartyMetrics> Register(net::MetricsRegistry& registry);
};

class PartyControlService final : public pplda::v1::PartyControl::Service {
 public:
  // Everything given must outlive the service.
  PartyControlService(std::string name, const net::Consortium& consortium,
                      const net::TlsIdentity& identity, net::PartyLinkService& links,
                      PartyResources resources, std::chrono::milliseconds receive_timeout,
                      PartyMetrics metrics);

  grpc::Status Join(grpc::ServerContext* context, const pplda::v1::JoinRequest* request,
                    pplda::v1::JoinReply* reply) override;
  grpc::Status Prepare(grpc::ServerContext* context, const pplda::v1::PrepareRequest* request,
                       pplda::v1::PrepareReply* reply) override;
  grpc::Status Iterate(grpc::ServerContext* context, const pplda::v1::IterateRequest* request,
                       pplda::v1::IterateReply* reply) override;
  grpc::Status Publish(grpc::ServerContext* context, const pplda::v1::PublishRequest* request,
                       pplda::v1::PublishReply* reply) override;
  grpc::Status Abort(grpc::ServerContext* context, const pplda::v1::AbortRequest* request,
                     pplda::v1::AbortReply* reply) override;

  // Shuts the active run's transport down (daemon shutdown).
  void Shutdown(const absl::Status& cause);

 private:
  absl::Status Check(const grpc::ServerContext& context, bool has_header,
                     const pplda::v1::WireHeader& header) const;
  // The active session for `run_id` (NotFound otherwise); caller holds mu_.
  absl::StatusOr<PartySession*> SessionFor(const std::string& run_id);
  absl::Status DoJoin(const pplda::v1::JoinRequest& request, pplda::v1::JoinReply* reply);
  grpc::Status Finish(const absl::Status& status, std::string_view what, const std::string& run);

  const std::string name_;
  const net::Consortium& consortium_;
  const net::TlsIdentity& identity_;
  net::PartyLinkService& links_;
  const PartyResources resources_;
  const std::chrono::milliseconds receive_timeout_;
  PartyMetrics metrics_;

  std::mutex mu_;  // serialises the run's steps
  std::unique_ptr<PartySession> session_;
  std::mutex transport_mu_;  // guards transport_ (Abort and Shutdown do not wait for mu_)
  std::shared_ptr<net::GrpcPartyTransport> transport_;
  std::atomic<bool> aborted_{false};
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DAEMON_PARTY_CONTROL_SERVICE_H_
