// absl::Status <-> grpc::Status, one to one: the canonical codes are the
// same numbers in both libraries (OK = 0 ... UNAUTHENTICATED = 16) and the
// message is carried unchanged, so a status crosses an RPC boundary without
// collapsing to UNKNOWN (STYLE.md 1). A code outside 0..16 (not produced by
// either library) maps to UNKNOWN with the number kept in the message.
// Thread-safety: pure functions.
#ifndef PPLDA_NET_GRPC_STATUS_H_
#define PPLDA_NET_GRPC_STATUS_H_

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace pplda::net {

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

}  // namespace pplda::net

#endif  // PPLDA_NET_GRPC_STATUS_H_
