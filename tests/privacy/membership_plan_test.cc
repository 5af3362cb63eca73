// Random halves in complementary pairs: sizes, balance, determinism, and the
// bad-input paths.
#include "privacy/membership_plan.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/privacy/audit_test_util.h"

namespace pplda::privacy {
namespace {

using testing::ExpectError;

int InCount(const MembershipPlan& plan, int32_t d) {
  int n = 0;
  for (int j = 0; j < plan.num_models(); ++j) n += plan.IsMember(j, d);
  return n;
}

TEST(MembershipPlanTest, PairsAreComplementaryHalves) {
  auto plan = MembershipPlan::Create(6, 11, 5);
  ASSERT_TRUE(plan.ok()) << plan.status();
  for (int j = 0; j < 6; ++j) {
    const size_t size = plan->Members(j).size();
    EXPECT_TRUE(size == 5 || size == 6) << "model " << j << " has " << size;
  }
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(plan->Members(2 * p).size() + plan->Members(2 * p + 1).size(), 11u);
    for (int32_t d = 0; d < 11; ++d) {
      EXPECT_NE(plan->IsMember(2 * p, d), plan->IsMember(2 * p + 1, d)) << p << " " << d;
    }
  }
  for (int32_t d = 0; d < 11; ++d) EXPECT_EQ(InCount(*plan, d), 3);
}

TEST(MembershipPlanTest, OddModelCountEndsWithAnUnpairedHalf) {
  auto plan = MembershipPlan::Create(7, 10, 5);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->Members(6).size(), 5u);
  for (int32_t d = 0; d < 10; ++d) {
    const int n = InCount(*plan, d);
    EXPECT_TRUE(n == 3 || n == 4) << d;
  }
}

TEST(MembershipPlanTest, MembersAreIncreasingAndMatchIsMember) {
  auto plan = MembershipPlan::Create(2, 9, 1);
  ASSERT_TRUE(plan.ok());
  const std::vector<int32_t> m = plan->Members(0);
  for (size_t i = 1; i < m.size(); ++i) EXPECT_LT(m[i - 1], m[i]);
  for (int32_t d : m) EXPECT_TRUE(plan->IsMember(0, d));
}

TEST(MembershipPlanTest, DeterministicGivenTheSeed) {
  auto a = MembershipPlan::Create(8, 50, 42);
  auto b = MembershipPlan::Create(8, 50, 42);
  auto c = MembershipPlan::Create(8, 50, 43);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  bool differs = false;
  for (int j = 0; j < 8; ++j) {
    EXPECT_EQ(a->Members(j), b->Members(j));
    differs |= a->Members(j) != c->Members(j);
  }
  EXPECT_TRUE(differs);
}

TEST(MembershipPlanTest, EachDocumentIsInTheFirstModelOfAPairHalfTheTime) {
  // 200 pairs, 10 documents: membership in model 2p is Binomial(200, 1/2)
  // per document; [70, 130] is more than 4 standard deviations wide.
  auto plan = MembershipPlan::Create(400, 10, 9);
  ASSERT_TRUE(plan.ok());
  for (int32_t d = 0; d < 10; ++d) {
    int first = 0;
    for (int p = 0; p < 200; ++p) first += plan->IsMember(2 * p, d);
    EXPECT_GE(first, 70) << d;
    EXPECT_LE(first, 130) << d;
  }
}

TEST(MembershipPlanTest, RejectsTooFewModelsOrDocuments) {
  ExpectError(MembershipPlan::Create(1, 10, 1).status(), absl::StatusCode::kInvalidArgument,
              "got 1 models, 10 documents");
  ExpectError(MembershipPlan::Create(4, 1, 1).status(), absl::StatusCode::kInvalidArgument,
              "got 4 models, 1 documents");
}

}  // namespace
}  // namespace pplda::privacy
