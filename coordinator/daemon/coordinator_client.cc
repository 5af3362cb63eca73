#include "coordinator/daemon/coordinator_client.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grpcpp/grpcpp.h"
#include "net/consortium_file.h"
#include "net/daemon_config_file.h"
#include "net/grpc_status.h"
#include "net/request_check.h"
#include "net/tls_identity.h"
#include "proto/coordinator_service.grpc.pb.h"

namespace pplda::coordinator {
namespace {

class GrpcCoordinatorClient final : public CoordinatorClient {
 public:
  GrpcCoordinatorClient(std::string name, net::TlsIdentity identity, net::Participant coordinator)
      : name_(std::move(name)),
        identity_(std::move(identity)),
        coordinator_(std::move(coordinator)) {
    stub_ = pplda::v1::Coordinator::NewStub(
        net::CreatePeerChannel(identity_, coordinator_.address, coordinator_.name, 64 << 20));
  }

  const std::string& coordinator_address() const override { return coordinator_.address; }

  absl::StatusOr<std::string> Start(const pplda::v1::RunParameters& parameters) override {
    pplda::v1::StartRunRequest request;
    *request.mutable_header() = net::MakeHeader(name_, "", 0);
    *request.mutable_parameters() = parameters;
    pplda::v1::StartRunReply reply;
    grpc::ClientContext context;
    Deadline(context);
    RETURN_IF_ERROR(Map(context, stub_->StartRun(&context, request, &reply)));
    return reply.run_id();
  }

  absl::StatusOr<pplda::v1::RunStatus> Status(const std::string& run_id) override {
    pplda::v1::RunStatusRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id, 0);
    pplda::v1::RunStatus reply;
    grpc::ClientContext context;
    Deadline(context);
    RETURN_IF_ERROR(Map(context, stub_->GetStatus(&context, request, &reply)));
    return reply;
  }

  absl::Status Watch(const std::string& run_id,
                     const std::function<void(const pplda::v1::RunStatus&)>& on_status) override {
    pplda::v1::RunStatusRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id, 0);
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<pplda::v1::RunStatus>> reader =
        stub_->Watch(&context, request);
    pplda::v1::RunStatus status;
    bool pinned = false;
    while (reader->Read(&status)) {
      if (!pinned) {
        // Nothing from a server without the coordinator's pinned certificate.
        if (absl::Status s = net::CheckServerPinned(context, coordinator_, absl::OkStatus());
            !s.ok()) {
          context.TryCancel();
          reader->Finish();
          return s;
        }
        pinned = true;
      }
      on_status(status);
    }
    return Map(context, reader->Finish());
  }

  absl::StatusOr<std::string> Result(const std::string& run_id) override {
    pplda::v1::RunResultRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id, 0);
    pplda::v1::RunResultReply reply;
    grpc::ClientContext context;
    Deadline(context);
    RETURN_IF_ERROR(Map(context, stub_->GetResult(&context, request, &reply)));
    return reply.model_json();
  }

  absl::Status Cancel(const std::string& run_id, const std::string& reason) override {
    pplda::v1::CancelRunRequest request;
    *request.mutable_header() = net::MakeHeader(name_, run_id, 0);
    request.set_reason(reason);
    pplda::v1::CancelRunReply reply;
    grpc::ClientContext context;
    Deadline(context);
    return Map(context, stub_->Cancel(&context, request, &reply));
  }

 private:
  static void Deadline(grpc::ClientContext& context) {
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  }
  // A call's status; a reply is believed only from the coordinator's own
  // pinned certificate (TLS checked the CA and the name only).
  absl::Status Map(const grpc::ClientContext& context, const grpc::Status& status) const {
    absl::Status s = net::FromGrpcStatus(status);
    if (s.code() == absl::StatusCode::kUnavailable) {
      return absl::UnavailableError(absl::StrCat("the coordinator ", coordinator_.name, " at ",
                                                 coordinator_.address,
                                                 " does not answer: ", s.message()));
    }
    return net::CheckServerPinned(context, coordinator_, std::move(s));
  }

  std::string name_;
  net::TlsIdentity identity_;
  net::Participant coordinator_;
  std::unique_ptr<pplda::v1::Coordinator::Stub> stub_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<CoordinatorClient>> CoordinatorClient::FromConfig(
    const std::filesystem::path& config) {
  // Any participant's daemon config: its name, consortium and TLS files.
  net::ConfigSchema schema = net::PartyConfigSchema();
  schema.insert(net::CoordinatorConfigSchema().begin(), net::CoordinatorConfigSchema().end());
  ASSIGN_OR_RETURN(net::DaemonConfigFile file, net::DaemonConfigFile::Load(config, schema));
  std::string table = "party";
  if (!file.String("party", "name").ok()) table = "coordinator";
  ASSIGN_OR_RETURN(std::string name, file.String(table, "name"));
  ASSIGN_OR_RETURN(std::filesystem::path consortium_path, file.Path(table, "consortium"));
  ASSIGN_OR_RETURN(net::Consortium consortium, net::Consortium::Load(consortium_path));
  ASSIGN_OR_RETURN(std::filesystem::path ca, file.Path("tls", "ca"));
  ASSIGN_OR_RETURN(std::filesystem::path cert, file.Path("tls", "cert"));
  ASSIGN_OR_RETURN(std::filesystem::path key, file.Path("tls", "key"));
  ASSIGN_OR_RETURN(net::TlsIdentity identity, net::TlsIdentity::Load(ca, cert, key));
  RETURN_IF_ERROR(identity.CheckPinned(consortium, name));
  return std::unique_ptr<CoordinatorClient>(
      new GrpcCoordinatorClient(name, std::move(identity), consortium.coordinator()));
}

}  // namespace pplda::coordinator
