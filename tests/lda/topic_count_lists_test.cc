// TopicCountLists against a plain dense table under random updates: the
// lists hold exactly the non-zero counts, each topic once, padded with
// sentinels; two tables with equal counts are equal whatever the order of
// the updates (and of their lists); FitsIn bounds the packed counts.
#include "lda/topic_count_lists.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "lda/random.h"
#include "lda/term_topic_counts.h"

namespace pplda::lda {
namespace {

constexpr int kTerms = 6;

// Dense reference counts and the table built from them.
struct Fixture {
  Fixture(int k, std::vector<int32_t> frequency) : num_topics(k), freq(std::move(frequency)),
      dense(k, freq) {}
  int num_topics;
  std::vector<int32_t> freq;
  TermTopicCounts dense;
};

template <typename Entry>
void ExpectListsMatch(const TopicCountLists<Entry>& lists, const TermTopicCounts& dense,
                      int k) {
  for (TermId t = 0; t < dense.num_terms(); ++t) {
    const auto entries = lists.entries(t);
    int nonzero = 0;
    for (int topic = 0; topic < k; ++topic) nonzero += dense.count(t, topic) > 0 ? 1 : 0;
    ASSERT_EQ(static_cast<int>(entries.size()), nonzero) << "term " << t;
    ASSERT_EQ(lists.size(t), nonzero);
    std::vector<bool> seen(k, false);
    for (size_t j = 0; j < entries.size(); ++j) {
      const int topic = lists.topic(entries[j]);
      ASSERT_LT(topic, k) << "a sentinel inside the list";
      EXPECT_FALSE(seen[topic]) << "topic " << topic << " listed twice";
      seen[topic] = true;
      EXPECT_EQ(lists.count(entries[j]), dense.count(t, topic));
    }
    const auto padded = lists.padded_entries(t);
    EXPECT_EQ(padded.size() % kListLanes, 0u);
    for (size_t j = entries.size(); j < padded.size(); ++j) {
      EXPECT_EQ(lists.topic(padded[j]), k) << "padding is not the sentinel";
      EXPECT_EQ(lists.count(padded[j]), 0);
    }
  }
}

template <typename Entry>
void RandomUpdatesKeepTheListsEqualToTheCounts() {
  for (const int k : {1, 2, 5, 64, 300}) {
    Fixture f(k, {1, 3, 7, 40, 200, 1000});
    // Every token starts in topic (token index mod k).
    std::vector<std::vector<int>> topic(kTerms);
    for (TermId t = 0; t < kTerms; ++t) {
      for (int i = 0; i < f.freq[t]; ++i) {
        topic[t].push_back(i % k);
        f.dense.Increment(t, i % k);
      }
    }
    TopicCountLists<Entry> lists(f.dense, f.freq);
    ExpectListsMatch(lists, f.dense, k);
    Rng rng(static_cast<uint64_t>(k));
    for (int step = 0; step < 20000; ++step) {
      const TermId t = static_cast<TermId>(rng.Next() % kTerms);
      const int i = static_cast<int>(rng.Next() % f.freq[t]);
      const int from = topic[t][i];
      // Skewed targets, so that some counts grow large and others reach 0.
      const int to = static_cast<int>((rng.Next() % k) * (rng.Next() % 2) % k);
      if (to == from) continue;
      switch (step % 3) {
        case 0:
          lists.Decrement(t, from);
          lists.Increment(t, to);
          break;
        case 1:  // both indices known
          lists.Transfer(t, lists.IndexOf(t, from), to, lists.IndexOf(t, to) < lists.size(t)
                                                          ? lists.IndexOf(t, to) : -1);
          break;
        default:  // the target found by the table
          lists.Transfer(t, lists.IndexOf(t, from), to, -1);
      }
      f.dense.Decrement(t, from);
      f.dense.Increment(t, to);
      topic[t][i] = to;
      if (step % 997 == 0) ExpectListsMatch(lists, f.dense, k);
    }
    ExpectListsMatch(lists, f.dense, k);
    // Equal counts, equal tables, though built in another order.
    EXPECT_TRUE(lists == TopicCountLists<Entry>(f.dense, f.freq));
    TermTopicCounts copy(k, f.freq);
    lists.CopyTo(copy);
    for (TermId t = 0; t < kTerms; ++t) {
      for (int topic_k = 0; topic_k < k; ++topic_k) {
        EXPECT_EQ(copy.count(t, topic_k), f.dense.count(t, topic_k));
      }
      const int32_t at = lists.IndexOf(t, 0);
      EXPECT_EQ(at < lists.size(t) ? lists.count(lists.entries(t)[at]) : 0, f.dense.count(t, 0));
    }
  }
}

TEST(TopicCountListsTest, RandomUpdatesKeepThe32BitListsEqualToTheCounts) {
  RandomUpdatesKeepTheListsEqualToTheCounts<uint32_t>();
}

TEST(TopicCountListsTest, RandomUpdatesKeepThe64BitListsEqualToTheCounts) {
  RandomUpdatesKeepTheListsEqualToTheCounts<uint64_t>();
}

// A term that never occurs (frequency 0, e.g. a test-only term) has an empty
// list, also when it is the last one; and counts up to the packing limit
// survive: K = 65535 leaves 16 bits of count in a 32-bit entry.
TEST(TopicCountListsTest, EmptyTermsAndCountsAtThePackingLimit) {
  const int k = 65535;
  const int32_t limit = (1 << 16) - 1;
  ASSERT_TRUE(TopicCountLists<uint32_t>::FitsIn(k, limit));
  Fixture f(k, {0, limit, 0});
  TopicCountLists<uint32_t> lists(f.dense, f.freq);
  for (int32_t i = 0; i < limit; ++i) lists.Increment(1, 7);
  lists.Increment(1, k - 1);
  lists.Decrement(1, 7);
  ASSERT_EQ(lists.size(1), 2);
  EXPECT_EQ(lists.count(lists.entries(1)[0]), limit - 1);
  EXPECT_EQ(lists.topic(lists.entries(1)[0]), 7);
  EXPECT_EQ(lists.topic(lists.entries(1)[1]), k - 1);
  EXPECT_EQ(lists.size(0), 0);
  EXPECT_EQ(lists.size(2), 0);
  EXPECT_TRUE(lists.padded_entries(2).empty());
  TermTopicCounts copy(k, f.freq);
  lists.CopyTo(copy);
  EXPECT_EQ(copy.count(1, 7), limit - 1);
  EXPECT_EQ(copy.count(1, k - 1), 1);
  EXPECT_DOUBLE_EQ(lists.SumLogGammaOfCounts(LogGammaTable(0.5, 4)),
                   std::lgamma(limit - 1 + 0.5) + std::lgamma(1.5) - 2 * std::lgamma(0.5));
}

TEST(TopicCountListsTest, TableWithDifferentCountsIsNotEqual) {
  Fixture f(4, {3, 3});
  f.dense.Increment(0, 1);
  f.dense.Increment(1, 2);
  TopicCountLists<uint32_t> a(f.dense, f.freq);
  a.Increment(0, 3);
  EXPECT_FALSE(a == TopicCountLists<uint32_t>(f.dense, f.freq));
}

TEST(TopicCountListsTest, FitsInLeavesRoomForTheSentinelTopicAndTheCounts) {
  // K = 255 needs 8 topic bits (topics 0..254 and the sentinel 255): 24 bits
  // of count in 32-bit entries.
  EXPECT_EQ(TopicCountLists<uint32_t>::TopicBits(255), 8);
  EXPECT_EQ(TopicCountLists<uint32_t>::TopicBits(256), 9);
  EXPECT_TRUE(TopicCountLists<uint32_t>::FitsIn(255, (int64_t{1} << 24) - 1));
  EXPECT_FALSE(TopicCountLists<uint32_t>::FitsIn(255, int64_t{1} << 24));
  EXPECT_FALSE(TopicCountLists<uint32_t>::FitsIn(65535, int64_t{1} << 16));
  EXPECT_TRUE(TopicCountLists<uint64_t>::FitsIn(65535, int64_t{1} << 40));
}

}  // namespace
}  // namespace pplda::lda

namespace pplda::lda {
namespace {

// Built from the assignments (no dense table), the lists are the dense
// table's, entry for entry: the same counts, in increasing topic order.
template <typename Entry>
void ExpectListsFromAssignmentsMatchTheDenseTable(int k, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<TermId>> tokens(7);
  std::vector<std::vector<int>> z(7);
  std::vector<int32_t> frequency(kTerms, 0);
  TermTopicCounts dense(k, std::vector<int32_t>(kTerms, 200));
  for (size_t m = 0; m < tokens.size(); ++m) {
    const uint32_t length = m == 3 ? 0 : 1 + rng.Below(40);  // document 3 empty
    for (uint32_t i = 0; i < length; ++i) {
      const TermId t = static_cast<TermId>(rng.Below(kTerms - 1));  // the last term unused
      const int topic = static_cast<int>(rng.Below(static_cast<uint32_t>(k)));
      tokens[m].push_back(t);
      z[m].push_back(topic);
      ++frequency[t];
      dense.Increment(t, topic);
    }
  }
  const TopicCountLists<Entry> from_dense(dense, frequency);
  const TopicCountLists<Entry> from_z(k, frequency, tokens, z);
  EXPECT_TRUE(from_z == from_dense);
  for (TermId t = 0; t < kTerms; ++t) {
    const auto a = from_z.padded_entries(t);
    const auto b = from_dense.padded_entries(t);
    ASSERT_EQ(a.size(), b.size()) << "term " << t;
    for (size_t j = 0; j < a.size(); ++j) EXPECT_EQ(a[j], b[j]) << "term " << t << " entry " << j;
  }
  EXPECT_EQ(from_z.size(kTerms - 1), 0);
}

TEST(TopicCountListsTest, ListsFromAssignmentsAreTheDenseTablesLists) {
  for (const int k : {1, 3, 20, 50}) {
    ExpectListsFromAssignmentsMatchTheDenseTable<uint32_t>(k, 17 + k);
    ExpectListsFromAssignmentsMatchTheDenseTable<uint64_t>(k, 31 + k);
  }
}

}  // namespace
}  // namespace pplda::lda
