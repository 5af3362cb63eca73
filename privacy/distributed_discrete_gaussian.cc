#include "privacy/distributed_discrete_gaussian.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"

namespace pplda::privacy {
namespace {

constexpr double kPi = 3.14159265358979323846;

double RoundUp(double x) { return std::nextafter(x * (1 + 1e-12), HUGE_VAL); }

}  // namespace

double DistributedTau(int summands, double share_variance) {
  double tau = 0;
  for (int k = 1; k < summands; ++k) {
    tau += std::exp(-2 * kPi * kPi * share_variance * k / (k + 1.0));
  }
  return tau == 0 ? 0 : 10 * tau * (1 + 1e-9);
}

double DistributedZcdp(int64_t sensitivity_squared, int summands, const mpq_class& share_variance,
                       int64_t dimension) {
  // Delta / (sqrt(m) s) = sqrt(Delta^2 / (m s^2)), the ratio as an exact
  // rational converted to double and rounded up.
  const mpq_class ratio = mpq_class(mpz_class(std::to_string(sensitivity_squared))) /
                          (share_variance * summands);
  const double scaled = RoundUp(std::sqrt(RoundUp(ratio.get_d())));
  // tau is decreasing in s^2: rounding s^2 down (get_d truncates) rounds tau up.
  const double tau = DistributedTau(summands, share_variance.get_d());
  const double root = scaled + tau * std::sqrt(static_cast<double>(dimension));
  return RoundUp(root * root / 2);
}

ShareBound ChooseShareBound(const mpq_class& share_variance, double samples, double epsilon,
                            double delta) {
  ShareBound out;
  out.truncation_delta = std::min(0x1p-70, 1e-10 * delta);
  // ln(1 + e^E) + ln(2 S) + ln(1 / target), then B^2 >= 2 s^2 times that.
  const double log_terms = epsilon + std::log1p(std::exp(-epsilon)) +
                           std::log(2 * std::max(samples, 1.0)) -
                           std::log(out.truncation_delta);
  const double s = RoundUp(std::sqrt(RoundUp(share_variance.get_d())));
  out.bound = static_cast<int64_t>(std::ceil(RoundUp(s * std::sqrt(2 * log_terms))));
  return out;
}

absl::StatusOr<DistributedNoise> CalibrateDistributedNoise(
    int64_t sensitivity_squared, double epsilon, double delta, int releases, int parties,
    int coalition, int64_t dimension, double budget_epsilon, double budget_delta) {
  if (parties < 1 || parties > 64) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the number of noise parties must be in [1, 64], got %d", parties));
  }
  if (coalition < 0 || coalition >= parties) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the coalition size t must be in [0, n - 1] = [0, %d], got %d", parties - 1, coalition));
  }
  if (dimension < 1 || dimension > (int64_t{1} << 40)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the number of noised cells per release must be in [1, 2^40], got %d", dimension));
  }
  RETURN_IF_ERROR(ValidateEpsilonDelta(budget_epsilon, budget_delta, "the run's DP budget"));
  // The central calibration validates the rest and gives rho per release.
  ASSIGN_OR_RETURN(CompositionNoise central,
                   DiscreteGaussianForComposition(sensitivity_squared, epsilon, delta, releases));
  const double target = ZcdpForEpsilonDelta(epsilon, delta) * (1 - 1e-9) / releases;
  const int honest = parties - coalition;
  DistributedNoise out;
  out.parties = parties;
  out.coalition = coalition;
  out.dimension = dimension;
  mpq_class s2 = central.sigma_squared / honest;
  s2 = RoundUpSigmaSquared(s2.get_d() * (1 + 1e-12));
  if (s2 < 1) s2 = 1;
  int steps = 0;
  while (DistributedZcdp(sensitivity_squared, honest, s2, dimension) > target) {
    if (++steps > 200000 || s2 > mpq_class(mpz_class(1) << 80) / parties) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "no share variance meets rho %g per release over %d cells with %d honest parties; "
          "raise epsilon or use fewer noisy iterations",
          target, dimension, honest));
    }
    s2 = RoundUpSigmaSquared(s2.get_d() * (1 + 0x1p-12));
  }
  out.share_variance = s2;
  out.central_variance = s2 * honest;
  out.central_variance.canonicalize();
  out.tau = DistributedTau(honest, s2.get_d());
  const ShareBound bound =
      ChooseShareBound(s2, static_cast<double>(parties) * static_cast<double>(dimension) *
                               static_cast<double>(releases),
                       budget_epsilon, budget_delta);
  out.share_bound = bound.bound;
  out.truncation_delta = bound.truncation_delta;
  out.composition.sigma_squared = out.central_variance;
  out.composition.rho_per_release = DistributedZcdp(sensitivity_squared, honest, s2, dimension);
  out.composition.releases = releases;
  out.composition.sensitivity_squared = sensitivity_squared;
  return out;
}

int64_t SampleNoiseShare(const DiscreteGaussian& share, int64_t bound, crypto::SecureRng& rng) {
  return std::clamp<int64_t>(share.Sample(rng), -bound, bound);
}

int64_t SampleSummedShares(const DiscreteGaussian& share, int64_t bound, int parties,
                           crypto::SecureRng& rng) {
  int64_t sum = 0;
  for (int p = 0; p < parties; ++p) sum += SampleNoiseShare(share, bound, rng);
  return sum;
}

nlohmann::json DescribeDistributedNoise(const DistributedNoise& noise) {
  return {{"analysis", kDistributedNoiseAnalysis},
          {"noise_parties", noise.parties},
          {"coalition_tolerated", noise.coalition},
          {"honest_shares_counted", noise.honest()},
          {"share_variance", noise.share_variance.get_str()},
          {"central_variance_counted", noise.central_variance.get_str()},
          {"total_noise_variance", mpq_class(noise.share_variance * noise.parties).get_str()},
          {"tau", noise.tau},
          {"cells_per_release", noise.dimension},
          {"share_bound", noise.share_bound},
          {"share_truncation",
           "each share clamped to [-B, B]; the clamped mechanism differs from the analysed one "
           "with probability eta <= n d R 2 exp(-B^2 / (2 s^2)) (s-subgaussian tails, CKS20 "
           "Cor. 9), which adds (1 + e^epsilon) eta to delta"},
          {"truncation_delta", noise.truncation_delta}};
}

}  // namespace pplda::privacy
