#include "coordinator/failure_root_cause.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace pplda::coordinator {
namespace {

const std::vector<std::string> kNames = {"early", "middle", "modern"};

TEST(FailureRootCauseTest, AllOkHasNoRootCause) {
  EXPECT_EQ(RootCauseParty({absl::OkStatus(), absl::OkStatus(), absl::OkStatus()}, kNames), -1);
}

// The failure an e2e run showed: middle killed; early's link to it failed
// first, so early closed its link to modern, whose error names early. The
// dead party is middle, named by early while naming nobody itself.
TEST(FailureRootCauseTest, FollowsTheChainToTheDeadParty) {
  const std::vector<absl::Status> results = {
      absl::UnavailableError(
          "link to party 1 (middle at 127.0.0.1:25843) failed: Socket closed"),
      absl::UnavailableError("Socket closed"),
      absl::UnavailableError("party 0 (early) closed its link before sending its message of "
                             "iteration 2 round 52: its stream was cancelled")};
  EXPECT_EQ(RootCauseParty(results, kNames), 1);
  // The same when the dead party's own call has not failed in a way that
  // names anyone, whatever the order of the others.
  const std::vector<absl::Status> reordered = {results[2], results[1], results[0]};
  EXPECT_EQ(RootCauseParty(reordered, {"modern", "middle", "early"}), 1);
}

TEST(FailureRootCauseTest, MostNamedPartyWins) {
  const std::vector<absl::Status> results = {
      absl::UnavailableError("connection refused"),
      absl::UnavailableError("link to party 2 (modern at 127.0.0.1:1) failed"),
      absl::UnavailableError("deadline exceeded"),
  };
  // modern is named (by middle) and names nobody; early is named by no one.
  EXPECT_EQ(RootCauseParty(results, kNames), 2);
}

TEST(FailureRootCauseTest, WithoutNamesThePrimaryFailureWins) {
  EXPECT_EQ(RootCauseParty({absl::AbortedError("aborted by the coordinator"),
                            absl::InvalidArgumentError("count update of party 1: bad"),
                            absl::CancelledError("cancelled")},
                           kNames),
            1);
  EXPECT_EQ(RootCauseParty({absl::OkStatus(), absl::AbortedError("a"), absl::CancelledError("c")},
                           kNames),
            1);
}

TEST(FailureRootCauseTest, NamesPartyMatchesTheTransportsForms) {
  EXPECT_TRUE(NamesParty("party 0 (early) closed its link", "early"));
  EXPECT_TRUE(NamesParty("link to party 1 (middle at 127.0.0.1:2) failed", "middle"));
  EXPECT_FALSE(NamesParty("link to party 1 (middleware at 127.0.0.1:2) failed", "middle"));
  EXPECT_FALSE(NamesParty("party middle failed", "middle"));
}

}  // namespace
}  // namespace pplda::coordinator
