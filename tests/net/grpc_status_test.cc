#include "net/grpc_status.h"

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace pplda::net {
namespace {

TEST(GrpcStatusTest, EveryCanonicalCodeRoundTrips) {
  for (int code = 0; code <= 16; ++code) {
    const absl::Status in(static_cast<absl::StatusCode>(code), code == 0 ? "" : "why");
    const grpc::Status g = ToGrpcStatus(in);
    EXPECT_EQ(static_cast<int>(g.error_code()), code);
    EXPECT_EQ(g.error_message(), std::string(in.message()));
    EXPECT_EQ(FromGrpcStatus(g), in);
  }
}

TEST(GrpcStatusTest, NamedCodesMatch) {
  EXPECT_EQ(ToGrpcStatus(absl::FailedPreconditionError("v")).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ToGrpcStatus(absl::PermissionDeniedError("v")).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(FromGrpcStatus(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "big")),
            absl::ResourceExhaustedError("big"));
  EXPECT_TRUE(FromGrpcStatus(grpc::Status::OK).ok());
}

TEST(GrpcStatusTest, NonCanonicalCodesBecomeUnknownKeepingTheNumber) {
  // absl itself reports a code outside its range as kUnknown.
  const grpc::Status g = ToGrpcStatus(absl::Status(static_cast<absl::StatusCode>(42), "odd"));
  EXPECT_EQ(g.error_code(), grpc::StatusCode::UNKNOWN);
  const absl::Status a = FromGrpcStatus(grpc::Status(static_cast<grpc::StatusCode>(99), "odd"));
  EXPECT_EQ(a.code(), absl::StatusCode::kUnknown);
  EXPECT_NE(a.message().find("99"), absl::string_view::npos);
}

}  // namespace
}  // namespace pplda::net
