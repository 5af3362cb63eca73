// Gaussian fits and LiRA scores against hand-computed values.
#include "privacy/lira_statistics.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "gtest/gtest.h"

namespace pplda::privacy {
namespace {

TEST(GaussianFitTest, MeanAndUnbiasedVariance) {
  const std::vector<double> x = {1, 2, 3, 4};
  const GaussianFit f = FitGaussian(x);
  EXPECT_EQ(f.n, 4);
  EXPECT_DOUBLE_EQ(f.mean, 2.5);
  EXPECT_DOUBLE_EQ(f.variance, 5.0 / 3);  // (2.25 + 0.25 + 0.25 + 2.25) / 3
}

TEST(GaussianFitTest, NoCancellationFarFromZero) {
  const std::vector<double> x = {1e9 + 1, 1e9 + 2, 1e9 + 3};
  EXPECT_DOUBLE_EQ(FitGaussian(x).variance, 1.0);
}

TEST(GaussianFitTest, TooFewSamples) {
  const GaussianFit none = FitGaussian({});
  EXPECT_EQ(none.n, 0);
  EXPECT_EQ(none.mean, 0.0);
  const std::vector<double> one = {-7.5};
  const GaussianFit f = FitGaussian(one);
  EXPECT_EQ(f.n, 1);
  EXPECT_EQ(f.mean, -7.5);
  EXPECT_EQ(f.variance, 0.0);
}

TEST(PooledVarianceTest, WeightsByDegreesOfFreedom) {
  const std::vector<GaussianFit> fits = {{3, 0, 2.0}, {5, 10, 4.0}, {1, 5, 0.0}, {0, 0, 0.0}};
  EXPECT_DOUBLE_EQ(PooledVariance(fits), (2 * 2.0 + 4 * 4.0) / 6);
  const std::vector<GaussianFit> single = {{1, 3, 0.0}};
  EXPECT_EQ(PooledVariance(single), 0.0);
}

TEST(LiraScoreTest, LogNormalDensity) {
  EXPECT_DOUBLE_EQ(LogNormalDensity(0, 0, 1), -0.5 * std::log(2 * std::numbers::pi));
  // N(2, 4) at 4: -0.5 (log(8 pi) + 1).
  EXPECT_DOUBLE_EQ(LogNormalDensity(4, 2, 4), -0.5 * (std::log(8 * std::numbers::pi) + 1));
}

TEST(LiraScoreTest, OnlineScoreIsTheLogLikelihoodRatio) {
  // Equal variances s2: log Lambda = ((x - mo)^2 - (x - mi)^2) / (2 s2).
  EXPECT_NEAR(OnlineLiraScore(1, 2, 1, 0, 1), 0.0, 1e-15);        // halfway
  EXPECT_NEAR(OnlineLiraScore(2, 2, 1, 0, 1), 2.0, 1e-15);        // at the in mean
  EXPECT_NEAR(OnlineLiraScore(-1, 2, 4, 0, 4), (1 - 9) / 8.0, 1e-15);
  // Unequal: x = 0, in N(0, 1), out N(0, 4): log(2) (the narrower density is twice as high).
  EXPECT_NEAR(OnlineLiraScore(0, 0, 1, 0, 4), std::log(2.0), 1e-15);
}

TEST(LiraScoreTest, OfflineScoreIsTheOneSidedZValue) {
  EXPECT_DOUBLE_EQ(OfflineLiraScore(3, 1, 4), 1.0);
  EXPECT_DOUBLE_EQ(OfflineLiraScore(-5, 1, 9), -2.0);
  // Lambda = 1 - Pr[N(1, 4) > 3] = Phi(1).
  EXPECT_NEAR(StandardNormalCdf(OfflineLiraScore(3, 1, 4)), 0.8413447460685429, 1e-15);
}

TEST(LiraScoreTest, StandardNormalCdfInBothTails) {
  EXPECT_DOUBLE_EQ(StandardNormalCdf(0), 0.5);
  EXPECT_NEAR(StandardNormalCdf(1.959963984540054), 0.975, 1e-15);
  EXPECT_NEAR(StandardNormalCdf(-10) / 7.619853024160527e-24, 1.0, 1e-12);
  EXPECT_NEAR(1 - StandardNormalCdf(3), 1.3498980316301035e-3, 1e-15);
}

}  // namespace
}  // namespace pplda::privacy
