#include "base/path_component.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pplda {
namespace {

using ::testing::HasSubstr;

TEST(PathComponentTest, AcceptsOrdinaryNames) {
  for (const char* name : {"alice", "party-2", "run_20261124.1", "Zoë", "..hidden", "a.b"}) {
    EXPECT_TRUE(CheckPathComponent(name, "--party name").ok()) << name;
  }
  EXPECT_TRUE(CheckPathComponent(std::string(kMaxPathComponentBytes, 'a'), "x").ok());
}

TEST(PathComponentTest, RefusesNamesThatLeaveTheirFolder) {
  for (const char* name : {"", ".", "..", "../x", "a/b", "/etc", "a\\b", "a\nb", "a\tb"}) {
    const absl::Status s = CheckPathComponent(name, "--party name");
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << name;
    EXPECT_THAT(s.message(), HasSubstr("--party name")) << s;
  }
  EXPECT_FALSE(CheckPathComponent(std::string("a\0b", 3), "run id").ok());
  EXPECT_FALSE(CheckPathComponent(std::string(kMaxPathComponentBytes + 1, 'a'), "x").ok());
  EXPECT_THAT(CheckPathComponent("../etc", "run id").message(), HasSubstr("'../etc'"));
}

}  // namespace
}  // namespace pplda
