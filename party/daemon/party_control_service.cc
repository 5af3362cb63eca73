#include "party/daemon/party_control_service.h"

#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/path_component.h"
#include "base/status_macros.h"
#include "net/grpc_status.h"
#include "net/protocol_version.h"
#include "net/request_check.h"
#include "party/holder_session.h"
#include "protocol/run_state_file.h"
#include "protocol/wire.h"
#include "spdlog/spdlog.h"

namespace pplda::party {

absl::StatusOr<PartyMetrics> PartyMetrics::Register(net::MetricsRegistry& registry,
                                                    std::string_view role) {
  PartyMetrics m;
  ASSIGN_OR_RETURN(
      net::Gauge * role_gauge,
      registry.AddGauge("pplda_party_role", "This participant's role in the consortium (1)",
                        {{"role", std::string(role)}}));
  role_gauge->Set(1);
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
                                         TransportFactory make_transport,
                                         PartyResources resources, PartyMetrics metrics)
    : name_(std::move(name)),
      consortium_(consortium),
      make_transport_(std::move(make_transport)),
      resources_(std::move(resources)),
      metrics_(std::move(metrics)) {}

absl::Status PartyControlService::Check(const grpc::ServerContext& context, bool has_header,
                                        const pplda::v1::WireHeader& header) const {
  return net::CheckRequest(context, has_header, header, consortium_,
                           net::ParticipantRole::kCoordinator)
      .status();
}

absl::Status PartyControlService::CheckHeader(bool has_header,
                                              const pplda::v1::WireHeader& header) const {
  if (!has_header) return absl::InvalidArgumentError("request without a header");
  if (header.protocol_version() != net::kProtocolVersion) {
    return absl::FailedPreconditionError(absl::StrCat("protocol version ",
                                                      header.protocol_version(),
                                                      ", this daemon speaks ",
                                                      net::kProtocolVersion));
  }
  const std::string& coordinator = consortium_.coordinator().name;
  if (header.sender() != coordinator) {
    return absl::PermissionDeniedError(absl::StrCat("header.sender \"", header.sender(),
                                                    "\" is not the coordinator \"", coordinator,
                                                    "\""));
  }
  return absl::OkStatus();
}

absl::Status PartyControlService::Finish(const absl::Status& status, std::string_view what,
                                         const std::string& run) {
  if (!status.ok()) {
    metrics_.errors->Increment();
    spdlog::error("run {}: {} failed: {}", run, what, status.ToString());
    // A failed step ends the run here: end this party's links at once, so
    // that the others stop waiting for its messages (FrameInbox fails their
    // receives) instead of waiting for their receive timeout. First in
    // order (what this party already sent is delivered, then the streams
    // half-close, bounded by kFailedLinkFlush), so a peer that is still in
    // the step gets this party's messages and fails for its own reason;
    // then whatever is left is cancelled.
    if (session_ != nullptr && session_->run_id() == run && session_->failed()) {
      EndLinksAfterFailure(
          absl::AbortedError(absl::StrCat(std::string(what), " failed at this party")));
    }
  }
  return status;
}

absl::StatusOr<std::unique_ptr<RunSession>> PartyControlService::NewSession(
    const std::string& run_id, const pplda::v1::RunParameters& parameters,
    crypto::PartyTransport& transport) {
  if (resources_.data_index >= 0) {
    ASSIGN_OR_RETURN(std::unique_ptr<HolderSession> s,
                     HolderSession::Create(run_id, parameters, resources_, transport));
    return std::unique_ptr<RunSession>(std::move(s));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<PartySession> s,
                   PartySession::Create(run_id, parameters, resources_, transport));
  return std::unique_ptr<RunSession>(std::move(s));
}

absl::StatusOr<std::unique_ptr<RunSession>> PartyControlService::ResumeSession(
    const std::string& run_id, const pplda::v1::RunParameters& parameters,
    crypto::PartyTransport& transport, int iteration) {
  if (resources_.data_index >= 0) {
    ASSIGN_OR_RETURN(std::unique_ptr<HolderSession> s,
                     HolderSession::Resume(run_id, parameters, resources_, transport, iteration));
    return std::unique_ptr<RunSession>(std::move(s));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<PartySession> s,
                   PartySession::Resume(run_id, parameters, resources_, transport, iteration));
  return std::unique_ptr<RunSession>(std::move(s));
}

absl::StatusOr<RunSession*> PartyControlService::SessionFor(const std::string& run_id) {
  // The coordinator matches "has not joined run" (a restarted party:
  // coordinator/daemon/run_manager.cc, MayWaitForRestartedParty).
  if (session_ == nullptr || session_->run_id() != run_id) {
    return absl::NotFoundError(absl::StrCat("party ", name_, " has not joined run '", run_id,
                                            "'"));
  }
  if (aborted_) {
    // Steps that need no link (the DP vocabulary's contribution, which
    // debits the ledger) must not run either.
    // Aborted, like a failed session's refusal: the run goes on only from
    // a saved boundary (Resume).
    return absl::AbortedError(absl::StrCat("run '", run_id, "' was aborted at party ", name_));
  }
  return session_.get();
}

absl::Status PartyControlService::DoJoin(const pplda::v1::JoinRequest& request,
                                         pplda::v1::JoinReply* reply) {
  const std::string& run_id = request.header().run_id();
  // The run id names this party's folder state_dir/runs/<run id>/: refused
  // before the current session is touched (PartySession::Create checks it too).
  RETURN_IF_ERROR(CheckPathComponent(run_id, "header.run_id"));
  if (session_ != nullptr && session_->run_id() == run_id) {
    return absl::AlreadyExistsError(absl::StrCat("run '", run_id, "' was already joined"));
  }
  if (session_ != nullptr && !session_->failed() && session_->state() != "published" &&
      !aborted_) {
    // The coordinator runs one run at a time: a Join for another run means
    // it no longer drives this one (it restarted before the run's first
    // saved boundary, for instance). HandleJoin already ended its links.
    spdlog::warn("run {}: dropped ({}): the coordinator started run {}", session_->run_id(),
                 session_->state(), run_id);
  }
  session_.reset();
  // Every other run is over here (the coordinator runs one at a time and
  // never goes back to an older one): their run state goes, kept boundaries
  // of published runs and earlier starts included.
  ForgetOtherRuns(run_id);
  ASSIGN_OR_RETURN(std::shared_ptr<net::RunTransport> shared, NewTransport(run_id, 0, 0));
  ASSIGN_OR_RETURN(session_, NewSession(run_id, request.parameters(), *shared));
  {
    std::lock_guard<std::mutex> lock(transport_mu_);
    transport_ = shared;
    transport_run_ = run_id;
  }
  *reply->mutable_header() = net::MakeHeader(name_, run_id, 0);
  reply->set_tokens(static_cast<uint64_t>(session_->join_tokens()));
  reply->set_documents(static_cast<uint64_t>(session_->join_documents()));
  reply->set_vocabulary_sha256(resources_.vocabulary_sha256);
  reply->set_party_index(static_cast<uint32_t>(resources_.party_index));
  if (resources_.insecure_deterministic_rng_seed.has_value()) {
    reply->set_insecure_deterministic_rng_seed(*resources_.insecure_deterministic_rng_seed);
  }
  spdlog::info("run {}: joined as {} {} with {} documents, {} tokens", run_id,
               resources_.data_index >= 0 ? "data holder" : "compute party",
               resources_.data_index >= 0 ? resources_.data_index : resources_.party_index,
               session_->documents(), session_->tokens());
  return absl::OkStatus();
}

std::string LinkRunId(const std::string& run_id, uint32_t attempt) {
  return attempt == 0 ? run_id : absl::StrCat(run_id, "#resume-", attempt);
}

absl::StatusOr<std::shared_ptr<net::RunTransport>> PartyControlService::NewTransport(
    const std::string& run_id, uint32_t attempt, int boundary) {
  {
    std::lock_guard<std::mutex> lock(transport_mu_);
    transport_.reset();
    transport_run_.clear();
    aborted_ = false;
  }
  ASSIGN_OR_RETURN(std::unique_ptr<net::RunTransport> transport,
                   make_transport_(LinkRunId(run_id, attempt)));
  // A peer may start iteration boundary + 1 before this party's Iterate
  // arrives: its frames must find the links at the boundary, not at 0.
  transport->set_iteration(boundary);
  return std::shared_ptr<net::RunTransport>(std::move(transport));
}

absl::Status PartyControlService::CheckResume(const pplda::v1::ResumeRequest& request) const {
  RETURN_IF_ERROR(CheckHeader(request.has_header(), request.header()));
  const std::string& run_id = request.header().run_id();
  RETURN_IF_ERROR(CheckPathComponent(run_id, "header.run_id"));
  if (request.attempt() < 1) {
    return absl::InvalidArgumentError("attempt: 0 (resumptions are numbered from 1)");
  }
  if (request.header().iteration() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("header.iteration: ", request.header().iteration()));
  }
  if (run_id == last_resume_run_ && request.attempt() <= last_resume_attempt_) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run_id, ": resumption ", request.attempt(),
                     " is not after the last one this party took (", last_resume_attempt_, ")"));
  }
  return absl::OkStatus();
}

absl::Status PartyControlService::DoResume(const pplda::v1::ResumeRequest& request,
                                           pplda::v1::ResumeReply* reply) {
  const std::string& run_id = request.header().run_id();
  const int iteration = request.header().iteration();
  last_resume_run_ = run_id;
  last_resume_attempt_ = request.attempt();
  if (session_ != nullptr) {
    spdlog::warn("run {}: session dropped ({}) to resume run {} after {} iterations",
                 session_->run_id(), session_->state(), run_id, iteration);
  }
  session_.reset();
  ASSIGN_OR_RETURN(std::shared_ptr<net::RunTransport> shared,
                   NewTransport(run_id, request.attempt(), iteration));
  ASSIGN_OR_RETURN(session_, ResumeSession(run_id, request.parameters(), *shared, iteration));
  {
    std::lock_guard<std::mutex> lock(transport_mu_);
    transport_ = shared;
    transport_run_ = run_id;
  }
  *reply->mutable_header() = net::MakeHeader(name_, run_id, iteration);
  *reply->mutable_update() = session_->resumed_update();
  spdlog::info("run {}: resumed after iteration {} (attempt {}, new links)", run_id, iteration,
               request.attempt());
  return absl::OkStatus();
}

absl::Status PartyControlService::HandleResume(const pplda::v1::ResumeRequest& request,
                                               pplda::v1::ResumeReply* reply) {
  {
    // A request refused here leaves the run as it is (its attempt number
    // is taken once it is in order).
    std::lock_guard<std::mutex> lock(mu_);
    RETURN_IF_ERROR(CheckResume(request));
    last_resume_run_ = request.header().run_id();
    last_resume_attempt_ = request.attempt();
    RETURN_IF_ERROR(PartySession::CheckResumable(resources_.state_dir, request.header().run_id(),
                                                 request.parameters(),
                                                 request.header().iteration()));
  }
  {
    // A step still blocked on the old links fails at once.
    std::lock_guard<std::mutex> transport_lock(transport_mu_);
    if (transport_ != nullptr) {
      transport_->Shutdown(
          absl::AbortedError(absl::StrCat("run ", transport_run_, ": the coordinator resumes run ",
                                          request.header().run_id(), " on new links")));
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  return Finish(DoResume(request, reply), "Resume", request.header().run_id());
}

grpc::Status PartyControlService::Resume(grpc::ServerContext* context,
                                         const pplda::v1::ResumeRequest* request,
                                         pplda::v1::ResumeReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  return net::ToGrpcStatus(HandleResume(*request, reply));
}

grpc::Status PartyControlService::Join(grpc::ServerContext* context,
                                       const pplda::v1::JoinRequest* request,
                                       pplda::v1::JoinReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  if (context->IsCancelled()) {
    // A Join the coordinator gave up on (it delivered late, after a newer
    // start's Join, say) must not replace what came after it.
    return grpc::Status(grpc::StatusCode::CANCELLED, "the coordinator cancelled this Join");
  }
  return net::ToGrpcStatus(HandleJoin(*request, reply));
}

grpc::Status PartyControlService::Vocabulary(grpc::ServerContext* context,
                                             const pplda::v1::VocabularyRequest* request,
                                             pplda::v1::VocabularyReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  return net::ToGrpcStatus(HandleVocabulary(*request, reply));
}

grpc::Status PartyControlService::Prepare(grpc::ServerContext* context,
                                          const pplda::v1::PrepareRequest* request,
                                          pplda::v1::PrepareReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  return net::ToGrpcStatus(HandlePrepare(*request, reply));
}

grpc::Status PartyControlService::Iterate(grpc::ServerContext* context,
                                          const pplda::v1::IterateRequest* request,
                                          pplda::v1::IterateReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  return net::ToGrpcStatus(HandleIterate(*request, reply));
}

grpc::Status PartyControlService::Publish(grpc::ServerContext* context,
                                          const pplda::v1::PublishRequest* request,
                                          pplda::v1::PublishReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  return net::ToGrpcStatus(HandlePublish(*request, reply));
}

grpc::Status PartyControlService::Abort(grpc::ServerContext* context,
                                        const pplda::v1::AbortRequest* request,
                                        pplda::v1::AbortReply* reply) {
  absl::Status checked = Check(*context, request->has_header(), request->header());
  if (!checked.ok()) return net::ToGrpcStatus(checked);
  return net::ToGrpcStatus(HandleAbort(*request));
}

pplda::v1::RelayedReply PartyControlService::HandleRelayed(const pplda::v1::RelayedCall& call) {
  pplda::v1::RelayedReply reply;
  absl::Status status;
  switch (call.request_case()) {
    case pplda::v1::RelayedCall::kJoin:
      status = HandleJoin(call.join(), reply.mutable_join());
      break;
    case pplda::v1::RelayedCall::kVocabulary:
      status = HandleVocabulary(call.vocabulary(), reply.mutable_vocabulary());
      break;
    case pplda::v1::RelayedCall::kPrepare:
      status = HandlePrepare(call.prepare(), reply.mutable_prepare());
      break;
    case pplda::v1::RelayedCall::kIterate:
      status = HandleIterate(call.iterate(), reply.mutable_iterate());
      break;
    case pplda::v1::RelayedCall::kPublish:
      status = HandlePublish(call.publish(), reply.mutable_publish());
      break;
    case pplda::v1::RelayedCall::kResume:
      status = HandleResume(call.resume(), reply.mutable_resume());
      break;
    case pplda::v1::RelayedCall::kAbort:
      status = HandleAbort(call.abort());
      reply.mutable_abort();
      break;
    default:
      status = absl::InvalidArgumentError(
          absl::StrCat("relayed call ", call.call_id(), " carries no request"));
  }
  if (!status.ok()) {
    reply.clear_reply();
    reply.set_status_code(static_cast<int>(status.code()));
    reply.set_status_message(std::string(status.message()));
  }
  return reply;
}

absl::Status PartyControlService::HandleJoin(const pplda::v1::JoinRequest& request,
                                             pplda::v1::JoinReply* reply) {
  RETURN_IF_ERROR(CheckHeader(request.has_header(), request.header()));
  {
    // A step of an older run still in progress fails at once (its links
    // end) instead of holding the lock until its receive timeout.
    std::lock_guard<std::mutex> transport_lock(transport_mu_);
    if (transport_ != nullptr && transport_run_ != request.header().run_id()) {
      transport_->Shutdown(absl::AbortedError(absl::StrCat("run ", transport_run_,
                                                           " dropped: the coordinator started run ",
                                                           request.header().run_id())));
      aborted_ = true;
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  return Finish(DoJoin(request, reply), "Join", request.header().run_id());
}

absl::Status PartyControlService::HandleVocabulary(const pplda::v1::VocabularyRequest& request,
                                                   pplda::v1::VocabularyReply* reply) {
  RETURN_IF_ERROR(CheckHeader(request.has_header(), request.header()));
  if (request.header().iteration() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "header.iteration: ", request.header().iteration(), " (the DP vocabulary's steps are 0)"));
  }
  std::lock_guard<std::mutex> lock(mu_);
  const std::string& run_id = request.header().run_id();
  absl::Status status = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(RunSession * session, SessionFor(run_id));
    transport_->set_iteration(0);
    ASSIGN_OR_RETURN(*reply, session->Vocabulary(request));
    *reply->mutable_header() = net::MakeHeader(name_, run_id, 0);
    if (request.has_select()) {
      spdlog::info(
          "run {}: DP vocabulary selected: {} terms (SHA-256 {}); {} documents, {} "
          "tokens over it after the DP caps",
          run_id, reply->vocabulary_size(), reply->vocabulary_sha256(), reply->documents(),
          reply->tokens());
    } else {
      spdlog::info("run {}: DP vocabulary: {} done", run_id,
                   request.has_contribute() ? "encrypted contribution" : "sum confirmed");
    }
    return absl::OkStatus();
  }();
  return Finish(status, "Vocabulary", run_id);
}

absl::Status PartyControlService::HandlePrepare(const pplda::v1::PrepareRequest& request_ref,
                                                pplda::v1::PrepareReply* reply) {
  RETURN_IF_ERROR(CheckHeader(request_ref.has_header(), request_ref.header()));
  const pplda::v1::PrepareRequest* request = &request_ref;
  std::lock_guard<std::mutex> lock(mu_);
  const std::string& run_id = request->header().run_id();
  absl::Status status = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(RunSession * session, SessionFor(run_id));
    transport_->set_iteration(0);
    ASSIGN_OR_RETURN(*reply, session->Prepare(*request));
    *reply->mutable_header() = net::MakeHeader(name_, run_id, 0);
    spdlog::info("run {}: prepared; initial counts encrypted", run_id);
    return absl::OkStatus();
  }();
  return Finish(status, "Prepare", run_id);
}

absl::Status PartyControlService::HandleIterate(const pplda::v1::IterateRequest& request_ref,
                                                pplda::v1::IterateReply* reply) {
  RETURN_IF_ERROR(CheckHeader(request_ref.has_header(), request_ref.header()));
  const pplda::v1::IterateRequest* request = &request_ref;
  std::lock_guard<std::mutex> lock(mu_);
  const std::string& run_id = request->header().run_id();
  const int iteration = request->header().iteration();
  absl::Status status = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(RunSession * session, SessionFor(run_id));
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
    const protocol::PartyPhaseTimes t = protocol::PhasesFromProto(reply->phases());
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

absl::Status PartyControlService::HandlePublish(const pplda::v1::PublishRequest& request_ref,
                                                pplda::v1::PublishReply* reply) {
  RETURN_IF_ERROR(CheckHeader(request_ref.has_header(), request_ref.header()));
  const pplda::v1::PublishRequest* request = &request_ref;
  std::lock_guard<std::mutex> lock(mu_);
  const std::string& run_id = request->header().run_id();
  absl::Status status = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(RunSession * session, SessionFor(run_id));
    transport_->set_iteration(request->header().iteration());
    ASSIGN_OR_RETURN(*reply, session->Publish(*request));
    *reply->mutable_header() = net::MakeHeader(name_, run_id, request->header().iteration());
    spdlog::info("run {}: published ({}, agreed fold {}); document mixtures in {}", run_id,
                 request->decrypt() ? "partial decryptions with proofs sent"
                                    : "fold confirmed, not a decryptor",
                 session->counts_digest_hex(), reply->mixtures_path());
    absl::Status closed = transport_->Close();
    if (!closed.ok()) spdlog::warn("run {}: closing the MPC links: {}", run_id, closed.ToString());
    return absl::OkStatus();
  }();
  return Finish(status, "Publish", run_id);
}

void PartyControlService::ForgetOtherRuns(const std::string& run_id) {
  const std::filesystem::path runs = resources_.state_dir / "runs";
  std::error_code ec;
  if (!std::filesystem::is_directory(runs, ec)) return;
  for (const auto& entry : std::filesystem::directory_iterator(runs, ec)) {
    const std::string other = entry.path().filename().string();
    if (other == run_id || !entry.is_directory(ec)) continue;
    if (std::filesystem::exists(protocol::RunStatePath(resources_.state_dir, other), ec) ||
        std::filesystem::exists(protocol::PreviousRunStatePath(resources_.state_dir, other), ec)) {
      ForgetPublishedRun(other);
    }
  }
}

void PartyControlService::ForgetPublishedRun(const std::string& run_id) {
  const absl::Status removed = PartySession::RemoveRunState(resources_.state_dir, run_id);
  if (removed.ok()) {
    spdlog::info("run {}: over; its run state (run key, sharing keys, topics) removed", run_id);
  } else {
    spdlog::warn("run {}: over, but its run state was not removed: {}", run_id, removed.ToString());
  }
}

absl::Status PartyControlService::HandleAbort(const pplda::v1::AbortRequest& request_ref) {
  RETURN_IF_ERROR(CheckHeader(request_ref.has_header(), request_ref.header()));
  const pplda::v1::AbortRequest* request = &request_ref;
  if (request->run_published()) {
    // The coordinator published the model: the run is over. Only a run this
    // party published is forgotten (a coordinator cannot end a run early
    // this way: before this party published, it is an abort, below). A
    // step in progress holds mu_; then nothing is removed here (the next
    // Join drops the run).
    std::unique_lock<std::mutex> session_lock(mu_, std::try_to_lock);
    if (session_lock.owns_lock() && session_ != nullptr &&
        session_->run_id() == request->header().run_id() && session_->state() == "published") {
      ForgetPublishedRun(session_->run_id());
      return absl::OkStatus();
    }
  }
  std::lock_guard<std::mutex> lock(transport_mu_);
  if (transport_ == nullptr || transport_run_ != request->header().run_id()) {
    return absl::NotFoundError(absl::StrCat("party ", name_, " has no active run '",
                                            request->header().run_id(), "'"));
  }
  spdlog::warn("run {}: aborted by the coordinator: {}", request->header().run_id(),
               request->reason());
  transport_->Shutdown(absl::AbortedError("run aborted by the coordinator: " + request->reason()));
  aborted_ = true;
  return absl::OkStatus();
}

void PartyControlService::EndLinksAfterFailure(const absl::Status& cause) {
  std::shared_ptr<net::RunTransport> transport;
  {
    std::lock_guard<std::mutex> lock(transport_mu_);
    transport = transport_;
  }
  if (transport == nullptr) return;
  const absl::Status closed = transport->Close(kFailedLinkFlush);
  if (!closed.ok()) spdlog::warn("closing the MPC links after the failure: {}", closed.ToString());
  transport->Shutdown(cause);
}

void PartyControlService::Shutdown(const absl::Status& cause) {
  std::lock_guard<std::mutex> lock(transport_mu_);
  if (transport_ != nullptr) transport_->Shutdown(cause);
}

}  // namespace pplda::party
