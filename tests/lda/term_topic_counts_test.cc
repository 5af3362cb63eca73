#include "lda/term_topic_counts.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"

namespace pplda::lda {
namespace {

std::vector<int32_t> Sorted(std::span<const int32_t> s) {
  std::vector<int32_t> v(s.begin(), s.end());
  std::sort(v.begin(), v.end());
  return v;
}

TEST(TermTopicCountsTest, NonZeroListsFollowTheCounts) {
  // Term 0 occurs 3 times, term 1 once, term 2 never.
  TermTopicCounts c(4, {3, 1, 0});
  EXPECT_EQ(c.num_topics(), 4);
  EXPECT_EQ(c.num_terms(), 3);
  c.Increment(0, 2);
  c.Increment(0, 2);
  c.Increment(0, 1);
  c.Increment(1, 3);
  EXPECT_EQ(c.count(0, 2), 2);
  EXPECT_EQ(c.row(0)[1], 1);
  EXPECT_EQ(Sorted(c.nonzero_topics(0)), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(Sorted(c.nonzero_topics(1)), (std::vector<int32_t>{3}));
  EXPECT_TRUE(c.nonzero_topics(2).empty());
  c.Decrement(0, 2);
  EXPECT_EQ(Sorted(c.nonzero_topics(0)), (std::vector<int32_t>{1, 2}));
  c.Decrement(0, 2);
  EXPECT_EQ(Sorted(c.nonzero_topics(0)), (std::vector<int32_t>{1}));
  c.Decrement(1, 3);
  EXPECT_TRUE(c.nonzero_topics(1).empty());
}

TEST(TermTopicCountsTest, RebuildAfterDirectRowWrites) {
  TermTopicCounts c(3, {4, 4});
  c.mutable_row(1)[0] = 3;
  c.mutable_row(1)[2] = 1;
  c.RebuildNonzeroLists(0, 2);
  EXPECT_TRUE(c.nonzero_topics(0).empty());
  EXPECT_EQ(Sorted(c.nonzero_topics(1)), (std::vector<int32_t>{0, 2}));
  EXPECT_EQ(c.count(1, 0), 3);
}

TEST(TermTopicCountsTest, CountsWithoutListsStillCount) {
  TermTopicCounts c(3, {4, 4});
  c.Increment(0, 1);
  EXPECT_TRUE(c.has_nonzero_lists());
  c.DropNonzeroLists();
  EXPECT_FALSE(c.has_nonzero_lists());
  c.Increment(0, 1);
  c.Increment(1, 2);
  c.Decrement(0, 1);
  c.Decrement(0, 1);
  EXPECT_EQ(c.count(0, 1), 0);
  EXPECT_EQ(c.count(1, 2), 1);
  const TermTopicCounts copy = c;
  EXPECT_FALSE(copy.has_nonzero_lists());
  EXPECT_EQ(copy.count(1, 2), 1);
}

}  // namespace
}  // namespace pplda::lda
