#include "net/request_check.h"

#include "absl/strings/str_cat.h"
#include "net/protocol_version.h"
#include "net/tls_identity.h"
#include "spdlog/spdlog.h"

namespace pplda::net {

absl::StatusOr<Participant> CheckRequest(const grpc::ServerContext& context, bool has_header,
                                         const pplda::v1::WireHeader& header,
                                         const Consortium& consortium,
                                         std::optional<ParticipantRole> required_role) {
  auto refuse = [&](absl::Status status) {
    spdlog::warn("refused a request from {}: {}", context.peer(), std::string(status.message()));
    return status;
  };
  if (!has_header) return refuse(absl::InvalidArgumentError("request without a header"));
  if (header.protocol_version() != kProtocolVersion) {
    return refuse(absl::FailedPreconditionError(absl::StrCat(
        "protocol version ", header.protocol_version(), ", this daemon speaks ",
        kProtocolVersion)));
  }
  std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  if (auth == nullptr) return refuse(absl::PermissionDeniedError("no TLS client certificate"));
  absl::StatusOr<std::string> name = AuthenticatePeer(*auth, consortium);
  if (!name.ok()) return refuse(name.status());
  if (header.sender() != *name) {
    return refuse(absl::PermissionDeniedError(absl::StrCat(
        "header.sender \"", header.sender(), "\" is not the certificate's participant \"", *name,
        "\"")));
  }
  absl::StatusOr<Participant> participant = consortium.FindByName(*name);
  if (!participant.ok()) return refuse(participant.status());
  if (required_role.has_value() && participant->role != *required_role) {
    return refuse(absl::PermissionDeniedError(absl::StrCat(
        "participant \"", *name, "\" (", std::string(RoleName(participant->role)),
        ") may not call this: only the ", std::string(RoleName(*required_role)), " may")));
  }
  return participant;
}

pplda::v1::WireHeader MakeHeader(const std::string& sender, const std::string& run_id,
                                 int iteration) {
  pplda::v1::WireHeader h;
  h.set_protocol_version(kProtocolVersion);
  h.set_sender(sender);
  h.set_run_id(run_id);
  h.set_iteration(iteration);
  return h;
}

}  // namespace pplda::net
