#include "net/grpc_status.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace pplda::net {
namespace {

constexpr int kMaxCanonicalCode = 16;  // UNAUTHENTICATED in both libraries

static_assert(static_cast<int>(absl::StatusCode::kUnauthenticated) == kMaxCanonicalCode);
static_assert(static_cast<int>(grpc::StatusCode::UNAUTHENTICATED) == kMaxCanonicalCode);
static_assert(static_cast<int>(absl::StatusCode::kDeadlineExceeded) ==
              static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED));
static_assert(static_cast<int>(absl::StatusCode::kResourceExhausted) ==
              static_cast<int>(grpc::StatusCode::RESOURCE_EXHAUSTED));
static_assert(static_cast<int>(absl::StatusCode::kDataLoss) ==
              static_cast<int>(grpc::StatusCode::DATA_LOSS));

}  // namespace

grpc::Status ToGrpcStatus(const absl::Status& status) {
  const int code = static_cast<int>(status.code());
  if (code < 0 || code > kMaxCanonicalCode) {
    return grpc::Status(grpc::StatusCode::UNKNOWN,
                        absl::StrCat("status code ", code, ": ", status.message()));
  }
  return grpc::Status(static_cast<grpc::StatusCode>(code), std::string(status.message()));
}

absl::Status FromGrpcStatus(const grpc::Status& status) {
  const int code = static_cast<int>(status.error_code());
  if (code < 0 || code > kMaxCanonicalCode) {
    return absl::UnknownError(
        absl::StrCat("status code ", code, ": ", status.error_message()));
  }
  return absl::Status(static_cast<absl::StatusCode>(code), status.error_message());
}

}  // namespace pplda::net
