// The secure run against its plaintext twin (lda/batched_gibbs_sampler.h),
// from the same initial state:
//  1. Per-token distributions: a corpus of identical copies of a few base
//     documents (so that every copy of a token has the same conditional)
//     with fixed initial topics; one secure iteration is run R times (seeded
//     sources 1..R) and the drawn topics of each token class are compared
//     with BatchedGibbsSampler::TokenConditional by a pooled chi-square test
//     (cells with expected count < 5 merged), significance 0.001 per
//     configuration, critical value by the Wilson-Hilferty approximation.
//     Configurations: 3 parties K = 2, 3, 5, 7, 20; 2 data holders + helper;
//     4 and 5 parties; 4 data holders served by a committee of 3 and 3 by a
//     committee of 5 (party/data_holder.h).
//  2. Held-out perplexity over 10 seeds: secure runs and plaintext batched
//     runs (same initial topics per seed) on a SOTU slice, compared by
//     Welch's t-test, two-sided significance 0.01 (critical |t| = 3.25,
//     valid for >= 9 degrees of freedom).
// Keys: the fixed 1024-bit test primes (crypto/paillier/paillier_testing.h).
#include <cmath>
#include <map>
#include <numeric>

#include "crypto/paillier/paillier_testing.h"
#include "gtest/gtest.h"
#include "lda/batched_gibbs_sampler.h"
#include "lda/metrics.h"
#include "simulation/local_consortium.h"
#include "tests/protocol/protocol_test_util.h"

namespace pplda {
namespace {

using simulation::ConsortiumParty;
using simulation::LocalConsortiumOptions;
using simulation::RunLocalConsortium;

crypto::DealtKey TestKey(int n) {
  absl::StatusOr<crypto::DealtKey> key =
      crypto::MakeTestKey(1024, crypto::SharingScheme::kShamir, n, (n - 1) / 2 + 1, 17);
  EXPECT_TRUE(key.ok()) << key.status();
  return *std::move(key);
}

// Upper 0.001 quantile of chi-square with df degrees of freedom.
double ChiSquareCritical001(int df) {
  const double z = 3.0902;
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1 - a + z * std::sqrt(a), 3);
}

struct TwinCase {
  int data_parties;
  int num_topics;
  int copies;
  int repetitions;
  int committee = 0;  // > 0: the data parties are holders outside it
};

std::string CaseName(const testing::TestParamInfo<TwinCase>& info) {
  return "parties" + std::to_string(info.param.data_parties) + "_K" +
         std::to_string(info.param.num_topics) +
         (info.param.committee > 0 ? "_committee" + std::to_string(info.param.committee) : "");
}

class TwinDistributionTest : public testing::TestWithParam<TwinCase> {};

TEST_P(TwinDistributionTest, TokenTopicsFollowThePlaintextConditionals) {
  const TwinCase c = GetParam();
  const int K = c.num_topics, V = 12, base_docs = 2, doc_len = 3;
  std::vector<std::string> terms;
  for (int t = 0; t < V; ++t) terms.push_back("term" + std::to_string(t));
  lda::Vocabulary vocabulary = *lda::Vocabulary::FromTerms(terms);

  // Base document b of party p: terms (3p + 2b + i) mod V, topics (p + b + i) mod K.
  std::vector<ConsortiumParty> parties(c.data_parties);
  lda::Corpus combined;
  combined.vocabulary = vocabulary;
  std::vector<std::vector<int>> combined_topics;
  struct Class { int doc; int pos; };
  std::vector<Class> classes;                // first combined doc of each class
  std::vector<std::vector<int>> class_docs;  // combined docs of each base doc
  for (int p = 0; p < c.data_parties; ++p) {
    parties[p].name = "p" + std::to_string(p);
    for (int b = 0; b < base_docs; ++b) {
      std::vector<lda::TermId> doc;
      std::vector<int> topics;
      for (int i = 0; i < doc_len; ++i) {
        doc.push_back((3 * p + 2 * b + i) % V);
        topics.push_back((p + b + i) % K);
      }
      class_docs.emplace_back();
      for (int copy = 0; copy < c.copies; ++copy) {
        parties[p].documents.push_back(doc);
        parties[p].initial_topics.push_back(topics);
      }
    }
  }
  // The combined corpus in the protocol's global order (party-major).
  int base = 0;
  for (int p = 0; p < c.data_parties; ++p) {
    for (int b = 0; b < base_docs; ++b, ++base) {
      for (int copy = 0; copy < c.copies; ++copy) {
        const size_t local = static_cast<size_t>(b) * c.copies + copy;
        class_docs[base].push_back(combined.num_documents());
        combined.documents.push_back({"d", parties[p].documents[local]});
        combined_topics.push_back(parties[p].initial_topics[local]);
      }
    }
  }

  LocalConsortiumOptions options;
  options.lda.num_topics = K;
  options.lda.alpha = 0.5;
  options.lda.beta = 0.1;
  options.iterations = 1;
  options.threads = 2;
  options.committee = c.committee;
  lda::SamplerOptions twin_options;
  twin_options.num_topics = K;
  twin_options.alpha = 0.5;
  twin_options.beta = 0.1;
  twin_options.threads = 1;
  auto twin = lda::BatchedGibbsSampler::Create(combined, twin_options, combined_topics);
  ASSERT_TRUE(twin.ok()) << twin.status();

  const int n = c.committee > 0 ? c.committee : c.data_parties == 2 ? 3 : c.data_parties;
  // With a committee its members come first in the results.
  const int first = c.committee > 0 ? c.committee : 0;
  crypto::DealtKey key = TestKey(n);
  // observed[class][pos][k]
  std::vector<std::vector<std::vector<int64_t>>> observed(
      class_docs.size(), std::vector<std::vector<int64_t>>(doc_len, std::vector<int64_t>(K, 0)));
  for (int r = 0; r < c.repetitions; ++r) {
    auto result = RunLocalConsortium(parties, vocabulary, key,
                                     protocol_testing::SeededRngs(1000 + r), options);
    ASSERT_TRUE(result.ok()) << result.status();
    int cls = 0;
    for (int p = 0; p < c.data_parties; ++p) {
      for (int b = 0; b < base_docs; ++b, ++cls) {
        for (int copy = 0; copy < c.copies; ++copy) {
          const auto& z = result->assignments[first + p][static_cast<size_t>(b) * c.copies + copy];
          for (int i = 0; i < doc_len; ++i) ++observed[cls][i][z[i]];
        }
      }
    }
  }
  double statistic = 0;
  int df = 0;
  const double draws = static_cast<double>(c.copies) * c.repetitions;
  for (size_t cls = 0; cls < class_docs.size(); ++cls) {
    for (int i = 0; i < doc_len; ++i) {
      const std::vector<double> p = (*twin)->TokenConditional(class_docs[cls][0], i);
      // Cells with expected >= 5, the rest pooled (into the largest cell if
      // the pool is itself below 5).
      std::vector<double> exp_cells, obs_cells;
      double pool_e = 0, pool_o = 0;
      for (int k = 0; k < K; ++k) {
        const double e = p[k] * draws;
        if (e >= 5) {
          exp_cells.push_back(e);
          obs_cells.push_back(static_cast<double>(observed[cls][i][k]));
        } else {
          pool_e += e;
          pool_o += static_cast<double>(observed[cls][i][k]);
        }
      }
      if (pool_e >= 5 || exp_cells.empty()) {
        exp_cells.push_back(pool_e);
        obs_cells.push_back(pool_o);
      } else {
        const size_t big = std::max_element(exp_cells.begin(), exp_cells.end()) - exp_cells.begin();
        exp_cells[big] += pool_e;
        obs_cells[big] += pool_o;
      }
      for (size_t j = 0; j < exp_cells.size(); ++j) {
        statistic += (obs_cells[j] - exp_cells[j]) * (obs_cells[j] - exp_cells[j]) / exp_cells[j];
      }
      df += static_cast<int>(exp_cells.size()) - 1;
    }
  }
  ASSERT_GT(df, 0);
  EXPECT_LT(statistic, ChiSquareCritical001(df)) << "df " << df;
  // The test can fail: a sampler that ignored the weights (uniform topics)
  // must be rejected at this size.
  double uniform_statistic = 0;
  for (size_t cls = 0; cls < class_docs.size(); ++cls) {
    for (int i = 0; i < doc_len; ++i) {
      const std::vector<double> p = (*twin)->TokenConditional(class_docs[cls][0], i);
      for (int k = 0; k < K; ++k) {
        const double e = p[k] * draws, u = draws / K;
        uniform_statistic += (u - e) * (u - e) / std::max(e, 1e-9);
      }
    }
  }
  EXPECT_GT(uniform_statistic, ChiSquareCritical001(df));
}

INSTANTIATE_TEST_SUITE_P(Configurations, TwinDistributionTest,
                         testing::Values(TwinCase{3, 2, 24, 4}, TwinCase{3, 3, 24, 4},
                                         TwinCase{3, 5, 20, 4}, TwinCase{3, 7, 16, 4},
                                         TwinCase{3, 20, 10, 4}, TwinCase{2, 5, 20, 4},
                                         TwinCase{4, 3, 16, 4}, TwinCase{5, 3, 12, 4},
                                         TwinCase{4, 5, 16, 4, 3}, TwinCase{3, 3, 12, 4, 5}),
                         CaseName);

double Mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }
double Variance(const std::vector<double>& v) {
  const double m = Mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / (v.size() - 1);
}

TEST(TwinPerplexityTest, HeldOutPerplexitiesAreIndistinguishableOverTenSeeds) {
  auto slice = protocol_testing::SotuSlice(/*docs_per_party=*/8, /*tokens_per_doc=*/8,
                                           /*held_out_per_party=*/4);
  ASSERT_TRUE(slice.ok()) << slice.status();
  const int K = 3, iterations = 3, seeds = 10;
  crypto::DealtKey key = TestKey(3);
  lda::PerplexityOptions eval;
  eval.sweeps = 20;
  eval.burn_in = 5;
  eval.threads = 1;
  std::vector<double> secure, plain;
  for (int s = 1; s <= seeds; ++s) {
    const auto topics = lda::GibbsState::RandomTopics(slice->train, K, 500 + s);
    std::vector<ConsortiumParty> parties =
        protocol_testing::SplitParties(slice->train, slice->docs_per_party);
    size_t next = 0;
    for (auto& p : parties) {
      for (size_t d = 0; d < p.documents.size(); ++d) p.initial_topics.push_back(topics[next++]);
    }
    LocalConsortiumOptions options;
    options.lda.num_topics = K;
    options.iterations = iterations;
    options.threads = 2;
    auto result = RunLocalConsortium(parties, slice->train.vocabulary, key,
                                     protocol_testing::SeededRngs(s), options);
    ASSERT_TRUE(result.ok()) << result.status();
    auto p_secure = lda::HeldOutPerplexity(result->model, slice->held_out, eval);
    ASSERT_TRUE(p_secure.ok()) << p_secure.status();
    secure.push_back(*p_secure);

    lda::SamplerOptions twin_options;
    twin_options.num_topics = K;
    twin_options.seed = 900 + s;
    twin_options.threads = 1;
    auto twin = lda::BatchedGibbsSampler::Create(slice->train, twin_options, topics);
    ASSERT_TRUE(twin.ok());
    for (int i = 0; i < iterations; ++i) (*twin)->RunIteration();
    auto p_plain = lda::HeldOutPerplexity((*twin)->Model(), slice->held_out, eval);
    ASSERT_TRUE(p_plain.ok());
    plain.push_back(*p_plain);
  }
  const double t = (Mean(secure) - Mean(plain)) /
                   std::sqrt(Variance(secure) / seeds + Variance(plain) / seeds);
  EXPECT_LT(std::abs(t), 3.25) << "secure mean " << Mean(secure) << ", plaintext mean "
                               << Mean(plain);
}

}  // namespace
}  // namespace pplda
