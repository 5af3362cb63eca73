#include "privacy/sampled_gaussian_rdp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "privacy/discrete_gaussian.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {
namespace {

// ln(sum exp(terms)), the largest term factored out.
double LogSumExp(const std::vector<double>& terms) {
  double top = -HUGE_VAL;
  for (double t : terms) top = std::max(top, t);
  if (!std::isfinite(top)) return top;
  double sum = 0;
  for (double t : terms) sum += std::exp(t - top);
  return top + std::log(sum);
}

// ln(e^x - 1) for x > 0, accurate at both ends.
double LogExpm1(double x) {
  return x > 30 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x));
}

// ln(1 + e^y), accurate at both ends.
double Log1pExp(double y) { return y > 0 ? y + std::log1p(std::exp(-y)) : std::log1p(std::exp(y)); }

// eps(alpha) for alpha = 2..256 at eta = Delta^2 / (2 sigma^2). As the
// binomial weights sum to 1, A_alpha - 1 = sum_{k >= 2} C(alpha, k)
// (1 - q)^(alpha - k) q^k (e^(k (k - 1) eta) - 1), all terms >= 0: summed in
// log space (log-sum-exp) and ln A_alpha = ln(1 + (A_alpha - 1)), so that
// neither a tiny ln A_alpha (small q, large sigma) loses its digits nor a
// large one (alpha 256) overflows.
std::vector<double> RdpAt(double q, double eta) {
  std::vector<double> out(kRdpOrders);
  if (q == 1) {
    for (int alpha = kMinRdpOrder; alpha <= kMaxRdpOrder; ++alpha) {
      out[alpha - kMinRdpOrder] = alpha * eta;
    }
    return out;
  }
  const double log_q = std::log(q);
  const double log_1mq = std::log1p(-q);
  std::vector<double> terms;
  for (int alpha = kMinRdpOrder; alpha <= kMaxRdpOrder; ++alpha) {
    terms.clear();
    double log_binomial = std::log(static_cast<double>(alpha));  // ln C(alpha, 1)
    for (int k = 2; k <= alpha; ++k) {
      log_binomial += std::log(static_cast<double>(alpha - k + 1) / k);
      terms.push_back(log_binomial + (alpha - k) * log_1mq + k * log_q +
                      LogExpm1(static_cast<double>(k) * (k - 1) * eta));
    }
    out[alpha - kMinRdpOrder] = Log1pExp(LogSumExp(terms)) / (alpha - 1);
  }
  return out;
}

double Eta(int64_t sensitivity_squared, const mpq_class& sigma_squared) {
  // Rounded up, so that the accounting errs towards more privacy loss.
  return ZcdpOfDiscreteGaussian(sensitivity_squared, sigma_squared);
}

// The epsilon that `releases` releases at sigma^2 spend at delta.
double SpentEpsilon(int64_t sensitivity_squared, double q, const mpq_class& sigma_squared,
                    int releases, double delta) {
  std::vector<double> rdp = RdpAt(q, Eta(sensitivity_squared, sigma_squared));
  for (double& e : rdp) e *= releases;
  return EpsilonForRdp(rdp, delta);
}

}  // namespace

absl::Status ValidateSampleRate(double q) {
  if (!(q >= kMinSampleRate && q <= 1)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the document sampling rate must be in [2^-12, 1] (--dp-sample-rate; 1 = every "
        "document in every release), got %g",
        q));
  }
  return absl::OkStatus();
}

std::vector<double> SampledDiscreteGaussianRdp(double q, int64_t sensitivity_squared,
                                               const mpq_class& sigma_squared) {
  return RdpAt(q, Eta(sensitivity_squared, sigma_squared));
}

double EpsilonForRdp(const std::vector<double>& rdp, double delta, int* best_order) {
  if (!(delta > 0)) return HUGE_VAL;
  double best = HUGE_VAL;
  const double log_delta = std::log(delta);
  for (int alpha = kMinRdpOrder;
       alpha <= kMaxRdpOrder && alpha - kMinRdpOrder < static_cast<int>(rdp.size()); ++alpha) {
    const double a = alpha;
    const double epsilon =
        rdp[alpha - kMinRdpOrder] + std::log1p(-1 / a) - (log_delta + std::log(a)) / (a - 1);
    if (epsilon < best) {
      best = epsilon;
      if (best_order != nullptr) *best_order = alpha;
    }
  }
  return std::max(best, 0.0);
}

absl::StatusOr<SampledGaussianNoise> CalibrateSampledDiscreteGaussian(int64_t sensitivity_squared,
                                                                      double q, double epsilon,
                                                                      double delta, int releases) {
  RETURN_IF_ERROR(ValidateEpsilonDelta(epsilon, delta, "DP"));
  RETURN_IF_ERROR(ValidateSampleRate(q));
  RETURN_IF_ERROR(ValidateSensitivityAndReleases(sensitivity_squared, releases));
  const double target = epsilon * (1 - 1e-9);
  // sigma^2 = n 2^-20; bracket n, then bisect for the smallest that fits.
  const auto fits = [&](const mpz_class& n) {
    const mpq_class sigma_squared(n, mpz_class(1) << 20);
    return SpentEpsilon(sensitivity_squared, q, sigma_squared, releases, delta) <= target;
  };
  mpz_class high = 1;
  while (!fits(high)) {
    high *= 2;
    if (high > (mpz_class(1) << 100)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "epsilon %g with delta %g over %d sampled releases (rate %g) needs noise variance "
          "above the supported 2^80; raise epsilon, use fewer noisy iterations or lower the "
          "caps",
          epsilon, delta, releases, q));
    }
  }
  mpz_class low = high / 2;  // does not fit (or 0)
  if (high == 1) low = 0;
  while (high - low > 1) {
    const mpz_class mid = (low + high) / 2;
    if (fits(mid)) {
      high = mid;
    } else {
      low = mid;
    }
  }
  SampledGaussianNoise out;
  out.sigma_squared = mpq_class(high, mpz_class(1) << 20);
  out.sigma_squared.canonicalize();
  out.sample_rate = q;
  out.releases = releases;
  out.sensitivity_squared = sensitivity_squared;
  out.rdp_per_release = SampledDiscreteGaussianRdp(q, sensitivity_squared, out.sigma_squared);
  return out;
}

std::vector<bool> PoissonSampleDocuments(int32_t num_documents, double q, crypto::SecureRng& rng) {
  std::vector<bool> out(static_cast<size_t>(std::max(num_documents, 0)), true);
  if (q >= 1) return out;
  // q >= 2^-12 is a double, so q 2^64 = m 2^(e + 12) is an integer below 2^64.
  const uint64_t threshold = static_cast<uint64_t>(std::ldexp(q, 64));
  for (size_t m = 0; m < out.size(); ++m) out[m] = rng.NextUint64() < threshold;
  return out;
}

}  // namespace pplda::privacy
