#include "protocol/two_holder_disclosure.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda::protocol {
namespace {

using ::testing::HasSubstr;

TEST(TwoHolderDisclosureTest, DataHoldersAreThePartiesWithTokens) {
  EXPECT_EQ(protocol::DataHolders({5, 7, 0}), 2);
  EXPECT_EQ(protocol::DataHolders({5, 7, 1}), 3);
  EXPECT_EQ(protocol::DataHolders({0, 0, 0}), 0);
}

// Two holders without DP learn each other's counts: refused unless accepted
// or DP; any other number of holders needs no acceptance.
TEST(TwoHolderDisclosureTest, TwoHoldersWithoutDpNeedAnExplicitAcceptance) {
  const absl::Status refused = protocol::CheckTwoHolderDisclosure(2, false, false, "--the-flag");
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(refused.message()), HasSubstr("learns the other's topic-term counts"));
  EXPECT_THAT(std::string(refused.message()), HasSubstr("--the-flag"));
  EXPECT_TRUE(protocol::CheckTwoHolderDisclosure(2, false, true, "--the-flag").ok());
  EXPECT_TRUE(protocol::CheckTwoHolderDisclosure(2, true, false, "--the-flag").ok());
  for (int holders : {3, 4, 7}) {
    EXPECT_TRUE(protocol::CheckTwoHolderDisclosure(holders, false, false, "--the-flag").ok())
        << holders;
  }
}

}  // namespace
}  // namespace pplda::protocol
