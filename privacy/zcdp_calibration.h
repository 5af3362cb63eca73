// Calibration of discrete Gaussian noise between zero-concentrated DP
// (zCDP, Bun & Steinke 2016) and (epsilon, delta)-DP. Floating point is used
// here only to choose parameters; the noise itself is sampled exactly
// (privacy/discrete_gaussian.h), and every rounding is towards more noise.
//
//   rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP  [BS16 Prop. 1.3]
//   so the largest rho meeting (epsilon, delta) is
//     rho = (sqrt(ln(1/delta) + epsilon) - sqrt(ln(1/delta)))^2;
//   N_Z(0, sigma^2) on L2 sensitivity Delta is Delta^2/(2 sigma^2)-zCDP
//     [CKS20 Thm. 14], so sigma^2 = Delta^2 / (2 rho).
//
// For R releases of discrete Gaussian noise on a vector of squared L2
// sensitivity Delta^2 (composed adaptively, zCDP adds: R rho), the
// calibrator splits the rho of (epsilon, delta) evenly:
//   rho_release = rho(epsilon, delta) (1 - 1e-9) / R,
//   sigma^2     = Delta^2 / (2 rho_release), rounded up to a multiple of 2^-20,
// and the rho actually spent per release is Delta^2 / (2 sigma^2) (exact
// rational, rounded up to a double), at most rho_release.
//
// Ranges (InvalidArgument naming the parameter and value otherwise):
// epsilon in (0, 1000], delta in (0, 0.5), sensitivity in (0, 2^30],
// squared sensitivity in [1, 2^60], releases in [1, 10^7].
#ifndef PPLDA_PRIVACY_ZCDP_CALIBRATION_H_
#define PPLDA_PRIVACY_ZCDP_CALIBRATION_H_

#include <gmpxx.h>

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pplda::privacy {

absl::Status ValidateEpsilonDelta(double epsilon, double delta, const char* what);
// A calibration's squared L2 sensitivity in [1, 2^60] and its number of
// noisy releases in [1, 10^7]; InvalidArgument naming the value otherwise.
absl::Status ValidateSensitivityAndReleases(int64_t sensitivity_squared, int releases);

// The largest rho whose conversion meets (epsilon, delta).
double ZcdpForEpsilonDelta(double epsilon, double delta);

// The epsilon that rho-zCDP gives at delta.
double EpsilonForZcdp(double rho, double delta);

// sigma^2 (rounded up to a multiple of 2^-20) so that discrete Gaussian
// noise on L2 sensitivity `l2_sensitivity` is (epsilon, delta)-DP.
absl::StatusOr<mpq_class> DiscreteGaussianVariance(double l2_sensitivity, double epsilon,
                                                   double delta);

struct CompositionNoise {
  mpq_class sigma_squared;     // of every release
  double rho_per_release = 0;  // Delta^2 / (2 sigma^2), rounded up
  int releases = 0;            // R
  int64_t sensitivity_squared = 0;
};

// sigma^2 for `releases` discrete Gaussian releases of squared L2
// sensitivity `sensitivity_squared` whose zCDP composition converts to at
// most (epsilon, delta)-DP [BS16 Prop. 1.3].
absl::StatusOr<CompositionNoise> DiscreteGaussianForComposition(int64_t sensitivity_squared,
                                                                double epsilon, double delta,
                                                                int releases);

// Delta^2 / (2 sigma^2), rounded up to a double: the zCDP of one release.
double ZcdpOfDiscreteGaussian(int64_t sensitivity_squared, const mpq_class& sigma_squared);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_ZCDP_CALIBRATION_H_
