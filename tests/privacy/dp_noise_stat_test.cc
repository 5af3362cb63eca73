// Statistical tests of the exact DP noise samplers, each with a fixed seed
// (crypto::SeededRng) and a stated false-alarm rate:
//  - Bernoulli(p) and Bernoulli(exp(-g)), rational and 64-bit versions (with
//    the overflow fallback): the count of successes in n trials
//    lies within 5 standard deviations of n p (two-sided false alarm below
//    6e-7 per check under the null);
//  - discrete Laplace and discrete Gaussian: chi-square goodness of fit of
//    10^5 samples against the exact pmf (normalised numerically over
//    |x| <= 60 sigma), cells with expected count >= 5 (tails pooled), at
//    the 10^-4 level (critical value from the Wilson-Hilferty
//    approximation, conservative here); plus symmetry (mean within 5
//    standard errors of 0) and variance within 5% of the pmf's.
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "crypto/random/secure_rng_testing.h"
#include "gtest/gtest.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/exact_bernoulli.h"
#include "tests/privacy/chi_square_test_util.h"

namespace pplda::privacy {
namespace {

void ExpectBinomialCount(int successes, int n, double p, const std::string& what) {
  const double mean = n * p;
  const double sd = std::sqrt(n * p * (1 - p));
  EXPECT_NEAR(successes, mean, 5 * sd + 1e-9) << what;
}

TEST(ExactBernoulliStat, RationalMatchesProbability) {
  crypto::SeededRng rng(11);
  const int n = 100000;
  for (auto [num, den] : std::vector<std::pair<int, int>>{{1, 2}, {1, 3}, {7, 10}, {1, 1000}}) {
    int hits = 0;
    for (int i = 0; i < n; ++i) hits += BernoulliRational(mpq_class(num, den), rng) ? 1 : 0;
    ExpectBinomialCount(hits, n, static_cast<double>(num) / den,
                        std::to_string(num) + "/" + std::to_string(den));
  }
}

TEST(ExactBernoulliStat, ExpMinusMatchesProbability) {
  crypto::SeededRng rng(12);
  const int n = 100000;
  for (auto [num, den] :
       std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {1, 1}, {7, 3}, {5, 2}, {9, 1}}) {
    int hits = 0;
    const mpq_class gamma(num, den);
    for (int i = 0; i < n; ++i) hits += BernoulliExpMinus(gamma, rng) ? 1 : 0;
    ExpectBinomialCount(hits, n, std::exp(-static_cast<double>(num) / den),
                        "exp(-" + std::to_string(num) + "/" + std::to_string(den) + ")");
  }
}

// The 64-bit versions, including denominators near 2^63 where den * k
// overflows and the rational fallback finishes the trial.
TEST(ExactBernoulliStat, WordVersionsMatchProbability) {
  crypto::SeededRng rng(14);
  const int n = 100000;
  const uint64_t big = (uint64_t{1} << 63) - 25;
  for (auto [num, den] : std::vector<std::pair<uint64_t, uint64_t>>{
           {1, 3}, {7, 10}, {0, 1}, {1, 1}, {7, 3}, {9, 1}, {big / 2, big}, {big - 1, big}}) {
    int rational = 0, exp_minus = 0;
    for (int i = 0; i < n; ++i) {
      rational += BernoulliRational(num, den, rng) ? 1 : 0;
      exp_minus += BernoulliExpMinus(num, den, rng) ? 1 : 0;
    }
    const double g = static_cast<double>(num) / static_cast<double>(den);
    const std::string what = std::to_string(num) + "/" + std::to_string(den);
    ExpectBinomialCount(rational, n, std::min(g, 1.0), "p = " + what);
    ExpectBinomialCount(exp_minus, n, std::exp(-g), "exp(-" + what + ")");
  }
}

TEST(ExactBernoulliStat, OutOfRangeIsClamped) {
  crypto::SeededRng rng(13);
  EXPECT_FALSE(BernoulliRational(mpq_class(-1, 2), rng));
  EXPECT_TRUE(BernoulliRational(mpq_class(3, 2), rng));
  EXPECT_TRUE(BernoulliExpMinus(mpq_class(-1, 2), rng));
}

TEST(DiscreteLaplaceStat, MatchesPmf) {
  crypto::SeededRng rng(21);
  for (int t : {1, 3, 20}) {
    std::vector<int64_t> samples;
    for (int i = 0; i < 100000; ++i) samples.push_back(SampleDiscreteLaplace(mpz_class(t), rng));
    ExpectFits(Fit(samples, LaplaceWeight, t, 60 * t), "discrete Laplace t=" + std::to_string(t));
  }
}

TEST(DiscreteGaussianStat, MatchesPmf) {
  crypto::SeededRng rng(22);
  for (const mpq_class& s2 : {mpq_class(1, 4), mpq_class(3), mpq_class(1000, 7), mpq_class(2500)}) {
    auto g = DiscreteGaussian::Create(s2);
    ASSERT_TRUE(g.ok()) << g.status();
    std::vector<int64_t> samples;
    for (int i = 0; i < 100000; ++i) samples.push_back(g->Sample(rng));
    const double sigma = g->sigma();
    ExpectFits(Fit(samples, GaussianWeight, s2.get_d(), static_cast<int64_t>(60 * sigma) + 2),
               "discrete Gaussian sigma^2=" + s2.get_str());
  }
}

// A control that must fail: samples of sigma^2 = 3 tested against sigma^2 =
// 4 are rejected (so the fit test above has power).
TEST(DiscreteGaussianStat, FitRejectsWrongVariance) {
  crypto::SeededRng rng(23);
  auto g = DiscreteGaussian::Create(mpq_class(3));
  ASSERT_TRUE(g.ok());
  std::vector<int64_t> samples;
  for (int i = 0; i < 100000; ++i) samples.push_back(g->Sample(rng));
  const FitResult wrong = Fit(samples, GaussianWeight, 4.0, 130);
  EXPECT_GT(wrong.chi2, wrong.critical);
  const FitResult right = Fit(samples, GaussianWeight, 3.0, 130);
  EXPECT_LT(right.chi2, right.critical);
}

}  // namespace
}  // namespace pplda::privacy
