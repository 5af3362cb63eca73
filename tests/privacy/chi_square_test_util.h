// Chi-square goodness of fit of integer samples to an unnormalised pmf, for
// the statistical tests of the DP noise (dp_noise_stat_test,
// dp_count_noise_stat_test): cells with expected count >= 5 (the rest pooled
// into one tail cell), rejected at the 10^-4 level (critical value from the
// Wilson-Hilferty approximation); plus the mean within 5 standard errors of
// 0 and the sample variance within 5% of the pmf's.
#ifndef PPLDA_TESTS_PRIVACY_CHI_SQUARE_TEST_UTIL_H_
#define PPLDA_TESTS_PRIVACY_CHI_SQUARE_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace pplda::privacy {

// Upper 10^-4 quantile of chi-square with k degrees of freedom
// (Wilson-Hilferty; z = 3.719).
inline double ChiSquareCritical(int k) {
  const double z = 3.719;
  const double a = 2.0 / (9.0 * k);
  return k * std::pow(1 - a + z * std::sqrt(a), 3);
}

struct FitResult {
  double chi2 = 0;
  double critical = 0;  // 10^-4 level
  int cells = 0;
  double mean = 0;
  double mean_bound = 0;  // 5 standard errors
  double variance = 0;    // of the samples
  double expected_variance = 0;
};

// Goodness of fit of `samples` to weights w(x) (unnormalised) over |x| <= range.
inline FitResult Fit(const std::vector<int64_t>& samples, double (*weight)(int64_t, double),
                double param, int64_t range) {
  std::vector<double> pmf;
  double total = 0;
  for (int64_t x = -range; x <= range; ++x) {
    pmf.push_back(weight(x, param));
    total += pmf.back();
  }
  double variance = 0;
  for (int64_t x = -range; x <= range; ++x) {
    pmf[x + range] /= total;
    variance += pmf[x + range] * x * x;
  }
  std::map<int64_t, int64_t> observed;
  double sum = 0, sum_squares = 0;
  for (int64_t s : samples) {
    ++observed[s];
    sum += s;
    sum_squares += static_cast<double>(s) * s;
  }
  const double n = static_cast<double>(samples.size());
  // Cells: each x with expected >= 5, the rest pooled into one tail cell.
  double chi2 = 0, tail_expected = 0, tail_observed = 0;
  int cells = 0;
  for (int64_t x = -range; x <= range; ++x) {
    const double expected = n * pmf[x + range];
    const double seen = observed.count(x) ? static_cast<double>(observed[x]) : 0.0;
    if (expected >= 5) {
      chi2 += (seen - expected) * (seen - expected) / expected;
      ++cells;
    } else {
      tail_expected += expected;
      tail_observed += seen;
    }
  }
  for (const auto& [x, c] : observed) {
    if (x < -range || x > range) tail_observed += static_cast<double>(c);
  }
  if (tail_expected > 0) {
    chi2 += (tail_observed - tail_expected) * (tail_observed - tail_expected) / tail_expected;
    ++cells;
  }
  FitResult r;
  r.chi2 = chi2;
  r.cells = cells;
  r.critical = ChiSquareCritical(cells - 1);
  r.mean = sum / n;
  r.mean_bound = 5 * std::sqrt(variance / n);
  r.variance = sum_squares / n - r.mean * r.mean;
  r.expected_variance = variance;
  return r;
}

inline void ExpectFits(const FitResult& r, const std::string& what) {
  EXPECT_LT(r.chi2, r.critical) << what << " over " << r.cells << " cells";
  EXPECT_NEAR(r.mean, 0, r.mean_bound) << what;
  EXPECT_NEAR(r.variance, r.expected_variance, 0.05 * r.expected_variance) << what;
}

inline double LaplaceWeight(int64_t x, double t) { return std::exp(-std::abs(static_cast<double>(x)) / t); }
inline double GaussianWeight(int64_t x, double s2) {
  return std::exp(-static_cast<double>(x) * x / (2 * s2));
}

}  // namespace pplda::privacy

#endif  // PPLDA_TESTS_PRIVACY_CHI_SQUARE_TEST_UTIL_H_
