// PartySession::Create: the run id names the party's folder
// state_dir/runs/<run id>/ (its mixtures.csv), so an id that would leave that
// folder ('/', '\\', "." or "..", a control character, empty) is refused with
// InvalidArgument naming header.run_id, before anything else is looked at; a
// plain id (even one holding "..") goes on to the parameter checks.
#include "party/party_session.h"

#include <cstdint>
#include <string>
#include <vector>

#include "crypto/transport.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/party_control_service.pb.h"

namespace pplda::party {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A transport that is never used: Create refuses before any message.
class UnusedTransport : public crypto::PartyTransport {
 public:
  int party_id() const override { return 0; }
  int num_parties() const override { return 3; }
  absl::Status Send(int, uint64_t, std::vector<uint8_t>) override {
    return absl::InternalError("UnusedTransport::Send");
  }
  absl::StatusOr<std::vector<uint8_t>> Receive(int, uint64_t) override {
    return absl::InternalError("UnusedTransport::Receive");
  }
};

absl::Status CreateWithRunId(const std::string& run_id) {
  UnusedTransport transport;
  PartyResources resources;
  pplda::v1::RunParameters parameters;  // num_topics 0: refused after the run id
  return PartySession::Create(run_id, parameters, resources, transport).status();
}

TEST(PartySessionTest, RefusesARunIdThatLeavesTheRunsFolder) {
  for (const std::string& run_id : std::vector<std::string>{
           "../escape", "..", ".", "runs/../../etc", "a/b", "/absolute", "a\\b", "tab\there",
           std::string("nul\0x", 5), ""}) {
    const absl::Status s = CreateWithRunId(run_id);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << run_id << ": " << s;
    EXPECT_THAT(s.message(), HasSubstr("header.run_id")) << run_id;
  }
}

TEST(PartySessionTest, RefusesAnOverlongRunId) {
  const absl::Status s = CreateWithRunId(std::string(256, 'r'));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("header.run_id"));
  EXPECT_THAT(s.message(), HasSubstr("at most 255"));
}

TEST(PartySessionTest, APlainRunIdGoesOnToTheParameterChecks) {
  for (const std::string& run_id :
       std::vector<std::string>{"run-20261124-0001", "a..b", "...", std::string(255, 'r')}) {
    const absl::Status s = CreateWithRunId(run_id);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << run_id << ": " << s;
    EXPECT_THAT(s.message(), Not(HasSubstr("header.run_id"))) << run_id;
    EXPECT_THAT(s.message(), HasSubstr("parameters.num_topics")) << run_id;
  }
}

}  // namespace
}  // namespace pplda::party
