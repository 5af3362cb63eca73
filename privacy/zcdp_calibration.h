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
// Ranges (InvalidArgument naming the parameter and value otherwise):
// epsilon in (0, 1000], delta in (0, 0.5), sensitivity in (0, 2^30].
#ifndef PPLDA_PRIVACY_ZCDP_CALIBRATION_H_
#define PPLDA_PRIVACY_ZCDP_CALIBRATION_H_

#include <gmpxx.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pplda::privacy {

absl::Status ValidateEpsilonDelta(double epsilon, double delta, const char* what);

// The largest rho whose conversion meets (epsilon, delta).
double ZcdpForEpsilonDelta(double epsilon, double delta);

// The epsilon that rho-zCDP gives at delta.
double EpsilonForZcdp(double rho, double delta);

// sigma^2 (rounded up to a multiple of 2^-20) so that discrete Gaussian
// noise on L2 sensitivity `l2_sensitivity` is (epsilon, delta)-DP.
absl::StatusOr<mpq_class> DiscreteGaussianVariance(double l2_sensitivity, double epsilon,
                                                   double delta);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_ZCDP_CALIBRATION_H_
