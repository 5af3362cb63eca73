#include "privacy/zcdp_calibration.h"

#include <cmath>
#include <string>

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

absl::Status ValidateSensitivityAndReleases(int64_t sensitivity_squared, int releases) {
  if (sensitivity_squared < 1 || sensitivity_squared > (int64_t{1} << 60)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "squared L2 sensitivity must be in [1, 2^60], got %d", sensitivity_squared));
  }
  if (releases < 1 || releases > 10000000) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the number of noisy releases must be in [1, 10^7], got %d", releases));
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

double ZcdpOfDiscreteGaussian(int64_t sensitivity_squared, const mpq_class& sigma_squared) {
  const mpq_class rho = mpq_class(mpz_class(std::to_string(sensitivity_squared))) /
                        (2 * sigma_squared);
  const double value = rho.get_d();  // truncates towards zero
  return std::nextafter(value, HUGE_VAL);
}

absl::StatusOr<CompositionNoise> DiscreteGaussianForComposition(int64_t sensitivity_squared,
                                                                double epsilon, double delta,
                                                                int releases) {
  RETURN_IF_ERROR(ValidateEpsilonDelta(epsilon, delta, "DP"));
  RETURN_IF_ERROR(ValidateSensitivityAndReleases(sensitivity_squared, releases));
  const double rho_release = ZcdpForEpsilonDelta(epsilon, delta) * (1 - 1e-9) / releases;
  const double variance = static_cast<double>(sensitivity_squared) / (2 * rho_release);
  if (!(variance <= 0x1p80)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "epsilon %g with delta %g over %d noisy releases needs noise variance %g, above the "
        "supported 2^80; raise epsilon, use fewer noisy iterations or lower the caps",
        epsilon, delta, releases, variance));
  }
  CompositionNoise out;
  out.sigma_squared = RoundUpSigmaSquared(variance);
  out.rho_per_release = ZcdpOfDiscreteGaussian(sensitivity_squared, out.sigma_squared);
  out.releases = releases;
  out.sensitivity_squared = sensitivity_squared;
  return out;
}

}  // namespace pplda::privacy
