#include "privacy/lira_statistics.h"

#include <cmath>
#include <numbers>

namespace pplda::privacy {

GaussianFit FitGaussian(std::span<const double> samples) {
  GaussianFit fit;
  fit.n = static_cast<int64_t>(samples.size());
  if (fit.n == 0) return fit;
  double sum = 0;
  for (double x : samples) sum += x;
  fit.mean = sum / fit.n;
  if (fit.n < 2) return fit;
  double squares = 0;
  for (double x : samples) squares += (x - fit.mean) * (x - fit.mean);
  fit.variance = squares / (fit.n - 1);
  return fit;
}

double PooledVariance(std::span<const GaussianFit> fits) {
  double weighted = 0;
  double degrees = 0;
  for (const GaussianFit& f : fits) {
    if (f.n < 2) continue;
    weighted += (f.n - 1) * f.variance;
    degrees += f.n - 1;
  }
  return degrees > 0 ? weighted / degrees : 0.0;
}

double LogNormalDensity(double x, double mean, double variance) {
  const double d = x - mean;
  return -0.5 * (std::log(2 * std::numbers::pi * variance) + d * d / variance);
}

double StandardNormalCdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

double OnlineLiraScore(double zeta, double mean_in, double variance_in, double mean_out,
                       double variance_out) {
  return LogNormalDensity(zeta, mean_in, variance_in) -
         LogNormalDensity(zeta, mean_out, variance_out);
}

double OfflineLiraScore(double zeta, double mean_out, double variance_out) {
  return (zeta - mean_out) / std::sqrt(variance_out);
}

}  // namespace pplda::privacy
