// Unit tests of both Gibbs samplers: option and input checks, counts that
// stay consistent with the assignments, determinism, the exact formulas of
// the log-likelihood, the mixtures and the batched token conditional.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lda/batched_gibbs_sampler.h"
#include "lda/collapsed_gibbs_sampler.h"
#include "lda/sparse_gibbs_sampler.h"
#include "lda/lda_sampler.h"
#include "lda/metropolis_hastings_sampler.h"
#include "lda/warp_sampler.h"
#include "tests/lda/model_test_util.h"

namespace pplda::lda {
namespace {

using model_testing::ExpectError;
using model_testing::MakeCorpus;

Corpus TinyCorpus() {
  return MakeCorpus({"apple banana apple cherry", "banana banana date", "cherry date apple",
                     "egg", "apple egg egg banana cherry date"});
}

SamplerOptions Options(int k, int threads, uint64_t seed = 7) {
  SamplerOptions o;
  o.num_topics = k;
  o.alpha = 0.3;
  o.beta = 0.05;
  o.seed = seed;
  o.threads = threads;
  return o;
}

absl::StatusOr<std::unique_ptr<LdaSampler>> Make(const std::string& kind, const Corpus& c,
                                                 const SamplerOptions& o) {
  return CreateSampler(kind, c, o);
}

TEST(SamplerOptionsTest, EveryOutOfRangeOptionIsNamed) {
  const Corpus c = TinyCorpus();
  for (const std::string kind : {"standard", "sparse", "batched"}) {
    SamplerOptions o = Options(3, 1);
    o.num_topics = 0;
    ExpectError(Make(kind, c, o).status(), absl::StatusCode::kInvalidArgument, "num_topics is 0");
    o = Options(3, 1);
    o.num_topics = 70000;
    ExpectError(Make(kind, c, o).status(), absl::StatusCode::kInvalidArgument, "num_topics");
    o = Options(3, 1);
    o.alpha = 0;
    ExpectError(Make(kind, c, o).status(), absl::StatusCode::kInvalidArgument, "alpha is 0");
    o = Options(3, 1);
    o.beta = -1;
    ExpectError(Make(kind, c, o).status(), absl::StatusCode::kInvalidArgument, "beta is -1");
    o = Options(3, 1);
    o.beta = INFINITY;
    ExpectError(Make(kind, c, o).status(), absl::StatusCode::kInvalidArgument, "beta");
    o = Options(3, 1);
    o.threads = -1;
    ExpectError(Make(kind, c, o).status(), absl::StatusCode::kInvalidArgument, "threads is -1");
  }
}

TEST(CreateSamplerTest, UnknownKindIsNamed) {
  ExpectError(Make("fancy", TinyCorpus(), Options(2, 1)).status(),
              absl::StatusCode::kInvalidArgument, "'fancy'");
}

TEST(CreateSamplerTest, BadCorporaAreRejected) {
  for (const std::string kind : {"standard", "sparse", "mh", "warp", "batched"}) {
    Corpus empty;
    ExpectError(Make(kind, empty, Options(2, 1)).status(), absl::StatusCode::kInvalidArgument,
                "vocabulary is empty");
    Corpus no_tokens = MakeCorpus({"", ""}, {"a"});
    ExpectError(Make(kind, no_tokens, Options(2, 1)).status(),
                absl::StatusCode::kInvalidArgument, "no tokens");
    Corpus bad_id = TinyCorpus();
    bad_id.documents[1].tokens[2] = 99;
    ExpectError(Make(kind, bad_id, Options(2, 1)).status(), absl::StatusCode::kInvalidArgument,
                "term id 99");
  }
  // At K = 200 the sparse sampler's start indexes by term id: checked first.
  Corpus big = model_testing::MakeSyntheticCorpus(5, 250, 40, 5, 20, 0.2, 4).corpus;
  ASSERT_EQ(SparseGibbsSampler::StartFor(big, 200), SparseGibbsSampler::Start::kTopicsSpreadByTerm);
  big.documents[3].tokens[1] = 1000000;
  ExpectError(Make("sparse", big, Options(200, 1)).status(), absl::StatusCode::kInvalidArgument,
              "term id 1000000");
}

TEST(CreateSamplerTest, InitialTopicsAreCheckedAndUsed) {
  const Corpus c = MakeCorpus({"a b a", "b c"});
  const SamplerOptions o = Options(2, 1);
  ExpectError(CollapsedGibbsSampler::Create(c, o, {{0, 1, 0}}).status(),
              absl::StatusCode::kInvalidArgument, "1 documents given");
  ExpectError(BatchedGibbsSampler::Create(c, o, {{0, 1, 0}, {1}}).status(),
              absl::StatusCode::kInvalidArgument, "document 1 (doc1) has 1 topics for its 2");
  ExpectError(BatchedGibbsSampler::Create(c, o, {{0, 1, 0}, {1, 2}}).status(),
              absl::StatusCode::kInvalidArgument, "position 1 has topic 2");
  auto s = BatchedGibbsSampler::Create(c, o, {{0, 1, 0}, {1, 1}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->assignments(), (std::vector<std::vector<int>>{{0, 1, 0}, {1, 1}}));
  // n_k(t): topic 0 has a twice; topic 1 has b twice and c once.
  EXPECT_EQ((*s)->Model().topic_term_counts, (std::vector<int64_t>{2, 0, 0, 0, 2, 1}));
}

TEST(CreateSamplerTest, BothSamplersStartFromTheSameRandomState) {
  const Corpus c = TinyCorpus();
  auto a = Make("standard", c, Options(4, 1));
  auto b = Make("batched", c, Options(4, 2));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((*a)->assignments(), (*b)->assignments());
  EXPECT_EQ((*a)->assignments(), GibbsState::RandomTopics(c, 4, 7));
}

// The sparse sampler starts each document in one topic when there are at
// least K documents (TinyCorpus has 5), else from the same random state as
// the others; from K = kSpreadStartMinTopics on, given as many terms, each
// term's tokens over kSpreadStartTopicsPerTerm topics of its own.
TEST(CreateSamplerTest, SparseSamplerStartIsChosenByKDocumentsAndTerms) {
  using Start = SparseGibbsSampler::Start;
  const Corpus c = TinyCorpus();
  for (int threads : {1, 2}) {
    auto five = Make("sparse", c, Options(5, threads));
    ASSERT_TRUE(five.ok()) << five.status();
    EXPECT_EQ((*five)->assignments(), GibbsState::OneTopicPerDocument(c, 5, 7));
    auto six = Make("sparse", c, Options(6, threads));
    ASSERT_TRUE(six.ok()) << six.status();
    EXPECT_EQ((*six)->assignments(), GibbsState::RandomTopics(c, 6, 7));
  }
  EXPECT_EQ(SparseGibbsSampler::StartFor(c, 5), Start::kOneTopicPerDocument);
  EXPECT_EQ(SparseGibbsSampler::StartFor(c, 6), Start::kRandomTopics);
  // 300 documents, 250 terms: the spread start from K = 200 up to K = 250.
  const int k_min = SparseGibbsSampler::kSpreadStartMinTopics;
  ASSERT_EQ(k_min, 200);
  const Corpus big = model_testing::MakeSyntheticCorpus(5, 250, 300, 5, 20, 0.2, 4).corpus;
  EXPECT_EQ(SparseGibbsSampler::StartFor(big, k_min - 1), Start::kOneTopicPerDocument);
  EXPECT_EQ(SparseGibbsSampler::StartFor(big, k_min), Start::kTopicsSpreadByTerm);
  EXPECT_EQ(SparseGibbsSampler::StartFor(big, 250), Start::kTopicsSpreadByTerm);
  EXPECT_EQ(SparseGibbsSampler::StartFor(big, 251), Start::kOneTopicPerDocument);
  for (int threads : {1, 2}) {
    auto spread = Make("sparse", big, Options(k_min, threads));
    ASSERT_TRUE(spread.ok()) << spread.status();
    EXPECT_EQ((*spread)->assignments(),
              GibbsState::TopicsSpreadByTerm(
                  big, k_min, SparseGibbsSampler::kSpreadStartTopicsPerTerm, 7));
  }
}

// Without tables, a state holds what Create's does but doc_topic and
// term_topic; BuildTables makes it Create's, consistent with z.
TEST(GibbsStateTest, StateWithoutTablesBuildsCreatesTables) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 60, 5, 40, 0.2, 2).corpus;
  const auto topics = GibbsState::RandomTopics(c, 6, 5);
  auto full = GibbsState::Create(c, 6, topics);
  auto lean = GibbsState::CreateWithoutTables(c, 6, topics);
  ASSERT_TRUE(full.ok() && lean.ok());
  EXPECT_TRUE(full->has_tables());
  EXPECT_FALSE(lean->has_tables());
  EXPECT_EQ(lean->z, full->z);
  EXPECT_EQ(lean->tokens, full->tokens);
  EXPECT_EQ(lean->topic_totals, full->topic_totals);
  EXPECT_EQ(lean->num_tokens, full->num_tokens);
  lean->BuildTables();
  EXPECT_TRUE(lean->has_tables());
  EXPECT_EQ(lean->doc_topic, full->doc_topic);
  EXPECT_EQ(lean->TopicTermCountsByTopic(), full->TopicTermCountsByTopic());
  EXPECT_TRUE(lean->CheckConsistency().ok()) << lean->CheckConsistency();
  // The same errors: a topic out of range.
  auto bad = topics;
  bad[0][0] = 6;
  EXPECT_FALSE(GibbsState::CreateWithoutTables(c, 6, bad).ok());
}

// The sparse sampler's state() has its tables before any iteration, though
// the sampler is built without them.
TEST(SparseSamplerTest, StateHasItsTablesBeforeAnyIteration) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 60, 5, 40, 0.2, 2).corpus;
  for (int threads : {1, 2}) {
    auto s = SparseGibbsSampler::Create(c, Options(6, threads));
    ASSERT_TRUE(s.ok()) << s.status();
    const GibbsState& state = (*s)->state();
    EXPECT_TRUE(state.has_tables());
    EXPECT_TRUE(state.CheckConsistency().ok()) << state.CheckConsistency();
    EXPECT_TRUE((*s)->CheckConsistency().ok());
  }
}

// Each term's tokens land in at most `spread` topics, each of its tokens on
// one of them uniformly, the terms' topics uniform over K.
TEST(GibbsStateTest, TopicsSpreadByTermPutsEachTermInAFewUniformTopics) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 500, 400, 20, 40, 0.2, 9).corpus;
  const int k = 50, spread = 4;
  const std::vector<std::vector<int>> start = GibbsState::TopicsSpreadByTerm(c, k, spread, 3);
  ASSERT_EQ(start.size(), c.documents.size());
  std::vector<std::map<int, int>> topics_of(c.vocabulary.size());  // term -> topic -> tokens
  for (size_t m = 0; m < start.size(); ++m) {
    ASSERT_EQ(start[m].size(), c.documents[m].tokens.size());
    for (size_t i = 0; i < start[m].size(); ++i) {
      ASSERT_GE(start[m][i], 0);
      ASSERT_LT(start[m][i], k);
      ++topics_of[c.documents[m].tokens[i]][start[m][i]];
    }
  }
  std::vector<int> terms_in(k, 0);
  int64_t largest_share_sum = 0, tokens_of_spread_terms = 0;
  for (const auto& topics : topics_of) {
    ASSERT_LE(topics.size(), static_cast<size_t>(spread));
    for (const auto& [topic, tokens] : topics) ++terms_in[topic];
    // A term drawn 4 distinct topics puts about 1/4 of its tokens in each.
    if (topics.size() == static_cast<size_t>(spread)) {
      int largest = 0, total = 0;
      for (const auto& [topic, tokens] : topics) {
        largest = std::max(largest, tokens);
        total += tokens;
      }
      largest_share_sum += largest;
      tokens_of_spread_terms += total;
    }
  }
  // Terms with 4 distinct topics: the largest of 4 uniform shares is about
  // 0.3-0.45 of a term's tokens here (20+ tokens a term), never near 1.
  ASSERT_GT(tokens_of_spread_terms, 5000);
  EXPECT_LT(static_cast<double>(largest_share_sum) / tokens_of_spread_terms, 0.5);
  // About 500 x 4 / 50 = 40 (term, topic) pairs per topic, s.d. about 6.2;
  // the bound is 5 s.d. (two-sided, per topic, about 6e-7).
  for (int topic = 0; topic < k; ++topic) EXPECT_NEAR(terms_in[topic], 40, 31) << "topic " << topic;
  EXPECT_EQ(start, GibbsState::TopicsSpreadByTerm(c, k, spread, 3));
  EXPECT_NE(start, GibbsState::TopicsSpreadByTerm(c, k, spread, 4));
  // spread 1: every token of a term in one topic.
  std::vector<int> only(c.vocabulary.size(), -1);
  const auto one = GibbsState::TopicsSpreadByTerm(c, k, 1, 3);
  for (size_t m = 0; m < one.size(); ++m) {
    for (size_t i = 0; i < one[m].size(); ++i) {
      int& seen = only[c.documents[m].tokens[i]];
      if (seen < 0) seen = one[m][i];
      ASSERT_EQ(one[m][i], seen) << "document " << m << " token " << i;
    }
  }
}

TEST(GibbsStateTest, OneTopicPerDocumentPutsEachDocumentInOneUniformTopic) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 2000, 1, 30, 0.2, 9).corpus;
  const std::vector<std::vector<int>> start = GibbsState::OneTopicPerDocument(c, 5, 3);
  ASSERT_EQ(start.size(), c.documents.size());
  std::vector<int> documents_in(5, 0);
  for (size_t m = 0; m < start.size(); ++m) {
    ASSERT_EQ(start[m].size(), c.documents[m].tokens.size());
    ASSERT_FALSE(start[m].empty());
    ASSERT_GE(start[m][0], 0);
    ASSERT_LT(start[m][0], 5);
    for (const int k : start[m]) ASSERT_EQ(k, start[m][0]) << "document " << m;
    ++documents_in[start[m][0]];
  }
  // 2000 documents over 5 topics: 400 each, standard deviation 17.9; the
  // bound is 5 of them (two-sided, per topic, about 5e-7).
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(documents_in[k], 400, 90) << "topic " << k;
  EXPECT_EQ(start, GibbsState::OneTopicPerDocument(c, 5, 3));
  EXPECT_NE(start, GibbsState::OneTopicPerDocument(c, 5, 4));
}

class SamplerInvariantTest
    : public ::testing::TestWithParam<std::tuple<std::string, int /*threads*/, int /*K*/>> {};

TEST_P(SamplerInvariantTest, CountsStayConsistentWithAssignments) {
  const auto [kind, threads, k] = GetParam();
  const model_testing::SyntheticCorpus synth =
      model_testing::MakeSyntheticCorpus(5, 40, 60, 5, 40, 0.2, 3);
  auto s = Make(kind, synth.corpus, Options(k, threads));
  ASSERT_TRUE(s.ok()) << s.status();
  for (int it = 0; it < 6; ++it) {
    (*s)->RunIteration();
    ASSERT_TRUE((*s)->state().CheckConsistency().ok()) << (*s)->state().CheckConsistency();
  }
  EXPECT_EQ((*s)->iterations_done(), 6);
  const LdaModel m = (*s)->Model();
  ASSERT_TRUE(m.Validate().ok());
  int64_t total = 0;
  for (int64_t x : m.topic_term_counts) total += x;
  EXPECT_EQ(total, synth.corpus.num_tokens());
  EXPECT_EQ(m.metadata["sampler"], kind);
  EXPECT_EQ(m.metadata["iterations"], 6);
  EXPECT_EQ(m.metadata["threads"], threads);
  EXPECT_EQ(m.metadata["seed"], 7);
}

INSTANTIATE_TEST_SUITE_P(KindsThreadsTopics, SamplerInvariantTest,
                         ::testing::Combine(::testing::Values("standard", "sparse", "mh", "warp", "batched"),
                                            ::testing::Values(1, 2, 3),
                                            ::testing::Values(1, 2, 7, 64)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_threads" +
                                  std::to_string(std::get<1>(info.param)) + "_k" +
                                  std::to_string(std::get<2>(info.param));
                         });

std::vector<std::vector<int>> RunAndGet(const std::string& kind, const Corpus& c, int threads,
                                        uint64_t seed, int iterations) {
  auto s = Make(kind, c, Options(6, threads, seed));
  EXPECT_TRUE(s.ok());
  for (int i = 0; i < iterations; ++i) (*s)->RunIteration();
  return (*s)->assignments();
}

TEST(SamplerDeterminismTest, SameSeedAndThreadsGiveTheSameRun) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 80, 5, 40, 0.2, 4).corpus;
  for (const std::string kind : {"standard", "sparse", "mh", "warp", "batched"}) {
    for (int threads : {1, 2}) {
      const auto first = RunAndGet(kind, c, threads, 11, 5);
      EXPECT_EQ(first, RunAndGet(kind, c, threads, 11, 5)) << kind << threads;
      EXPECT_NE(first, RunAndGet(kind, c, threads, 12, 5)) << kind << threads;
    }
  }
}

TEST(SamplerDeterminismTest, BatchedRunDoesNotDependOnThreadCount) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 80, 5, 40, 0.2, 5).corpus;
  const auto one = RunAndGet("batched", c, 1, 3, 5);
  EXPECT_EQ(one, RunAndGet("batched", c, 2, 3, 5));
  EXPECT_EQ(one, RunAndGet("batched", c, 3, 3, 5));
}

TEST(AdLdaTest, BlockCopiesStayEqualToTheGlobalCounts) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 80, 5, 40, 0.2, 8).corpus;
  for (int threads : {2, 3}) {
    auto s = CollapsedGibbsSampler::Create(c, Options(6, threads));
    ASSERT_TRUE(s.ok());
    for (int it = 0; it < 4; ++it) {
      (*s)->RunIteration();
      ASSERT_TRUE((*s)->CheckBlockCopies().ok()) << (*s)->CheckBlockCopies();
      ASSERT_TRUE((*s)->state().CheckConsistency().ok());
    }
  }
}

TEST(SamplerDeterminismTest, StandardSamplerMovesTokens) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 80, 5, 40, 0.2, 6).corpus;
  const auto start = GibbsState::RandomTopics(c, 6, 11);
  EXPECT_NE(start, RunAndGet("standard", c, 1, 11, 1));
  EXPECT_NE(start, RunAndGet("batched", c, 1, 11, 1));
  EXPECT_NE(start, RunAndGet("mh", c, 1, 11, 1));
  EXPECT_NE(start, RunAndGet("warp", c, 1, 11, 1));
  // The sparse sampler's own start (80 documents, K = 6).
  const auto sparse_start = GibbsState::OneTopicPerDocument(c, 6, 11);
  EXPECT_EQ(sparse_start, RunAndGet("sparse", c, 1, 11, 0));
  EXPECT_NE(sparse_start, RunAndGet("sparse", c, 1, 11, 1));
  EXPECT_NE(sparse_start, RunAndGet("sparse", c, 2, 11, 1));
}

// The shared lists and totals of the sparse sampler hold the counts of z
// after every iteration, on every thread count (its workers write one
// shared table, each to its own term range in turn).
TEST(SparseSamplerTest, SharedListsStayEqualToTheCountsOfZ) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 80, 5, 40, 0.2, 8).corpus;
  for (const CountLayout layout : {CountLayout::kDenseRows, CountLayout::kTopicLists,
                                   CountLayout::kWideTopicLists}) {
    for (int threads : {1, 2, 3, 5}) {
      for (int k : {1, 3, 9, 70}) {
        auto s = SparseGibbsSampler::Create(c, Options(k, threads), layout);
        ASSERT_TRUE(s.ok());
        EXPECT_EQ((*s)->layout(), layout);
        for (int it = 0; it < 4; ++it) {
          (*s)->RunIteration();
          // Computed from the engine's own counts, before any sync.
          const double ll = (*s)->LogLikelihood();
          ASSERT_TRUE((*s)->CheckConsistency().ok())
              << (*s)->CheckConsistency() << " threads " << threads << " K " << k;
          EXPECT_NEAR(ll, (*s)->state().LogLikelihood(0.3, 0.05), 1e-9 * std::abs(ll));
        }
      }
    }
  }
}

TEST(CreateSamplerTest, AutoPicksTheSparseSamplerWithPackedLists) {
  // Mean lengths 110 and 22.5 tokens: packed lists for long and short
  // documents, small K and large; dense rows only when asked for.
  const Corpus long_docs = model_testing::MakeSyntheticCorpus(5, 40, 4, 100, 120, 0.2, 3).corpus;
  const Corpus short_docs = model_testing::MakeSyntheticCorpus(5, 40, 20, 5, 40, 0.2, 3).corpus;
  EXPECT_EQ(AutoSamplerKind(long_docs, Options(200, 1)), "sparse");
  EXPECT_EQ(AutoSamplerKind(short_docs, Options(5, 1)), "sparse");
  auto s = Make("auto", long_docs, Options(200, 1));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->kind(), "sparse");
  EXPECT_EQ((*s)->Model().metadata["sampler"], "sparse");
  for (const Corpus* corpus : {&short_docs, &long_docs}) {
    for (const int k : {2, 20, 200}) {
      auto sampler = SparseGibbsSampler::Create(*corpus, Options(k, 1));
      ASSERT_TRUE(sampler.ok()) << sampler.status();
      EXPECT_EQ((*sampler)->layout(), CountLayout::kTopicLists) << "K = " << k;
    }
  }
  auto dense = SparseGibbsSampler::Create(short_docs, Options(20, 1), CountLayout::kDenseRows);
  ASSERT_TRUE(dense.ok()) << dense.status();
  EXPECT_EQ((*dense)->layout(), CountLayout::kDenseRows);
}

TEST(WarpSamplerTest, StepsOutOfItsRangeAreRefused) {
  SamplerOptions o = Options(3, 1);
  for (int steps : {1, kMaxWarpSteps + 1}) {
    o.mh_steps = steps;
    ExpectError(Make("warp", TinyCorpus(), o).status(), absl::StatusCode::kInvalidArgument,
                absl::StrCat("mh_steps is ", steps));
  }
  o.mh_steps = kMaxWarpSteps;
  auto s = Make("warp", TinyCorpus(), o);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->Model().metadata["mh_steps"], kMaxWarpSteps);
}

// The records are the only copy of the assignments between iterations; the
// GibbsState every accessor returns is rebuilt from them and must equal the
// counts of z, on every thread count and number of steps.
TEST(WarpSamplerTest, TheStateRebuiltFromTheRecordsIsConsistent) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 80, 5, 40, 0.2, 9).corpus;
  for (int threads : {1, 2, 3}) {
    for (int steps : {2, 5}) {
      SamplerOptions o = Options(6, threads);
      o.mh_steps = steps;
      auto s = WarpSampler::Create(c, o);
      ASSERT_TRUE(s.ok()) << s.status();
      const auto start = (*s)->assignments();
      for (int it = 0; it < 4; ++it) {
        (*s)->RunIteration();
        ASSERT_TRUE((*s)->state().CheckConsistency().ok())
            << (*s)->state().CheckConsistency() << " threads " << threads << " steps " << steps;
      }
      EXPECT_NE((*s)->assignments(), start);
      int64_t total = 0;
      for (int64_t x : (*s)->Model().topic_term_counts) total += x;
      EXPECT_EQ(total, c.num_tokens());
    }
  }
}

TEST(WarpSamplerTest, InitialTopicsAreUsed) {
  const Corpus c = MakeCorpus({"a b a", "b c"});
  auto s = WarpSampler::Create(c, Options(2, 1), {{0, 1, 0}, {1, 1}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->Model().topic_term_counts, (std::vector<int64_t>{2, 0, 0, 0, 2, 1}));
  ExpectError(WarpSampler::Create(c, Options(2, 1), {{0, 1, 0}, {1, 2}}).status(),
              absl::StatusCode::kInvalidArgument, "position 1 has topic 2");
}

TEST(MetropolisHastingsSamplerTest, StepsOutOfRangeAreRefused) {
  SamplerOptions o = Options(3, 1);
  for (int steps : {0, -1, kMaxMetropolisSteps + 1}) {
    o.mh_steps = steps;
    ExpectError(Make("mh", TinyCorpus(), o).status(), absl::StatusCode::kInvalidArgument,
                absl::StrCat("mh_steps is ", steps));
  }
  o.mh_steps = kMaxMetropolisSteps;
  auto s = Make("mh", TinyCorpus(), o);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->kind(), "mh");
  EXPECT_EQ((*s)->Model().metadata["mh_steps"], kMaxMetropolisSteps);
}

// The term-major occurrence arrays, every block's copies of them and of the
// counts follow z through iterations, for several thread counts and steps.
TEST(MetropolisHastingsSamplerTest, OccurrencesAndBlockCopiesFollowTheAssignments) {
  const Corpus c = model_testing::MakeSyntheticCorpus(5, 40, 80, 5, 40, 0.2, 8).corpus;
  for (int threads : {1, 2, 3}) {
    for (int steps : {1, 2, 5}) {
      SamplerOptions o = Options(6, threads);
      o.mh_steps = steps;
      auto s = MetropolisHastingsSampler::Create(c, o);
      ASSERT_TRUE(s.ok());
      ASSERT_TRUE((*s)->CheckConsistency().ok()) << (*s)->CheckConsistency();
      const auto start = (*s)->assignments();
      for (int it = 0; it < 4; ++it) {
        (*s)->RunIteration();
        ASSERT_TRUE((*s)->CheckConsistency().ok())
            << (*s)->CheckConsistency() << " threads " << threads << " steps " << steps;
      }
      EXPECT_NE((*s)->assignments(), start);
    }
  }
}

TEST(MetropolisHastingsSamplerTest, InitialTopicsAreUsed) {
  const Corpus c = MakeCorpus({"a b a", "b c"});
  ExpectError(MetropolisHastingsSampler::Create(c, Options(2, 1), {{0, 1, 0}, {1, 2}}).status(),
              absl::StatusCode::kInvalidArgument, "position 1 has topic 2");
  auto s = MetropolisHastingsSampler::Create(c, Options(2, 1), {{0, 1, 0}, {1, 1}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->Model().topic_term_counts, (std::vector<int64_t>{2, 0, 0, 0, 2, 1}));
  EXPECT_TRUE((*s)->CheckConsistency().ok());
}

// Dense counts of `z` computed independently of GibbsState.
struct DenseCounts {
  std::vector<std::vector<int>> doc_topic, topic_term;
  std::vector<int> topic_total;
};

DenseCounts Count(const Corpus& c, const std::vector<std::vector<int>>& z, int k) {
  DenseCounts d;
  d.doc_topic.assign(c.documents.size(), std::vector<int>(k, 0));
  d.topic_term.assign(k, std::vector<int>(c.vocabulary.size(), 0));
  d.topic_total.assign(k, 0);
  for (size_t m = 0; m < z.size(); ++m) {
    for (size_t i = 0; i < z[m].size(); ++i) {
      ++d.doc_topic[m][z[m][i]];
      ++d.topic_term[z[m][i]][c.documents[m].tokens[i]];
      ++d.topic_total[z[m][i]];
    }
  }
  return d;
}

// The model's K x V counts (transposed from the samplers' term-major
// tables in tiles of 64 terms) are the counts of the assignments, on a
// vocabulary that is not a multiple of the tile.
TEST(SamplerFormulaTest, ModelCountsAreTheCountsOfTheAssignments) {
  const Corpus c = model_testing::MakeSyntheticCorpus(7, 150, 60, 5, 40, 0.2, 3).corpus;
  ASSERT_EQ(c.vocabulary.size() % 64 == 0, false);
  // Every sampler, and the sparse one in each table layout, whose Model()
  // reads the counts from its table without bringing state() up to date.
  std::vector<std::pair<std::string, std::unique_ptr<LdaSampler>>> samplers;
  for (const std::string kind : {"standard", "sparse", "mh", "warp", "batched"}) {
    auto s = Make(kind, c, Options(7, 2));
    ASSERT_TRUE(s.ok()) << s.status();
    samplers.emplace_back(kind, *std::move(s));
  }
  for (const CountLayout layout :
       {CountLayout::kDenseRows, CountLayout::kTopicLists, CountLayout::kWideTopicLists}) {
    auto s = SparseGibbsSampler::Create(c, Options(7, 2), layout);
    ASSERT_TRUE(s.ok()) << s.status();
    samplers.emplace_back(absl::StrCat("sparse layout ", static_cast<int>(layout)), *std::move(s));
  }
  for (auto& [kind, s] : samplers) {
    s->RunIteration();
    const std::vector<int64_t> counts = s->Model().topic_term_counts;  // before any state()
    const DenseCounts d = Count(c, s->assignments(), 7);
    const size_t v = c.vocabulary.size();
    ASSERT_EQ(counts.size(), 7 * v);
    for (int k = 0; k < 7; ++k) {
      for (size_t t = 0; t < v; ++t) {
        ASSERT_EQ(counts[k * v + t], d.topic_term[k][t]) << kind << " topic " << k << " term " << t;
      }
    }
  }
}

TEST(SamplerFormulaTest, LogLikelihoodIsTheCollapsedJoint) {
  const Corpus c = TinyCorpus();
  auto s = Make("standard", c, Options(3, 1));
  ASSERT_TRUE(s.ok());
  (*s)->RunIteration();
  const DenseCounts d = Count(c, (*s)->assignments(), 3);
  const double a = 0.3, b = 0.05, v = c.vocabulary.size(), k = 3;
  double ll = 0;
  for (int t = 0; t < 3; ++t) {
    ll += std::lgamma(v * b) - std::lgamma(d.topic_total[t] + v * b);
    for (int w = 0; w < c.vocabulary.size(); ++w) {
      ll += std::lgamma(d.topic_term[t][w] + b) - std::lgamma(b);
    }
  }
  for (size_t m = 0; m < c.documents.size(); ++m) {
    ll += std::lgamma(k * a) - std::lgamma(c.documents[m].tokens.size() + k * a);
    for (int t = 0; t < 3; ++t) ll += std::lgamma(d.doc_topic[m][t] + a) - std::lgamma(a);
  }
  EXPECT_NEAR((*s)->LogLikelihood(), ll, 1e-9 * std::abs(ll));
}

TEST(SamplerFormulaTest, MixturesAreSmoothedDocumentCounts) {
  const Corpus c = TinyCorpus();
  auto s = Make("batched", c, Options(3, 1));
  ASSERT_TRUE(s.ok());
  (*s)->RunIteration();
  const DenseCounts d = Count(c, (*s)->assignments(), 3);
  const auto theta = (*s)->DocumentTopicMixtures();
  ASSERT_EQ(theta.size(), c.documents.size());
  for (size_t m = 0; m < theta.size(); ++m) {
    const double n = c.documents[m].tokens.size();
    for (int k = 0; k < 3; ++k) {
      EXPECT_DOUBLE_EQ(theta[m][k], (d.doc_topic[m][k] + 0.3) / (n + 3 * 0.3));
    }
  }
}

TEST(SamplerFormulaTest, BatchedTokenConditionalMatchesBruteForce) {
  const Corpus c = TinyCorpus();
  auto created = BatchedGibbsSampler::Create(c, Options(4, 1));
  ASSERT_TRUE(created.ok());
  BatchedGibbsSampler& s = **created;
  for (int round = 0; round < 3; ++round) {
    const DenseCounts d = Count(c, s.assignments(), 4);
    const double a = 0.3, b = 0.05, vb = c.vocabulary.size() * b;
    for (size_t m = 0; m < c.documents.size(); ++m) {
      for (size_t i = 0; i < c.documents[m].tokens.size(); ++i) {
        const int z = s.assignments()[m][i];
        const int t = c.documents[m].tokens[i];
        std::vector<double> w(4);
        double total = 0;
        for (int k = 0; k < 4; ++k) {
          const int self = k == z;
          w[k] = (d.topic_term[k][t] - self + b) * (d.doc_topic[m][k] - self + a) /
                 (d.topic_total[k] - self + vb);
          total += w[k];
        }
        const std::vector<double> p = s.TokenConditional(static_cast<int>(m), static_cast<int>(i));
        for (int k = 0; k < 4; ++k) EXPECT_NEAR(p[k], w[k] / total, 1e-12) << m << " " << i;
      }
    }
    s.RunIteration();
  }
}

TEST(SamplerFormulaTest, SingleTopicKeepsEveryTokenInIt) {
  const Corpus c = TinyCorpus();
  for (const std::string kind : {"standard", "batched"}) {
    auto s = Make(kind, c, Options(1, 2));
    ASSERT_TRUE(s.ok());
    (*s)->RunIteration();
    for (const auto& doc : (*s)->assignments()) {
      for (int z : doc) EXPECT_EQ(z, 0);
    }
  }
}

// The DP hook: after SetDrawCounts the conditional uses those counts, with
// totals summed from them and the self-removal clamped at 0, while the exact
// counts of z stay consistent; bad tables are refused.
TEST(SamplerFormulaTest, BatchedDrawCountsReplaceTheGlobalCounts) {
  const Corpus c = TinyCorpus();
  const int k_topics = 3;
  const int v = c.vocabulary.size();
  auto created = BatchedGibbsSampler::Create(c, Options(k_topics, 1));
  ASSERT_TRUE(created.ok());
  BatchedGibbsSampler& s = **created;
  ExpectError(s.SetDrawCounts(std::vector<int32_t>(3)), absl::StatusCode::kInvalidArgument,
              "V * K");
  std::vector<int32_t> bad(static_cast<size_t>(v) * k_topics, 1);
  bad[4] = -1;
  ExpectError(s.SetDrawCounts(bad), absl::StatusCode::kInvalidArgument, "negative");
  EXPECT_FALSE(s.has_draw_counts());

  // Draw counts with zeros where z has tokens (exercising the clamp).
  std::vector<int32_t> draw(static_cast<size_t>(v) * k_topics);
  for (size_t i = 0; i < draw.size(); ++i) draw[i] = static_cast<int32_t>((i * 7) % 5);
  ASSERT_TRUE(s.SetDrawCounts(draw).ok());
  EXPECT_TRUE(s.has_draw_counts());
  std::vector<double> totals(k_topics, 0);
  for (int t = 0; t < v; ++t) {
    for (int k = 0; k < k_topics; ++k) totals[k] += draw[t * k_topics + k];
  }
  const DenseCounts d = Count(c, s.assignments(), k_topics);
  const double a = 0.3, b = 0.05, vb = v * b;
  for (size_t m = 0; m < c.documents.size(); ++m) {
    for (size_t i = 0; i < c.documents[m].tokens.size(); ++i) {
      const int z = s.assignments()[m][i];
      const int t = c.documents[m].tokens[i];
      std::vector<double> w(k_topics);
      double total = 0;
      for (int k = 0; k < k_topics; ++k) {
        const int self = k == z;
        w[k] = (std::max(draw[t * k_topics + k] - self, 0) + b) * (d.doc_topic[m][k] - self + a) /
               (std::max(totals[k] - self, 0.0) + vb);
        total += w[k];
      }
      const std::vector<double> p = s.TokenConditional(static_cast<int>(m), static_cast<int>(i));
      for (int k = 0; k < k_topics; ++k) EXPECT_NEAR(p[k], w[k] / total, 1e-12) << m << " " << i;
    }
  }
  s.RunIteration();
  EXPECT_TRUE(s.state().CheckConsistency().ok());

  // Counts that put term t in topic t mod K with weight 10^6 pull every
  // token of t there (any other topic is 10^6 times less likely).
  std::vector<int32_t> steer(static_cast<size_t>(v) * k_topics, 0);
  for (int t = 0; t < v; ++t) steer[t * k_topics + t % k_topics] = 1000000;
  ASSERT_TRUE(s.SetDrawCounts(steer).ok());
  for (int it = 0; it < 3; ++it) s.RunIteration();
  for (size_t m = 0; m < c.documents.size(); ++m) {
    for (size_t i = 0; i < c.documents[m].tokens.size(); ++i) {
      EXPECT_EQ(s.assignments()[m][i], c.documents[m].tokens[i] % k_topics);
    }
  }
  EXPECT_TRUE(s.state().CheckConsistency().ok());
  // Model() holds the exact counts of z, not the draw counts.
  const LdaModel model = s.Model();
  int64_t total = 0;
  for (int t = 0; t < v; ++t) {
    for (int k = 0; k < k_topics; ++k) {
      if (k != t % k_topics) {
        EXPECT_EQ(model.count(k, t), 0);
      }
      total += model.count(k, t);
    }
  }
  EXPECT_EQ(total, c.num_tokens());
}

}  // namespace
}  // namespace pplda::lda
