#include "coordinator/daemon/coordinator_service.h"

#include <chrono>

#include "net/grpc_status.h"
#include "net/request_check.h"
#include "spdlog/spdlog.h"

namespace pplda::coordinator {
namespace {

bool Ended(const pplda::v1::RunStatus& s) {
  return s.state() == "published" || s.state() == "failed" || s.state() == "cancelled";
}

}  // namespace

#define PPLDA_CHECK_CALLER(request)                                                        \
  do {                                                                                     \
    absl::StatusOr<net::Participant> caller = net::CheckRequest(                           \
        *context, (request)->has_header(), (request)->header(), consortium_, std::nullopt); \
    if (!caller.ok()) return net::ToGrpcStatus(caller.status());                           \
  } while (0)

grpc::Status CoordinatorService::StartRun(grpc::ServerContext* context,
                                          const pplda::v1::StartRunRequest* request,
                                          pplda::v1::StartRunReply* reply) {
  PPLDA_CHECK_CALLER(request);
  absl::StatusOr<std::string> run_id = runs_.Start(request->parameters());
  if (!run_id.ok()) return net::ToGrpcStatus(run_id.status());
  spdlog::info("run {} started by {}", *run_id, request->header().sender());
  reply->set_run_id(*run_id);
  return grpc::Status::OK;
}

grpc::Status CoordinatorService::GetStatus(grpc::ServerContext* context,
                                           const pplda::v1::RunStatusRequest* request,
                                           pplda::v1::RunStatus* reply) {
  PPLDA_CHECK_CALLER(request);
  absl::StatusOr<pplda::v1::RunStatus> status = runs_.Status(request->header().run_id());
  if (!status.ok()) return net::ToGrpcStatus(status.status());
  *reply = *std::move(status);
  return grpc::Status::OK;
}

grpc::Status CoordinatorService::Watch(grpc::ServerContext* context,
                                       const pplda::v1::RunStatusRequest* request,
                                       grpc::ServerWriter<pplda::v1::RunStatus>* writer) {
  PPLDA_CHECK_CALLER(request);
  uint64_t version = 0;
  std::string run_id = request->header().run_id();
  while (!context->IsCancelled()) {
    absl::StatusOr<pplda::v1::RunStatus> status =
        runs_.WaitForChange(run_id, &version, std::chrono::seconds(2));
    if (!status.ok()) return net::ToGrpcStatus(status.status());
    if (run_id.empty()) run_id = status->run_id();  // follow the run being watched
    if (!writer->Write(*status)) break;
    if (Ended(*status)) break;
  }
  return grpc::Status::OK;
}

grpc::Status CoordinatorService::GetResult(grpc::ServerContext* context,
                                           const pplda::v1::RunResultRequest* request,
                                           pplda::v1::RunResultReply* reply) {
  PPLDA_CHECK_CALLER(request);
  absl::StatusOr<std::string> json = runs_.Result(request->header().run_id());
  if (!json.ok()) return net::ToGrpcStatus(json.status());
  reply->set_model_json(*std::move(json));
  return grpc::Status::OK;
}

grpc::Status CoordinatorService::Cancel(grpc::ServerContext* context,
                                        const pplda::v1::CancelRunRequest* request,
                                        pplda::v1::CancelRunReply* reply) {
  PPLDA_CHECK_CALLER(request);
  return net::ToGrpcStatus(runs_.Cancel(request->header().run_id(), request->reason()));
}

#undef PPLDA_CHECK_CALLER

}  // namespace pplda::coordinator
