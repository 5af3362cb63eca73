#include "party/daemon/party_control_service.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "net/grpc_status.h"
#include "net/request_check.h"
#include "party/protocol_wire.h"
#include "spdlog/spdlog.h"

namespace pplda::party {

absl::StatusOr<PartyMetrics> PartyMetrics::Register(net::MetricsRegistry& registry) {
  PartyMetrics m;
  ASSIGN_OR_RETURN(m.iterations, registry.AddCounter("pplda_party_iterations_total",
                                                     "Iterations this party completed"));
  ASSIGN_OR_RETURN(m.errors, registry.AddCounter("pplda_party_errors_total",
                                                 "Control calls that failed"));
  ASSIGN_OR_RETURN(m.mpc_bytes_sent, registry.AddCounter("pplda_party_mpc_bytes_sent_total",
                                                         "MPC payload bytes sent to peers"));
  ASSIGN_OR_RETURN(m.mpc_rounds, registry.AddCounter("pplda_party_mpc_rounds_total",
                                                     "MPC rounds this party took part in"));
  ASSIGN_OR_RETURN(m.iteration, registry.AddGauge("pplda_party_iteration",
                                                  "Last completed iteration of the active run"));
  for (const char* phase : {"selection", "exchange", "conversion", "weights", "draw", "update"}) {
    ASSIGN_OR_RETURN(m.phase_seconds[phase],
                     registry.AddCounter("pplda_party_phase_seconds_total",
                                         "Seconds spent per protocol phase", {{"phase", phase}}));
  }
  return m;
}

PartyControlService::PartyControlService(std::string name, const net::Consortium& consortium,
                                         const net::TlsIdentity& identity,
                                         net::PartyLinkService& links, PartyResources resources,
                                         std::chrono::milliseconds receive_timeout,
                                         PartyMetrics metrics)
    : name_(std::move(name)),
      consortium_(consortium),
      identity_(identity),
      links_(links),
      resources_(std::move(resources)),
      receive_timeout_(receive_timeout),
      metrics_(std::move(metrics)) {}

absl::Status PartyControlService::Check(const grpc::ServerContext& context, bool has_header,
                                        const pplda::v1::WireHeader& header) const {
  return net::CheckRequest(context, has_header, header, consortium_,
                           net::ParticipantRole::kCoordinator)
      .status();
}

grpc::Status PartyControlService::Finish(const absl::Status& status, std::string_view what,
                                         const std::string& run) {
  if (!status.ok()) {
    metrics_.errors->Increment();
    spdlog::error("run {}: {} failed: {}", run, what, status.ToString());
  }
  return net::ToGrpcStatus(status);
}

absl::StatusOr<PartySession*> PartyControlService::SessionFor(const std::string& run_id) {
  if (session_ == nullptr || session_->run_id() != run_id) {
    return absl::NotFoundError(absl::StrCat("party ", name_, " has not joined run '", run_id,
                                            "'"));
  }
  return session_.get();
}

absl::Status PartyControlService::DoJoin(const pplda::v1::JoinRequest& request,
                                         pplda::v1::JoinReply* reply) {
  const std::string& run_id = request.header().run_id();
  if (session_ != nullptr && session_->run_id() == run_id) {
    return absl::AlreadyExistsError(absl::StrCat("run '", run_id, "' was already joined"));
  }
  if (session_ != nullptr && !session_->failed() && session_->state() != "published" &&
      !aborted_) {
    return absl::AlreadyExistsError(absl::StrCat("party ", name_, " is in run '",
                                                 session_->run_id(), "' (", session_->state(),
                                                 "); cancel it first"));
  }
  session_.reset();
  {
    std::lock_guard<std::mutex> lock(transport_mu_);
    transport_.reset();
    aborted_ = false;
  }
  net::GrpcPartyTransport::Options options;
  options.run_id = run_id;
  options.party_id = resources_.party_index;
  options.parties = net::ComputePartyEndpoints(consortium_);
  options.receive_timeout = receive_timeout_;
  ASSIGN_OR_RETURN(std::unique_ptr<net::GrpcPartyTransport> transport,
                   net::GrpcPartyTransport::Create(options, identity_, links_));
  std::shared_ptr<net::GrpcPartyTransport> shared = std::move(transport);
  ASSIGN_OR_RETURN(session_, PartySession::Create(run_id, request.parameters(), resources_,
                                                  *shared));
  {
    std::lock_guard<std::mutex> lock(transport_mu_);
    transport_ = shared;
  }
  *reply->mutable_header() = net::MakeHeader(name_, run_id, 0);
  reply->set_tokens(static_cast<uint64_t>(session_->tokens()));
  reply->set_documents(static_cast<uint64_t>(session_->documents()));
  reply->set_vocabulary_sha256(resources_.vocabulary_sha256);
  reply->set_party_index(static_cast<uint32_t>(resources_.party_index));
  spdlog::info("run {}: joined as compute party {} with {} documents, {} tokens", run_id,
               resources_.party_index, session_->documents(), session_->tokens());
  return absl::OkStatus();
}

grpc::Status PartyControlService::Join(grpc::ServerContext* context,
                                       const pplda::v1::JoinRequest* request,
                                       pplda::v1::JoinReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  std::lock_guard<std::mutex> lock(mu_);
  return Finish(DoJoin(*request, reply), "Join", request->header().run_id());
}

grpc::Status PartyControlService::Prepare(grpc::ServerContext* context,
                                          const pplda::v1::PrepareRequest* request,
                                          pplda::v1::PrepareReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  std::lock_guard<std::mutex> lock(mu_);
  const std::string& run_id = request->header().run_id();
  absl::Status status = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(PartySession * session, SessionFor(run_id));
    transport_->set_iteration(0);
    ASSIGN_OR_RETURN(*reply, session->Prepare(*request));
    *reply->mutable_header() = net::MakeHeader(name_, run_id, 0);
    spdlog::info("run {}: prepared; initial counts encrypted", run_id);
    return absl::OkStatus();
  }();
  return Finish(status, "Prepare", run_id);
}

grpc::Status PartyControlService::Iterate(grpc::ServerContext* context,
                                          const pplda::v1::IterateRequest* request,
                                          pplda::v1::IterateReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  std::lock_guard<std::mutex> lock(mu_);
  const std::string& run_id = request->header().run_id();
  const int iteration = request->header().iteration();
  absl::Status status = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(PartySession * session, SessionFor(run_id));
    const crypto::NetworkStats before = transport_->Stats();
    transport_->set_iteration(iteration);
    ASSIGN_OR_RETURN(*reply, session->Iterate(*request));
    const crypto::NetworkStats after = transport_->Stats();
    const int me = resources_.party_index;
    const uint64_t sent = after.parties[me].bytes_sent - before.parties[me].bytes_sent;
    reply->set_mpc_bytes_sent(sent);
    *reply->mutable_header() = net::MakeHeader(name_, run_id, iteration);
    metrics_.iterations->Increment();
    metrics_.iteration->Set(iteration);
    metrics_.mpc_bytes_sent->Increment(static_cast<double>(sent));
    metrics_.mpc_rounds->Increment(static_cast<double>(reply->mpc_rounds()));
    const PartyPhaseTimes t = PhasesFromProto(reply->phases());
    metrics_.phase_seconds["selection"]->Increment(t.selection);
    metrics_.phase_seconds["exchange"]->Increment(t.exchange);
    metrics_.phase_seconds["conversion"]->Increment(t.conversion);
    metrics_.phase_seconds["weights"]->Increment(t.weights);
    metrics_.phase_seconds["draw"]->Increment(t.draw);
    metrics_.phase_seconds["update"]->Increment(t.update);
    spdlog::info("run {}: iteration {} done in {:.2f} s ({} MPC rounds, {} bytes sent)", run_id,
                 iteration, t.Total(), reply->mpc_rounds(), sent);
    return absl::OkStatus();
  }();
  return Finish(status, absl::StrCat("Iterate(", iteration, ")"), run_id);
}

grpc::Status PartyControlService::Publish(grpc::ServerContext* context,
                                          const pplda::v1::PublishRequest* request,
                                          pplda::v1::PublishReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  std::lock_guard<std::mutex> lock(mu_);
  const std::string& run_id = request->header().run_id();
  absl::Status status = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(PartySession * session, SessionFor(run_id));
    transport_->set_iteration(request->header().iteration());
    ASSIGN_OR_RETURN(*reply, session->Publish(*request));
    *reply->mutable_header() = net::MakeHeader(name_, run_id, request->header().iteration());
    spdlog::info("run {}: published ({}); document mixtures in {}", run_id,
                 request->decrypt() ? "partial decryptions with proofs sent"
                                    : "fold confirmed, not a decryptor",
                 reply->mixtures_path());
    absl::Status closed = transport_->Close();
    if (!closed.ok()) spdlog::warn("run {}: closing the MPC links: {}", run_id, closed.ToString());
    return absl::OkStatus();
  }();
  return Finish(status, "Publish", run_id);
}

grpc::Status PartyControlService::Abort(grpc::ServerContext* context,
                                        const pplda::v1::AbortRequest* request,
                                        pplda::v1::AbortReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  std::lock_guard<std::mutex> lock(transport_mu_);
  if (transport_ == nullptr || transport_->run_id() != request->header().run_id()) {
    return net::ToGrpcStatus(absl::NotFoundError(absl::StrCat(
        "party ", name_, " has no active run '", request->header().run_id(), "'")));
  }
  spdlog::warn("run {}: aborted by the coordinator: {}", request->header().run_id(),
               request->reason());
  transport_->Shutdown(absl::AbortedError("run aborted by the coordinator: " + request->reason()));
  aborted_ = true;
  return grpc::Status::OK;
}

void PartyControlService::Shutdown(const absl::Status& cause) {
  std::lock_guard<std::mutex> lock(transport_mu_);
  if (transport_ != nullptr) transport_->Shutdown(cause);
}

}  // namespace pplda::party
