// CoordinatorService: the gRPC adapter of RunManager (run_manager.h), the
// Coordinator service of proto/coordinator_service.proto used by `pplda
// run`. Every call is authenticated (net/request_check.h: protocol
// version, a certificate pinned in the consortium file: any participant of
// the consortium may start, watch, fetch and cancel runs); statuses map one
// to one. Watch streams a RunStatus at every change until the run ends or
// the client goes away.
// Thread-safety: gRPC calls the methods concurrently; RunManager is
// thread-safe.
#ifndef PPLDA_COORDINATOR_DAEMON_COORDINATOR_SERVICE_H_
#define PPLDA_COORDINATOR_DAEMON_COORDINATOR_SERVICE_H_

#include "coordinator/daemon/run_manager.h"
#include "net/consortium_file.h"
#include "proto/coordinator_service.grpc.pb.h"

namespace pplda::coordinator {

class CoordinatorService final : public pplda::v1::Coordinator::Service {
 public:
  CoordinatorService(const net::Consortium& consortium, RunManager& runs)
      : consortium_(consortium), runs_(runs) {}

  grpc::Status StartRun(grpc::ServerContext* context, const pplda::v1::StartRunRequest* request,
                        pplda::v1::StartRunReply* reply) override;
  grpc::Status GetStatus(grpc::ServerContext* context, const pplda::v1::RunStatusRequest* request,
                         pplda::v1::RunStatus* reply) override;
  grpc::Status Watch(grpc::ServerContext* context, const pplda::v1::RunStatusRequest* request,
                     grpc::ServerWriter<pplda::v1::RunStatus>* writer) override;
  grpc::Status GetResult(grpc::ServerContext* context, const pplda::v1::RunResultRequest* request,
                         pplda::v1::RunResultReply* reply) override;
  grpc::Status Cancel(grpc::ServerContext* context, const pplda::v1::CancelRunRequest* request,
                      pplda::v1::CancelRunReply* reply) override;

 private:
  const net::Consortium& consortium_;
  RunManager& runs_;
};

}  // namespace pplda::coordinator

#endif  // PPLDA_COORDINATOR_DAEMON_COORDINATOR_SERVICE_H_
