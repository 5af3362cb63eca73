// Distributed discrete Gaussian noise (docs/privacy.md, "Secure DP
// training"): each of n compute parties adds its own integer noise share to
// every cell of a release, so that nobody sees the un-noised counts, and
// the guarantee holds against any coalition of up to t parties that know
// their own shares.
//
// The analysis used (Kairouz, Liu & Steinke, "The Distributed Discrete
// Gaussian Mechanism for Federated Learning with Secure Aggregation", ICML
// 2021, arXiv:2102.06387, Proposition 14, the third bound of its minimum):
//   Let s >= 1/2, m >= 1, and X_{i,j} ~ N_Z(0, s^2) independent for
//   i in [m], j in [d]; Z_j = sum_i X_{i,j}. For every Delta in Z^d and
//   every alpha >= 1,
//     D_alpha(Z + Delta || Z) <= (alpha / 2) (||Delta||_2 / (sqrt(m) s)
//                                             + tau sqrt(d))^2,
//     tau = 10 sum_{k=1}^{m-1} exp(-2 pi^2 s^2 k / (k + 1))   (0 for m = 1).
//   So adding Z to a query of L2 sensitivity Delta is
//     rho = (Delta / (sqrt(m) s) + tau sqrt(d))^2 / 2   -zCDP.
// For m = 1 this is CKS20 Thm. 14 (Delta^2 / (2 s^2)).
//
// Coalition inflation. A coalition of up to t parties knows its own shares
// and can subtract them (post-processing of its view), so only the m = n - t
// honest shares count: each party draws s^2 = sigma^2 / (n - t), where
// sigma^2 is what the central calibration (zcdp_calibration.h) would pick,
// raised until rho (with tau) meets the per-release target. The noise
// actually added has variance n s^2 >= sigma^2.
//
// Truncation. Every share is clamped to [-B, B] so that packed encrypted
// slots cannot overflow (protocol/secure_lda_plan.h). N_Z(0, s^2) is
// s-subgaussian (CKS20 Cor. 9): P[|X| > B] <= 2 exp(-B^2 / (2 s^2)). With
// S = n d R shares drawn over the run, the clamped mechanism equals the
// ideal one except on an event of probability at most
// eta = S 2 exp(-B^2 / (2 s^2)) independent of the data, so an (E, D)-DP
// ideal mechanism gives (E, D + (1 + e^E) eta)-DP. B is chosen so that
//   delta_truncation = (1 + e^E) eta <= min(2^-70, 1e-10 D)
// (E, D: the run's budget), and delta_truncation is recorded in the
// accountant as its own (0, delta_truncation) release.
//
// Calibration (CalibrateDistributedNoise): rho_release = rho(E', D') (1 -
// 1e-9) / R as in DiscreteGaussianForComposition; s^2 starts at
// Delta^2 / (2 rho_release (n - t)) rounded up to a multiple of 2^-20 (at
// least 1) and grows by 2^-12 relative steps until the bound above, with tau
// rounded up, is at most rho_release (tau vanishes in double precision for
// s^2 above ~40, so this is one step in every practical setting).
//
// Ranges (InvalidArgument naming the parameter): parties n in [1, 64],
// coalition t in [0, n - 1], dimension d in [1, 2^40], and those of
// DiscreteGaussianForComposition.
// Thread-safety: pure functions; SampleNoiseShare as DiscreteGaussian::Sample.
#ifndef PPLDA_PRIVACY_DISTRIBUTED_DISCRETE_GAUSSIAN_H_
#define PPLDA_PRIVACY_DISTRIBUTED_DISCRETE_GAUSSIAN_H_

#include <gmpxx.h>

#include <cstdint>

#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"
#include "nlohmann/json.hpp"
#include "privacy/discrete_gaussian.h"
#include "privacy/zcdp_calibration.h"

namespace pplda::privacy {

// tau for m summands of variance s^2, rounded up (relative 1e-9).
double DistributedTau(int summands, double share_variance);

// rho of one release (the bound above, rounded up) for m honest summands
// of variance s^2 over d cells.
double DistributedZcdp(int64_t sensitivity_squared, int summands, const mpq_class& share_variance,
                       int64_t dimension);

struct DistributedNoise {
  int parties = 0;    // n: every compute party adds one share per cell
  int coalition = 0;  // t: shares the adversary may know
  int honest() const { return parties - coalition; }
  mpq_class share_variance;    // s^2 of each party's share
  mpq_class central_variance;  // sigma^2 = (n - t) s^2: what the analysis counts
  double tau = 0;              // of the n - t honest summands
  int64_t dimension = 0;       // d: cells per release
  int64_t share_bound = 0;     // B: shares are clamped to [-B, B]
  double truncation_delta = 0; // (1 + e^E) eta, recorded as its own release
  CompositionNoise composition;  // sigma_squared = central_variance, rho per release
};

// B and delta_truncation for shares of variance s^2 when `samples` shares
// are drawn over a run with budget (epsilon, delta).
struct ShareBound {
  int64_t bound = 0;
  double truncation_delta = 0;
};
ShareBound ChooseShareBound(const mpq_class& share_variance, double samples, double epsilon,
                            double delta);

// Calibrates the shares for R releases of squared L2 sensitivity
// `sensitivity_squared` over `dimension` cells whose composition converts
// to at most (epsilon, delta) for the zCDP part; (budget_epsilon,
// budget_delta) is the run's whole budget, which sizes the truncation.
absl::StatusOr<DistributedNoise> CalibrateDistributedNoise(
    int64_t sensitivity_squared, double epsilon, double delta, int releases, int parties,
    int coalition, int64_t dimension, double budget_epsilon, double budget_delta);

// One party's share: N_Z(0, s^2) clamped to [-bound, bound] (exact sampler).
int64_t SampleNoiseShare(const DiscreteGaussian& share, int64_t bound, crypto::SecureRng& rng);

// The plaintext twin's noise for one cell: the sum of `parties` shares, each
// from `rng` (the secure run's total noise has exactly this distribution).
int64_t SampleSummedShares(const DiscreteGaussian& share, int64_t bound, int parties,
                           crypto::SecureRng& rng);

// The model file's record: n, t, s^2, sigma^2, tau, d, B, delta_truncation,
// the theorem used. Parameters only.
nlohmann::json DescribeDistributedNoise(const DistributedNoise& noise);

inline constexpr char kDistributedNoiseAnalysis[] =
    "Kairouz, Liu & Steinke 2021 (ICML; arXiv:2102.06387) Prop. 14, third bound: the sum of m "
    "i.i.d. N_Z(0, s^2) per cell over d cells, s >= 1/2, is (Delta / (sqrt(m) s) + tau "
    "sqrt(d))^2 / 2-zCDP for L2 sensitivity Delta, tau = 10 sum_{k=1}^{m-1} exp(-2 pi^2 s^2 "
    "k/(k+1)); m = n - t honest parties (a coalition of t knows its own shares)";

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DISTRIBUTED_DISCRETE_GAUSSIAN_H_
