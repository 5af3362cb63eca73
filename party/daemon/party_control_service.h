// PartyControlService: the gRPC adapter of a party daemon's RunSession
// (party/run_session.h: a compute party's PartySession or a data holder's
// HolderSession, by the daemon's role),
// the PartyControl service of proto/party_control_service.proto. It owns the
// party's one active run: every call is authenticated (net/request_check.h:
// protocol version, pinned certificate, caller must be the consortium's
// coordinator), routed by run id (NotFound for another run), and run under a
// lock, with the session's status mapped one to one. Join creates the run's
// transport (the TransportFactory: a GrpcPartyTransport registered with the
// daemon's PartyLinkService, or in relay mode a RelayPartyTransport) and
// session; a second Join of the same run is AlreadyExists. (Formerly: a
// run failed, was aborted or was published; a Join for another run drops
// the current one whatever its state (the coordinator runs one run at a
// time) and removes every other run's run state. Abort (no lock wait) shuts the
// run's transport down, which fails any step in progress; with
// run_published, for a run this party published, it ends the run instead:
// its last boundary's state, kept so that an interrupted publication can
// run again, is removed (as it is when another run's Join drops the
// published one). A step that fails
// the session shuts the transport down too: its links are cancelled, so the
// other parties' receives fail at once rather than at their timeout.
// The logic is callable without gRPC (Handle*): relay mode hands it the
// coordinator's calls that arrived over the party's outbound stream
// (net/relay_client.h), where the caller is the coordinator by construction
// (the stream's server presented the coordinator's pinned certificate);
// Handle* checks the header (protocol version: FailedPrecondition; sender
// must be the coordinator's name: PermissionDenied; missing:
// InvalidArgument) and runs the step; HandleRelayed wraps them for a
// RelayedCall.
// Thread-safety: gRPC calls the methods concurrently; they serialise.
#ifndef PPLDA_PARTY_DAEMON_PARTY_CONTROL_SERVICE_H_
#define PPLDA_PARTY_DAEMON_PARTY_CONTROL_SERVICE_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "net/consortium_file.h"
#include "net/metrics_registry.h"
#include "net/run_transport.h"
#include "party/party_session.h"
#include "party/run_session.h"
#include "proto/party_control_service.grpc.pb.h"
#include "proto/relay_service.pb.h"

namespace pplda::party {

struct PartyMetrics {
  net::Counter* iterations = nullptr;
  net::Counter* errors = nullptr;
  net::Counter* mpc_bytes_sent = nullptr;
  net::Counter* mpc_rounds = nullptr;
  net::Gauge* iteration = nullptr;
  std::map<std::string, net::Counter*> phase_seconds;
  // `role` labels pplda_party_role (1): "compute", "data" or "both".
  static absl::StatusOr<PartyMetrics> Register(net::MetricsRegistry& registry,
                                               std::string_view role = "both");
};

// The id a run's links carry in their frames: the run id, and for the
// attempt-th resumption (attempt >= 1) "<run id>#resume-<attempt>".
std::string LinkRunId(const std::string& run_id, uint32_t attempt);

class PartyControlService final : public pplda::v1::PartyControl::Service {
 public:
  // The MPC transport of a run this party joins, given the id of its links
  // (LinkRunId).
  using TransportFactory =
      std::function<absl::StatusOr<std::unique_ptr<net::RunTransport>>(const std::string& run_id)>;

  // Everything given must outlive the service.
  PartyControlService(std::string name, const net::Consortium& consortium,
                      TransportFactory make_transport, PartyResources resources,
                      PartyMetrics metrics);

  grpc::Status Join(grpc::ServerContext* context, const pplda::v1::JoinRequest* request,
                    pplda::v1::JoinReply* reply) override;
  grpc::Status Vocabulary(grpc::ServerContext* context, const pplda::v1::VocabularyRequest* request,
                          pplda::v1::VocabularyReply* reply) override;
  grpc::Status Prepare(grpc::ServerContext* context, const pplda::v1::PrepareRequest* request,
                       pplda::v1::PrepareReply* reply) override;
  grpc::Status Iterate(grpc::ServerContext* context, const pplda::v1::IterateRequest* request,
                       pplda::v1::IterateReply* reply) override;
  grpc::Status Publish(grpc::ServerContext* context, const pplda::v1::PublishRequest* request,
                       pplda::v1::PublishReply* reply) override;
  grpc::Status Abort(grpc::ServerContext* context, const pplda::v1::AbortRequest* request,
                     pplda::v1::AbortReply* reply) override;
  grpc::Status Resume(grpc::ServerContext* context, const pplda::v1::ResumeRequest* request,
                      pplda::v1::ResumeReply* reply) override;

  // The steps, for a caller already known to be the coordinator.
  absl::Status HandleJoin(const pplda::v1::JoinRequest& request, pplda::v1::JoinReply* reply);
  absl::Status HandleVocabulary(const pplda::v1::VocabularyRequest& request,
                                pplda::v1::VocabularyReply* reply);
  absl::Status HandlePrepare(const pplda::v1::PrepareRequest& request,
                             pplda::v1::PrepareReply* reply);
  absl::Status HandleIterate(const pplda::v1::IterateRequest& request,
                             pplda::v1::IterateReply* reply);
  absl::Status HandlePublish(const pplda::v1::PublishRequest& request,
                             pplda::v1::PublishReply* reply);
  absl::Status HandleAbort(const pplda::v1::AbortRequest& request);
  absl::Status HandleResume(const pplda::v1::ResumeRequest& request, pplda::v1::ResumeReply* reply);
  // One relayed call: the step its request names, the status in the reply
  // (InvalidArgument for a call without a request).
  pplda::v1::RelayedReply HandleRelayed(const pplda::v1::RelayedCall& call);

  // Shuts the active run's transport down (daemon shutdown).
  void Shutdown(const absl::Status& cause);

 private:
  absl::Status Check(const grpc::ServerContext& context, bool has_header,
                     const pplda::v1::WireHeader& header) const;
  // The header checks of a caller known to be the coordinator.
  absl::Status CheckHeader(bool has_header, const pplda::v1::WireHeader& header) const;
  // The active session for `run_id` (NotFound otherwise); caller holds mu_.
  absl::StatusOr<RunSession*> SessionFor(const std::string& run_id);
  // This daemon's kind of session, new or resumed (resources_.data_index).
  absl::StatusOr<std::unique_ptr<RunSession>> NewSession(const std::string& run_id,
                                                         const pplda::v1::RunParameters& parameters,
                                                         crypto::PartyTransport& transport);
  absl::StatusOr<std::unique_ptr<RunSession>> ResumeSession(
      const std::string& run_id, const pplda::v1::RunParameters& parameters,
      crypto::PartyTransport& transport, int iteration);
  absl::Status DoJoin(const pplda::v1::JoinRequest& request, pplda::v1::JoinReply* reply);
  // Resume's checks, before anything is touched: the header, the run id, an
  // attempt above the last one this party took for the run. Caller holds mu_.
  absl::Status CheckResume(const pplda::v1::ResumeRequest& request) const;
  absl::Status DoResume(const pplda::v1::ResumeRequest& request, pplda::v1::ResumeReply* reply);
  // Replaces the run's transport (the session using the old one is gone),
  // its links at iteration `boundary` (the iterations already done).
  absl::StatusOr<std::shared_ptr<net::RunTransport>> NewTransport(const std::string& run_id,
                                                                  uint32_t attempt, int boundary);
  // Logs and counts a failed call; when it failed the run's session, also
  // ends this party's MPC links so the other parties stop waiting.
  // Caller holds mu_.
  absl::Status Finish(const absl::Status& status, std::string_view what, const std::string& run);
  // After a failed step: flushes what this party sent and half-closes its
  // links (at most kFailedLinkFlush), then cancels what is left.
  void EndLinksAfterFailure(const absl::Status& cause);
  // Removes the run state of a run that is over (logged).
  void ForgetPublishedRun(const std::string& run_id);
  // At a Join of `run_id`: removes the run state of every other run.
  void ForgetOtherRuns(const std::string& run_id);
  static constexpr std::chrono::milliseconds kFailedLinkFlush{2000};

  const std::string name_;
  const net::Consortium& consortium_;
  const TransportFactory make_transport_;
  const PartyResources resources_;
  PartyMetrics metrics_;

  std::mutex mu_;  // serialises the run's steps
  std::unique_ptr<RunSession> session_;
  std::mutex transport_mu_;  // guards transport_ (Abort and Shutdown do not wait for mu_)
  std::shared_ptr<net::RunTransport> transport_;
  std::string transport_run_;  // the run transport_ serves (its links' id may differ)
  std::atomic<bool> aborted_{false};
  std::string last_resume_run_;  // guarded by mu_
  uint32_t last_resume_attempt_ = 0;
};

}  // namespace pplda::party

#endif  // PPLDA_PARTY_DAEMON_PARTY_CONTROL_SERVICE_H_
