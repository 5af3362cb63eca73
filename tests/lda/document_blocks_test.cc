// How samplers split documents between threads (lda/document_blocks.h).
#include "lda/document_blocks.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "lda/gibbs_state.h"
#include "tests/lda/model_test_util.h"

namespace pplda::lda {
namespace {

// A state whose documents have the given lengths (term 0 throughout).
GibbsState StateWithLengths(const std::vector<int>& lengths) {
  GibbsState state;
  for (const int n : lengths) {
    state.tokens.emplace_back(n, 0);
    state.num_tokens += n;
  }
  return state;
}

TEST(DocumentBlocksTest, InterleavedSetsTakeEachRunByFewestTokens) {
  // 16 tokens: runs of at least 16 / 8 = 2 tokens, {5}, {1, 1}, {4}, {2},
  // {3}. Set 0 takes {5} (ties go low), set 1 {1, 1}, set 1 {4} (2 < 5),
  // set 0 {2} (5 < 6), set 1 {3} (6 < 7).
  const GibbsState state = StateWithLengths({5, 1, 1, 4, 2, 3});
  EXPECT_EQ(InterleavedDocumentSets(state, 2),
            (std::vector<std::vector<int32_t>>{{0, 4}, {1, 2, 3, 5}}));
  EXPECT_EQ(InterleavedDocumentSets(state, 1),
            (std::vector<std::vector<int32_t>>{{0, 1, 2, 3, 4, 5}}));
  // 128 documents of 10 tokens in 2 sets: runs of 1280 / (2 x 4) = 160
  // tokens, 16 documents, alternating.
  const std::vector<std::vector<int32_t>> runs =
      InterleavedDocumentSets(StateWithLengths(std::vector<int>(128, 10)), 2);
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_EQ(runs[0].size(), 64u);
  ASSERT_EQ(runs[1].size(), 64u);
  for (int32_t j = 0; j < 64; ++j) {
    EXPECT_EQ(runs[0][j], j / 16 * 32 + j % 16) << j;
    EXPECT_EQ(runs[1][j], j / 16 * 32 + 16 + j % 16) << j;
  }
  // More sets than documents: the extra sets stay empty.
  EXPECT_EQ(InterleavedDocumentSets(StateWithLengths({2, 2}), 3),
            (std::vector<std::vector<int32_t>>{{0}, {1}, {}}));
}

TEST(DocumentBlocksTest, InterleavedSetsCoverEveryDocumentOnceWithBalancedTokens) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 301, 1, 60, 0.2, 5).corpus;
  const GibbsState state = *GibbsState::Create(c, 3, GibbsState::RandomTopics(c, 3, 1));
  int64_t longest = 0;
  for (const auto& doc : state.tokens) longest = std::max<int64_t>(longest, doc.size());
  for (const int parts : {2, 3, 7}) {
    const std::vector<std::vector<int32_t>> sets = InterleavedDocumentSets(state, parts);
    ASSERT_EQ(sets.size(), static_cast<size_t>(parts));
    std::vector<int> seen(state.num_documents(), 0);
    std::vector<int64_t> tokens;
    for (const auto& set : sets) {
      EXPECT_TRUE(std::is_sorted(set.begin(), set.end()));
      int64_t n = 0;
      for (const int32_t m : set) {
        ++seen[m];
        n += static_cast<int64_t>(state.tokens[m].size());
      }
      tokens.push_back(n);
      // Every set has documents in both halves of the corpus (contiguous
      // blocks would not).
      ASSERT_FALSE(set.empty());
      EXPECT_LT(set.front(), state.num_documents() / 2) << parts << " sets";
      EXPECT_GE(set.back(), state.num_documents() / 2) << parts << " sets";
    }
    for (const int count : seen) ASSERT_EQ(count, 1);
    const auto [low, high] = std::minmax_element(tokens.begin(), tokens.end());
    EXPECT_LE(*high - *low, state.num_tokens / (parts * kInterleavedRuns) + longest)
        << parts << " sets";
  }
}

}  // namespace
}  // namespace pplda::lda
