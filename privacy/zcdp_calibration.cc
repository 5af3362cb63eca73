#include "privacy/zcdp_calibration.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "privacy/discrete_gaussian.h"

namespace pplda::privacy {

absl::Status ValidateEpsilonDelta(double epsilon, double delta, const char* what) {
  if (!(epsilon > 0 && epsilon <= 1000)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s epsilon must be in (0, 1000], got %g", what, epsilon));
  }
  if (!(delta > 0 && delta < 0.5)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s delta must be in (0, 0.5), got %g", what, delta));
  }
  return absl::OkStatus();
}

double ZcdpForEpsilonDelta(double epsilon, double delta) {
  const double log_inv_delta = std::log(1 / delta);
  const double root = std::sqrt(log_inv_delta + epsilon) - std::sqrt(log_inv_delta);
  return root * root;
}

double EpsilonForZcdp(double rho, double delta) {
  return rho + 2 * std::sqrt(rho * std::log(1 / delta));
}

absl::StatusOr<mpq_class> DiscreteGaussianVariance(double l2_sensitivity, double epsilon,
                                                   double delta) {
  RETURN_IF_ERROR(ValidateEpsilonDelta(epsilon, delta, "DP"));
  if (!(l2_sensitivity > 0 && l2_sensitivity <= 1073741824.0)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("L2 sensitivity must be in (0, 2^30], got %g", l2_sensitivity));
  }
  // Shave rho by a relative 1e-9 so that floating-point error in the
  // conversion can only add noise.
  const double rho = ZcdpForEpsilonDelta(epsilon, delta) * (1 - 1e-9);
  const double variance = l2_sensitivity * l2_sensitivity / (2 * rho);
  if (!(variance <= 0x1p80)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "epsilon %g with delta %g needs noise variance %g, above the supported 2^80; "
        "raise epsilon or lower the sensitivity",
        epsilon, delta, variance));
  }
  return RoundUpSigmaSquared(variance);
}

}  // namespace pplda::privacy
