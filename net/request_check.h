// Checks every control request (PartyControl, Coordinator services) makes
// before anything else: the WireHeader's protocol version
// (FailedPrecondition "protocol version X, this daemon speaks 1"), the
// caller's TLS client certificate pinned in the consortium file
// (PermissionDenied), header.sender equal to that participant's name
// (PermissionDenied), and the caller's role when one is required
// (PermissionDenied, e.g. a party calling PartyControl). A missing header is
// InvalidArgument. Returns the authenticated participant.
// Thread-safety: pure functions.
#ifndef PPLDA_NET_REQUEST_CHECK_H_
#define PPLDA_NET_REQUEST_CHECK_H_

#include <optional>

#include "absl/status/statusor.h"
#include "grpcpp/server_context.h"
#include "net/consortium_file.h"
#include "proto/wire_header.pb.h"

namespace pplda::net {

absl::StatusOr<Participant> CheckRequest(const grpc::ServerContext& context, bool has_header,
                                         const pplda::v1::WireHeader& header,
                                         const Consortium& consortium,
                                         std::optional<ParticipantRole> required_role);

// A header for a message this participant sends.
pplda::v1::WireHeader MakeHeader(const std::string& sender, const std::string& run_id,
                                 int iteration);

}  // namespace pplda::net

#endif  // PPLDA_NET_REQUEST_CHECK_H_
