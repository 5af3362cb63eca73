// Statistical test of the secure weighted draw: for fixed weight vectors
// (uniform, graded, very skewed, with zero weights, K not a power of two),
// 10^5 draws per vector are compared with the exact distribution w / S by
// Pearson's chi-square test. Cells whose expected count is below 5 are
// pooled. Each test is at significance alpha = 0.001 with fixed seeds, so
// a correct implementation fails a given test with probability 0.001 (the
// seeds make each run deterministic). Zero-weight topics are checked
// exactly: they must never be drawn.
#include <cmath>
#include <map>

#include "crypto/mpc_testing.h"
#include "crypto/secure_draw.h"
#include "gtest/gtest.h"

namespace pplda::crypto {
namespace {

constexpr int kDraws = 100000;
constexpr int kChunk = 20000;  // tokens per secure-draw batch

// Upper 0.001 quantiles of the chi-square distribution, df = 1..10.
constexpr double kChiSquare999[] = {0,      10.828, 13.816, 16.266, 18.467, 20.515,
                                    22.458, 24.322, 26.124, 27.877, 29.588};

struct StatCase {
  const char* name;
  int parties;
  DrawMethod method;
  int weight_bits;
  std::vector<int64_t> weights;
};

// Draws kDraws topics for the one weight vector; returns counts per topic.
std::vector<int64_t> DrawMany(const StatCase& c, uint64_t seed) {
  const int K = static_cast<int>(c.weights.size());
  auto bed = MpcTestbed::Create(c.parties, (c.parties - 1) / 2, seed).value();
  std::vector<int64_t> counts(K, 0);
  const SecureDrawOptions options{K, c.weight_bits, c.method, DrawComparison::kAuto};
  for (int done = 0; done < kDraws; done += kChunk) {
    std::vector<int64_t> weights;
    std::vector<int> owners(kChunk);
    for (int tau = 0; tau < kChunk; ++tau) {
      weights.insert(weights.end(), c.weights.begin(), c.weights.end());
      owners[tau] = tau % c.parties;
    }
    auto shares = bed->ShareIntegers(weights);
    std::vector<std::vector<std::optional<int>>> topics(c.parties);
    absl::Status status = bed->Run([&](MpcEngine& e) -> absl::Status {
      ASSIGN_OR_RETURN(topics[e.party_id()], SecureDraw(e, shares[e.party_id()], owners, options));
      return absl::OkStatus();
    });
    EXPECT_TRUE(status.ok()) << status;
    if (!status.ok()) return counts;
    for (int tau = 0; tau < kChunk; ++tau) {
      const std::optional<int>& t = topics[owners[tau]][tau];
      EXPECT_TRUE(t.has_value());
      if (t.has_value()) counts[*t] += 1;
    }
  }
  return counts;
}

// Pearson chi-square against w / S with cells of expectation < 5 pooled;
// returns the statistic and sets *df.
double ChiSquare(const std::vector<int64_t>& counts, const std::vector<int64_t>& weights,
                 int* df) {
  double total_weight = 0;
  for (int64_t w : weights) total_weight += static_cast<double>(w);
  double stat = 0, pooled_expected = 0, pooled_observed = 0;
  int cells = 0;
  for (size_t k = 0; k < weights.size(); ++k) {
    if (weights[k] == 0) continue;  // checked exactly elsewhere
    const double expected = kDraws * static_cast<double>(weights[k]) / total_weight;
    if (expected < 5) {
      pooled_expected += expected;
      pooled_observed += static_cast<double>(counts[k]);
      continue;
    }
    const double diff = static_cast<double>(counts[k]) - expected;
    stat += diff * diff / expected;
    ++cells;
  }
  if (pooled_expected > 0) {
    // A pool with a tiny expectation can only add evidence if it is hit.
    const double e = std::max(pooled_expected, 5.0);
    stat += (pooled_observed - pooled_expected) * (pooled_observed - pooled_expected) / e;
    ++cells;
  }
  *df = cells - 1;
  return stat;
}

class SecureDrawStatTest : public ::testing::TestWithParam<StatCase> {};

TEST_P(SecureDrawStatTest, DrawsMatchTheExactDistribution) {
  const StatCase& c = GetParam();
  const std::vector<int64_t> counts = DrawMany(c, 1000 + c.weights.size());
  int64_t total = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (c.weights[k] == 0) EXPECT_EQ(counts[k], 0) << "zero-weight topic " << k << " drawn";
  }
  ASSERT_EQ(total, kDraws);
  int df = 0;
  const double stat = ChiSquare(counts, c.weights, &df);
  ASSERT_GE(df, 1);
  ASSERT_LE(df, 10);
  EXPECT_LT(stat, kChiSquare999[df]) << c.name << ": chi-square " << stat << " with " << df
                                     << " degrees of freedom exceeds the 0.001 quantile";
  RecordProperty("chi_square", std::to_string(stat));
}

INSTANTIATE_TEST_SUITE_P(
    WeightVectors, SecureDrawStatTest,
    ::testing::Values(
        // K = 5, graded weights, parallel tree.
        StatCase{"graded_k5", 3, DrawMethod::kParallelTree, 32,
                 {1 << 20, 2 << 20, 3 << 20, 4 << 20, 5 << 20}},
        // K = 7, very skewed with a zero weight and weight-1 topics,
        // binary search: expected counts from 0.003 to 97,000.
        StatCase{"skewed_k7", 3, DrawMethod::kBinarySearch, 32,
                 {1, 1LL << 30, 3, 0, 1LL << 25, 1, 7LL << 20}},
        // K = 3 (not a power of two), near-uniform small weights, parallel
        // tree with the smallest weight budget.
        StatCase{"small_k3", 3, DrawMethod::kParallelTree, 4, {3, 4, 5}}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace pplda::crypto
