// The per-document test statistics of the likelihood-ratio attack (LiRA,
// Carlini et al., "Membership Inference Attacks From First Principles",
// IEEE S&P 2022; for topic models Manzonelli, Zhang & Vadhan, eq. 2 and
// Algorithms 2-3), computed from Gaussian fits of a document's statistic
// zeta over shadow models trained with it ("in") and without it ("out"):
//
//   online:  log Lambda = log N(x; mu_in, s2_in) - log N(x; mu_out, s2_out)
//   offline: Lambda = 1 - Pr[N(mu_out, s2_out) > x] = Phi((x - mu_out) / s_out)
//            (one-sided: only a zeta above the out distribution counts as
//            evidence of membership). The score returned is the z-value
//            (x - mu_out) / s_out, a strictly increasing function of Lambda
//            that keeps its resolution where Phi(z) rounds to 1.
//
// Fits: mean and unbiased variance (divisor n - 1). The pooled ("global")
// variance over documents is sum_d (n_d - 1) s2_d / sum_d (n_d - 1), the
// within-document variance shared by all documents; LiRA uses it when there
// are too few shadows to estimate each document's own variance (Carlini et
// al., sec. IV-C, "fixed variance").
//
// Ranges: variances passed to the scores must be > 0 and finite.
// Thread-safety: pure functions.
#ifndef PPLDA_PRIVACY_LIRA_STATISTICS_H_
#define PPLDA_PRIVACY_LIRA_STATISTICS_H_

#include <cstdint>
#include <span>

namespace pplda::privacy {

struct GaussianFit {
  int64_t n = 0;        // number of samples
  double mean = 0;      // 0 when n == 0
  double variance = 0;  // unbiased; 0 when n < 2
};

// Two-pass mean and variance (no cancellation for samples far from zero).
GaussianFit FitGaussian(std::span<const double> samples);

// sum (n - 1) variance / sum (n - 1) over fits with n >= 2; 0 when none.
double PooledVariance(std::span<const GaussianFit> fits);

// log of the N(mean, variance) density at x.
double LogNormalDensity(double x, double mean, double variance);

// Phi(z), the standard normal distribution function (via erfc, accurate in
// both tails).
double StandardNormalCdf(double z);

// The online score log Lambda (above).
double OnlineLiraScore(double zeta, double mean_in, double variance_in, double mean_out,
                       double variance_out);

// The offline score z = (zeta - mean_out) / sqrt(variance_out) (above).
double OfflineLiraScore(double zeta, double mean_out, double variance_out);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_LIRA_STATISTICS_H_
