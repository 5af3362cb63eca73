// The sparse sampler's token layout: every document's tokens regrouped by
// term range, most frequent term first (ties by term id), a term's tokens
// in reading order, with each entry's assignment and index carried along.
// Checked against a direct per-segment sort, and by hand on a small case.
#include "lda/token_layout.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lda/corpus.h"
#include "lda/gibbs_state.h"
#include "lda/random.h"

namespace pplda::lda {
namespace {

Corpus CorpusOf(const std::vector<std::vector<TermId>>& documents, int num_terms) {
  Corpus corpus;
  for (int t = 0; t < num_terms; ++t) corpus.vocabulary.Add(absl::StrCat("t", t));
  for (const auto& tokens : documents) corpus.documents.push_back(Document{"", tokens});
  return corpus;
}

GibbsState StateOf(const Corpus& corpus, int num_topics, uint64_t seed) {
  auto state = GibbsState::Create(corpus, num_topics,
                                  GibbsState::RandomTopics(corpus, num_topics, seed));
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

// The layout by the definition: each segment's indices, sorted.
TokenLayout Reference(const GibbsState& state, const std::vector<TermId>& bounds) {
  const std::vector<int32_t> frequency = state.TermFrequencies();
  const int parts = static_cast<int>(bounds.size()) - 1;
  TokenLayout out;
  for (int32_t m = 0; m < state.num_documents(); ++m) {
    for (int g = 0; g < parts; ++g) {
      out.segment.push_back(static_cast<int64_t>(out.terms.size()));
      std::vector<int32_t> order;
      for (size_t i = 0; i < state.tokens[m].size(); ++i) {
        const TermId t = state.tokens[m][i];
        if (t >= bounds[g] && t < bounds[g + 1]) order.push_back(static_cast<int32_t>(i));
      }
      std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        const TermId ta = state.tokens[m][a], tb = state.tokens[m][b];
        return frequency[ta] != frequency[tb] ? frequency[ta] > frequency[tb] : ta < tb;
      });
      for (const int32_t i : order) {
        out.terms.push_back(state.tokens[m][i]);
        out.z.push_back(state.z[m][i]);
        out.position.push_back(i);
      }
    }
    out.segment.push_back(static_cast<int64_t>(out.terms.size()));
  }
  return out;
}

TEST(TokenLayoutTest, SmallCaseByHand) {
  // Frequencies: t0 1, t1 3, t2 3, t3 2. Order: t1, t2 (tie by id), t3, t0.
  const Corpus corpus = CorpusOf({{0, 2, 1, 3, 1}, {2, 3, 2, 1}}, 4);
  const GibbsState state = StateOf(corpus, 3, 7);
  const TokenLayout one = TokenLayout::Build(state, {0, 4});
  EXPECT_EQ(one.segment, (std::vector<int64_t>{0, 5, 5, 9}));
  EXPECT_EQ(one.terms, (std::vector<TermId>{1, 1, 2, 3, 0, 1, 2, 2, 3}));
  EXPECT_EQ(one.position, (std::vector<int32_t>{2, 4, 1, 3, 0, 3, 0, 2, 1}));
  for (size_t n = 0; n < one.terms.size(); ++n) {
    const int32_t m = n < 5 ? 0 : 1;
    EXPECT_EQ(one.z[n], state.z[m][one.position[n]]) << n;
  }
  // Two ranges, {t0, t1} and {t2, t3}: each document's first range first.
  const TokenLayout two = TokenLayout::Build(state, {0, 2, 4});
  EXPECT_EQ(two.segment, (std::vector<int64_t>{0, 3, 5, 5, 6, 9}));
  EXPECT_EQ(two.terms, (std::vector<TermId>{1, 1, 0, 2, 3, 1, 2, 2, 3}));
  EXPECT_EQ(two.position, (std::vector<int32_t>{2, 4, 0, 1, 3, 3, 0, 2, 1}));
}

TEST(TokenLayoutTest, MatchesASortOfEverySegment) {
  Rng rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const int num_terms = 1 + static_cast<int>(rng.Below(60));
    std::vector<std::vector<TermId>> documents(1 + rng.Below(30));
    for (auto& doc : documents) {
      doc.resize(1 + rng.Below(80));
      // Skewed term frequencies, so that ties and long runs both occur.
      for (TermId& t : doc) t = static_cast<TermId>(rng.Below(1 + rng.Below(num_terms)));
    }
    const GibbsState state = StateOf(CorpusOf(documents, num_terms), 5, trial);
    for (const int parts : {1, 2, 3, 7}) {
      std::vector<TermId> bounds{0};
      for (int g = 1; g < parts; ++g) bounds.push_back(static_cast<TermId>(rng.Below(num_terms + 1)));
      bounds.push_back(num_terms);
      std::sort(bounds.begin(), bounds.end());
      const TokenLayout got = TokenLayout::Build(state, bounds);
      const TokenLayout want = Reference(state, bounds);
      EXPECT_EQ(got.segment, want.segment) << trial << " " << parts;
      EXPECT_EQ(got.terms, want.terms) << trial << " " << parts;
      EXPECT_EQ(got.z, want.z) << trial << " " << parts;
      EXPECT_EQ(got.position, want.position) << trial << " " << parts;
    }
  }
}

TEST(TermVisitRanksTest, MostFrequentFirstTiesByTermId) {
  EXPECT_EQ(TermVisitRanks({1, 3, 3, 0, 2}), (std::vector<uint32_t>{3, 0, 1, 4, 2}));
  EXPECT_TRUE(TermVisitRanks({}).empty());
}

}  // namespace
}  // namespace pplda::lda
