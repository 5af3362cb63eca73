// Shared helpers of the secure-draw statistical tests: many draws for one
// weight vector over the simulated network, and Pearson's chi-square
// against w / S with cells of expectation below 5 pooled.
#ifndef PPLDA_TESTS_CRYPTO_SECURE_DRAW_STAT_UTIL_H_
#define PPLDA_TESTS_CRYPTO_SECURE_DRAW_STAT_UTIL_H_

#include <algorithm>
#include <string>
#include <vector>

#include "crypto/mpc/mpc_testing.h"
#include "gtest/gtest.h"
#include "protocol/secure_draw.h"

namespace pplda::protocol {
namespace draw_stat {

constexpr int kDraws = 100000;
constexpr int kChunk = 10000;  // tokens per secure-draw batch (bounds memory)

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
inline std::vector<int64_t> DrawMany(const StatCase& c, uint64_t seed) {
  const int K = static_cast<int>(c.weights.size());
  auto bed = crypto::MpcTestbed::Create(c.parties, (c.parties - 1) / 2, seed).value();
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
    absl::Status status = bed->Run([&](crypto::MpcEngine& e) -> absl::Status {
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
inline double ChiSquare(const std::vector<int64_t>& counts, const std::vector<int64_t>& weights,
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

// Runs the chi-square test for one case; zero-weight topics must never be
// drawn.
inline void ExpectDrawsMatch(const StatCase& c, uint64_t seed) {
  const std::vector<int64_t> counts = DrawMany(c, seed);
  int64_t total = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (c.weights[k] == 0) {
      EXPECT_EQ(counts[k], 0) << "zero-weight topic " << k << " drawn";
    }
  }
  ASSERT_EQ(total, kDraws);
  int df = 0;
  const double stat = ChiSquare(counts, c.weights, &df);
  ASSERT_GE(df, 1);
  ASSERT_LE(df, 10);
  EXPECT_LT(stat, kChiSquare999[df]) << c.name << ": chi-square " << stat << " with " << df
                                     << " degrees of freedom exceeds the 0.001 quantile";
  ::testing::Test::RecordProperty("chi_square", std::to_string(stat));
}

}  // namespace draw_stat
}  // namespace pplda::protocol

#endif  // PPLDA_TESTS_CRYPTO_SECURE_DRAW_STAT_UTIL_H_
