// DocumentTopicLists: built from assignments, each document's list holds
// its non-zero topic counts once each, within its capacity; written-back
// lists replace the old ones without touching the neighbours.
#include "lda/document_topic_lists.h"

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "gtest/gtest.h"

namespace pplda::lda {
namespace {

std::map<int32_t, int32_t> AsMap(std::span<const DocumentTopic> list) {
  std::map<int32_t, int32_t> counts;
  for (const DocumentTopic& e : list) {
    EXPECT_EQ(counts.count(e.topic), 0u) << "topic " << e.topic << " listed twice";
    counts[e.topic] = e.count;
  }
  return counts;
}

TEST(DocumentTopicListsTest, BuiltFromAssignments) {
  const std::vector<int32_t> a = {2, 0, 2, 2, 1}, b = {}, c = {3, 3, 3, 3, 3, 3}, d = {0, 1, 2, 3};
  DocumentTopicLists lists({a, b, c, d}, 4);
  EXPECT_EQ(AsMap(lists.topics(0)), (std::map<int32_t, int32_t>{{0, 1}, {1, 1}, {2, 3}}));
  EXPECT_TRUE(lists.topics(1).empty());
  EXPECT_EQ(AsMap(lists.topics(2)), (std::map<int32_t, int32_t>{{3, 6}}));
  EXPECT_EQ(lists.topics(3).size(), 4u);
  // min(length, K)
  EXPECT_EQ(lists.capacity(0), 4);
  EXPECT_EQ(lists.capacity(1), 0);
  EXPECT_EQ(lists.capacity(2), 4);
  EXPECT_EQ(lists.capacity(3), 4);
}

TEST(DocumentTopicListsTest, WriteBackFillsTheCapacityAndLeavesTheNeighbours) {
  const std::vector<int32_t> a = {0, 0}, b = {1, 1, 1}, c = {2};
  DocumentTopicLists lists({a, b, c}, 8);
  DocumentTopic* list = lists.mutable_topics(1);
  list[0] = {5, 1};
  list[1] = {6, 1};
  list[2] = {7, 1};
  lists.set_size(1, 3);
  EXPECT_EQ(AsMap(lists.topics(1)), (std::map<int32_t, int32_t>{{5, 1}, {6, 1}, {7, 1}}));
  EXPECT_EQ(AsMap(lists.topics(0)), (std::map<int32_t, int32_t>{{0, 2}}));
  EXPECT_EQ(AsMap(lists.topics(2)), (std::map<int32_t, int32_t>{{2, 1}}));
}

}  // namespace
}  // namespace pplda::lda
