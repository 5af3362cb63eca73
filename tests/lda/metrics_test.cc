// Exact values of the metrics on tiny hand-checked models and corpora
// (docs/lda.md states the definitions), and every bad-input path.
#include "lda/metrics.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/lda/model_test_util.h"

namespace pplda::lda {
namespace {

using model_testing::ExpectError;
using model_testing::MakeCorpus;

LdaModel Model(const std::vector<std::string>& terms, int k, double alpha, double beta,
               std::vector<int64_t> counts) {
  LdaModel m;
  m.vocabulary = *Vocabulary::FromTerms(terms);
  m.num_topics = k;
  m.alpha = alpha;
  m.beta = beta;
  m.topic_term_counts = std::move(counts);
  return m;
}

PerplexityOptions Fold(int sweeps, int burn_in, int threads = 1) {
  PerplexityOptions o;
  o.sweeps = sweeps;
  o.burn_in = burn_in;
  o.threads = threads;
  return o;
}

TEST(TopWordsTest, RankedByPhiWithTiesByTermId) {
  // phi(0) = (4, 2, 1) / 7; phi(1) = (1, 1, 7) / 9.
  const LdaModel m = Model({"a", "b", "c"}, 2, 0.5, 1.0, {3, 1, 0, 0, 0, 6});
  const auto top = TopWords(m, 2);
  ASSERT_EQ(top.size(), 2u);
  ASSERT_EQ(top[0].size(), 2u);
  EXPECT_EQ(top[0][0].first, 0);
  EXPECT_DOUBLE_EQ(top[0][0].second, 4.0 / 7);
  EXPECT_EQ(top[0][1].first, 1);
  EXPECT_DOUBLE_EQ(top[0][1].second, 2.0 / 7);
  EXPECT_EQ(top[1][0].first, 2);
  EXPECT_DOUBLE_EQ(top[1][0].second, 7.0 / 9);
  EXPECT_EQ(top[1][1].first, 0);  // a and b tie at 1/9: lower id first
  EXPECT_DOUBLE_EQ(top[1][1].second, 1.0 / 9);
  EXPECT_EQ(TopWords(m, 10)[0].size(), 3u);  // at most V
  EXPECT_TRUE(TopWords(m, 0)[1].empty());
}

TEST(TopicPrevalenceTest, ShareOfTokens) {
  const LdaModel m = Model({"a", "b", "c"}, 2, 0.5, 1.0, {3, 1, 0, 0, 0, 6});
  const auto p = TopicPrevalence(m);
  EXPECT_DOUBLE_EQ(p[0], 0.4);
  EXPECT_DOUBLE_EQ(p[1], 0.6);
  const auto uniform = TopicPrevalence(Model({"a"}, 4, 0.5, 1.0, {0, 0, 0, 0}));
  for (double x : uniform) EXPECT_DOUBLE_EQ(x, 0.25);
}

TEST(PerplexityTest, SingleTopicModelByHand) {
  // K = 1: theta = 1, so p(t) = phi(t) = (n(t) + 1) / (4 + 3) = (4, 2, 1) / 7.
  const LdaModel m = Model({"a", "b", "c"}, 1, 0.5, 1.0, {3, 1, 0});
  // Evaluated (odd positions): doc0 "b", "a"; doc1 "b"; doc2 nothing.
  const Corpus test = MakeCorpus({"a b c a", "c b", "a"}, {"a", "b", "c"});
  auto p = HeldOutPerplexity(m, test, Fold(5, 1));
  ASSERT_TRUE(p.ok()) << p.status();
  const double expected = std::exp(-(std::log(2.0 / 7) + std::log(4.0 / 7) + std::log(2.0 / 7)) / 3);
  EXPECT_NEAR(*p, expected, 1e-12);
}

TEST(PerplexityTest, IdenticalTopicsMakeThetaIrrelevant) {
  // Both topics have phi = (3, 1) / 4 (beta = 1, counts (2, 0)).
  const LdaModel m = Model({"x", "y"}, 2, 0.2, 1.0, {2, 0, 2, 0});
  const Corpus test = MakeCorpus({"x y y x x y", "y x"}, {"x", "y"});
  // Evaluated: y, x, y from doc0; x from doc1.
  const double expected = std::exp(-(2 * std::log(0.25) + 2 * std::log(0.75)) / 4);
  for (int threads : {1, 2}) {
    auto p = HeldOutPerplexity(m, test, Fold(20, 5, threads));
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_NEAR(*p, expected, 1e-12);
  }
}

TEST(PerplexityTest, SeparatedTopicsGiveKnownTheta) {
  // phi(0, a) = phi(1, b) = (1e6 + 1e-6) / (1e6 + 2e-6), the rest ~1e-12: the
  // estimation token "a" stays in topic 0 (with probability 1 - 1e-12), so
  // theta = ((1 + 0.5) / 2, 0.5 / 2) = (0.75, 0.25) at every sweep.
  const LdaModel m = Model({"a", "b"}, 2, 0.5, 1e-6, {1000000, 0, 0, 1000000});
  const std::vector<double> phi = m.PhiMatrix();
  const Corpus test = MakeCorpus({"a b", "a a"}, {"a", "b"});
  auto p = HeldOutPerplexity(m, test, Fold(30, 10));
  ASSERT_TRUE(p.ok()) << p.status();
  const double pb = 0.75 * phi[1] + 0.25 * phi[3];
  const double pa = 0.75 * phi[0] + 0.25 * phi[2];
  EXPECT_NEAR(*p, std::exp(-(std::log(pb) + std::log(pa)) / 2), 1e-9);
}

TEST(FoldInTest, SingleTokenThetaAveragesIndependentDraws) {
  // One token: every sweep draws its topic from p(k) ∝ phi(k, t) alone, so
  // E theta(k) = (p(k) + alpha) / (1 + K alpha). With 20000 sweeps the
  // average is within 5 standard deviations (sd <= 0.0035 / (1 + K alpha)).
  const LdaModel m = Model({"a", "b"}, 2, 0.5, 1.0, {1, 3, 3, 1});
  const double p0 = (2.0 / 6) / (2.0 / 6 + 4.0 / 6);  // phi(0,a) = 2/6, phi(1,a) = 4/6
  auto theta = InferDocumentTopics(m, MakeCorpus({"a", ""}, {"a", "b"}), Fold(20000, 0));
  ASSERT_TRUE(theta.ok()) << theta.status();
  ASSERT_EQ(theta->size(), 2u);
  EXPECT_NEAR((*theta)[0][0], (p0 + 0.5) / 2, 5 * 0.0035 / 2);
  EXPECT_NEAR((*theta)[0][0] + (*theta)[0][1], 1.0, 1e-12);
  EXPECT_DOUBLE_EQ((*theta)[1][0], 0.5);  // empty document: 1/K
  EXPECT_DOUBLE_EQ((*theta)[1][1], 0.5);
}

TEST(FoldInTest, ResultsDoNotDependOnThreads) {
  const LdaModel m = Model({"a", "b", "c"}, 2, 0.5, 1.0, {3, 1, 0, 0, 2, 6});
  std::vector<std::string> docs;
  for (int i = 0; i < 30; ++i) docs.push_back(i % 2 ? "a b c c b" : "c c a b a a");
  const Corpus c = MakeCorpus(docs, {"a", "b", "c"});
  auto one = InferDocumentTopics(m, c, Fold(10, 2, 1));
  auto two = InferDocumentTopics(m, c, Fold(10, 2, 2));
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_EQ(*one, *two);
  EXPECT_EQ(*HeldOutPerplexity(m, c, Fold(10, 2, 1)), *HeldOutPerplexity(m, c, Fold(10, 2, 2)));
}

TEST(PerplexityTest, BadInputsAreRejected) {
  const LdaModel m = Model({"a", "b"}, 1, 0.5, 1.0, {1, 1});
  const Corpus ok = MakeCorpus({"a b"}, {"a", "b"});
  ExpectError(HeldOutPerplexity(m, Corpus{m.vocabulary, {}}, Fold(5, 1)).status(),
              absl::StatusCode::kInvalidArgument, "no documents");
  ExpectError(HeldOutPerplexity(m, MakeCorpus({"a", "b"}, {"a", "b"}), Fold(5, 1)).status(),
              absl::StatusCode::kInvalidArgument, "2 tokens or more");
  ExpectError(HeldOutPerplexity(m, MakeCorpus({"a b"}, {"b", "a"}), Fold(5, 1)).status(),
              absl::StatusCode::kInvalidArgument, "term 0 is 'a' in the model but 'b'");
  ExpectError(HeldOutPerplexity(m, MakeCorpus({"a b c"}), Fold(5, 1)).status(),
              absl::StatusCode::kInvalidArgument, "the model has 2 terms, the corpus 3");
  ExpectError(HeldOutPerplexity(m, ok, Fold(0, 0)).status(), absl::StatusCode::kInvalidArgument,
              "sweeps is 0");
  ExpectError(HeldOutPerplexity(m, ok, Fold(5, 5)).status(), absl::StatusCode::kInvalidArgument,
              "burn_in is 5");
  ExpectError(HeldOutPerplexity(m, ok, Fold(5, -1)).status(), absl::StatusCode::kInvalidArgument,
              "burn_in is -1");
  ExpectError(HeldOutPerplexity(m, ok, Fold(5, 1, -2)).status(),
              absl::StatusCode::kInvalidArgument, "threads is -2");
  LdaModel no_topics = m;
  no_topics.num_topics = 0;
  no_topics.topic_term_counts.clear();
  ExpectError(HeldOutPerplexity(no_topics, ok, Fold(5, 1)).status(),
              absl::StatusCode::kInvalidArgument, "num_topics is 0");
  Corpus bad_id = ok;
  bad_id.documents[0].tokens[0] = 5;
  ExpectError(HeldOutPerplexity(m, bad_id, Fold(5, 1)).status(),
              absl::StatusCode::kInvalidArgument, "term id 5");
  ExpectError(InferDocumentTopics(m, MakeCorpus({"a"}, {"b", "a"}), Fold(5, 1)).status(),
              absl::StatusCode::kInvalidArgument, "vocabulary mismatch");
  auto none = InferDocumentTopics(m, Corpus{m.vocabulary, {}}, Fold(5, 1));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

// Reference documents: d0 {a,b}, d1 {a,c}, d2 {b}, d3 {c,d}, d4 {a}; e never
// occurs. D(a) = 3, D(b) = 2, D(c) = 2, D(d) = 1, D(a,b) = D(a,c) = 1,
// D(b,c) = 0, D(c,d) = 1, D(b,d) = 0.
Corpus CoherenceReference() {
  return MakeCorpus({"a b a", "c a", "b", "d c c", "a"}, {"a", "b", "c", "d", "e"});
}

TEST(CoherenceTest, UMassByHand) {
  // Topic 0 ranks a, b, c; topic 1 ranks c, d, b.
  const LdaModel m = Model({"a", "b", "c", "d", "e"}, 2, 0.1, 0.01,
                           {4, 3, 2, 1, 0, 0, 1, 5, 3, 0});
  auto c = UMassCoherence(m, CoherenceReference(), 3);
  ASSERT_TRUE(c.ok()) << c.status();
  // Topic 0: log((D(b,a)+1)/D(a)) + log((D(c,a)+1)/D(a)) + log((D(c,b)+1)/D(b)).
  const double c0 = 2 * std::log(2.0 / 3) + std::log(1.0 / 2);
  // Topic 1: log((D(d,c)+1)/D(c)) + log((D(b,c)+1)/D(c)) + log((D(b,d)+1)/D(d)).
  const double c1 = std::log(2.0 / 2) + std::log(1.0 / 2) + std::log(1.0 / 1);
  ASSERT_EQ(c->per_topic.size(), 2u);
  EXPECT_NEAR(c->per_topic[0], c0, 1e-12);
  EXPECT_NEAR(c->per_topic[1], c1, 1e-12);
  EXPECT_NEAR(c->mean, (c0 + c1) / 2, 1e-12);
}

TEST(CoherenceTest, PairsWithAnAbsentHigherWordAreLeftOut) {
  // Topic ranks e (absent), a, b: pairs (a,e), (b,e) are left out; (b,a) gives
  // log((1 + 1) / 3).
  const LdaModel m = Model({"a", "b", "c", "d", "e"}, 1, 0.1, 0.01, {4, 3, 0, 0, 9});
  auto c = UMassCoherence(m, CoherenceReference(), 3);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_NEAR(c->per_topic[0], std::log(2.0 / 3), 1e-12);
}

TEST(CoherenceTest, TopNIsCappedAtTheVocabularySize) {
  const LdaModel m = Model({"a", "b"}, 1, 0.1, 0.01, {2, 1});
  auto c = UMassCoherence(m, MakeCorpus({"a b", "a"}, {"a", "b"}), 10);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_NEAR(c->mean, std::log((1.0 + 1) / 2), 1e-12);  // the pair (b, a)
}

TEST(CoherenceTest, BadInputsAreRejected) {
  const LdaModel m = Model({"a", "b"}, 1, 0.1, 0.01, {2, 1});
  ExpectError(UMassCoherence(m, MakeCorpus({"a b"}, {"a", "b"}), 1).status(),
              absl::StatusCode::kInvalidArgument, "top_n is 1");
  ExpectError(UMassCoherence(m, Corpus{m.vocabulary, {}}, 10).status(),
              absl::StatusCode::kInvalidArgument, "no documents");
  ExpectError(UMassCoherence(m, MakeCorpus({"a c"}, {"a", "c"}), 10).status(),
              absl::StatusCode::kInvalidArgument, "term 1 is 'b' in the model but 'c'");
  LdaModel bad = m;
  bad.alpha = -1;
  ExpectError(UMassCoherence(bad, MakeCorpus({"a b"}, {"a", "b"}), 10).status(),
              absl::StatusCode::kInvalidArgument, "alpha");
}

}  // namespace
}  // namespace pplda::lda
