// Renyi DP of the Poisson-subsampled discrete Gaussian mechanism, its
// composition and its conversion to (epsilon, delta)-DP, and the calibration
// of sigma for R such releases (DP training with --dp-sample-rate q < 1,
// privacy/dp_count_training.h). Floating point is used here only to account
// and to choose parameters; the noise and the sample are drawn exactly.
//
// The mechanism. Every document is included independently with probability
// q; the release is N = C_S + Z, C_S the K x V counts of the sampled
// documents, Z i.i.d. N_Z(0, sigma^2) per cell. Adjacency: add or remove one
// document, whose counts C_d have squared L2 norm |mu|^2 <= Delta^2.
// Conditioned on everything but the target's inclusion (the other documents'
// sample and, in DP training, every other assignment; see
// dp_count_training.h), the two worlds give
//     P = N_Z(c, sigma^2 I)                              (without d)
//     M = (1 - q) P + q Q,   Q = N_Z(c + mu, sigma^2 I)  (with d),
// c and mu integer vectors; mixing over those conditions keeps any bound
// that holds for every (c, mu) (Renyi divergence is jointly quasi-convex,
// van Erven & Harremoes 2014, Thm. 13).
//
// Orders. Integer alpha in [kMinRdpOrder, kMaxRdpOrder] = [2, 256].
//
// Direction M || P (Mironov, Talwar & Zhang 2019, "Renyi Differential
// Privacy of the Sampled Gaussian Mechanism", sec. 3.3, A_alpha): expanding
// (M/P)^alpha = ((1 - q) + q Q/P)^alpha by the binomial theorem,
//     E_P[(M/P)^alpha] = A_alpha = sum_{k=0}^{alpha} C(alpha, k) (1 - q)^(alpha - k) q^k
//                                   exp(k (k - 1) |mu|^2 / (2 sigma^2)),
// EXACT for the discrete Gaussian with an integer shift: E_P[(Q/P)^k] is the
// sum over x of exp(-(k |x - c - mu|^2 - (k - 1) |x - c|^2) / (2 sigma^2))
// over the normaliser; the exponent is -(|x - c - k mu|^2 - k (k - 1)
// |mu|^2) / (2 sigma^2), and the lattice sum of the shifted Gaussian
// equals the normaliser because k mu is an integer vector. Each term grows
// with |mu|^2, so |mu|^2 = Delta^2 is the worst case.
//
// Direction P || M: E_P[(P/M)^(alpha - 1)] = B_alpha <= A_alpha, so the same
// bound holds. Proof (ours; MTZ19 Thm. 5 states it for the continuous
// Gaussian). (1) The pair is reflection-symmetric: x -> 2c + mu - x maps
// the lattice onto itself and P onto Q, Q onto P. So the privacy loss
// L = ln(Q/P) has, under P, a law nu on a countable set with
// e^l nu(l) = nu(-l). (2) Pairing l with -l, for any f,
// E_P[f(L)] = nu(0) f(0) + sum_{l > 0} nu(l) (f(l) + e^l f(-l)), and
// with pi = 1/(1 + e^l) the bracket times pi is E_P'[f(L)] for the binary
// pair P' = (pi, 1 - pi), Q' = (1 - pi, pi) (randomised response, loss
// +-l). As A and B are E_P[f(L)] for f = (1 - q + q e^L)^alpha and
// (1 - q + q e^L)^(1 - alpha), and both are 1 at l = 0, A - B is a
// non-negative combination of A' - B' over binary pairs. (3) For a binary
// pair, M' = (m, 1 - m) with pi <= m <= 1 - pi; with
// g(r) = r^alpha - r^(1 - alpha) and d = m - pi,
//     A' - B' = pi g(1 + d/pi) - (1 - m) g(1 + d/(1 - m)).
// s -> s g(1 + d/s) is the perspective of t -> g(1 + t) and is
// non-increasing in s because g is convex on [1, inf) (g''(r) =
// alpha (alpha - 1)(r^(alpha - 2) - r^(-alpha - 1)) >= 0) with g(1) = 0;
// pi <= 1 - m, so A' - B' >= 0.
//
// So one release is (alpha, eps_q(alpha))-RDP in both directions, with
//     eps_q(alpha) = ln(A_alpha) / (alpha - 1),  |mu|^2 = Delta^2,
// computed by log-sum-exp over k (no overflow at alpha = 256); q = 1 gives
// alpha Delta^2 / (2 sigma^2) exactly (the zCDP bound, CKS20 Thm. 14).
// RDP composes adaptively by adding eps(alpha) order by order (Mironov 2017,
// Prop. 1); a rho-zCDP release adds rho alpha.
//
// Conversion (kRdpConversion): (alpha, tau)-RDP gives (epsilon, delta)-DP
// with epsilon = tau + ln((alpha - 1)/alpha) - (ln delta + ln alpha)/(alpha - 1)
// (Canonne, Kamath & Steinke 2020, Prop. 12; Balle et al. 2020, Thm. 21),
// minimised over the orders.
//
// Calibration (CalibrateSampledDiscreteGaussian): sigma^2 on the grid of
// multiples of 2^-20, the smallest whose R releases, composed and converted
// at delta, give at most epsilon (1 - 1e-9) (bisection; the spent epsilon
// is monotone in sigma^2 as every term of A_alpha is).
//
// Ranges (InvalidArgument naming the parameter otherwise): q in
// [kMinSampleRate, 1] (the sample compares a uniform 64-bit integer with
// q 2^64, an integer for every double q >= 2^-12), sensitivity_squared in
// [1, 2^60], epsilon in (0, 1000], delta in (0, 0.5), releases in [1, 10^7].
// Thread-safety: pure functions.
#ifndef PPLDA_PRIVACY_SAMPLED_GAUSSIAN_RDP_H_
#define PPLDA_PRIVACY_SAMPLED_GAUSSIAN_RDP_H_

#include <gmpxx.h>

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"

namespace pplda::privacy {

inline constexpr int kMinRdpOrder = 2;
inline constexpr int kMaxRdpOrder = 256;
inline constexpr int kRdpOrders = kMaxRdpOrder - kMinRdpOrder + 1;
inline constexpr double kMinSampleRate = 0x1p-12;

// InvalidArgument naming --dp-sample-rate unless q in [2^-12, 1].
absl::Status ValidateSampleRate(double q);

// eps_q(alpha) for alpha = 2, ..., 256 (index alpha - 2): one release of
// N_Z(0, sigma^2) noise on counts of squared L2 sensitivity
// `sensitivity_squared`, documents sampled at rate q. ln A_alpha by
// log-sum-exp; q = 1 gives alpha Delta^2 / (2 sigma^2).
std::vector<double> SampledDiscreteGaussianRdp(double q, int64_t sensitivity_squared,
                                               const mpq_class& sigma_squared);

// The (epsilon, delta) conversion of an RDP curve (kRdpOrders entries,
// index alpha - 2): the minimum over the orders; *best_order, when given,
// receives the minimising alpha. +infinity for delta <= 0.
double EpsilonForRdp(const std::vector<double>& rdp, double delta, int* best_order = nullptr);

struct SampledGaussianNoise {
  mpq_class sigma_squared;  // of every release
  double sample_rate = 1;   // q
  int releases = 0;         // R
  int64_t sensitivity_squared = 0;
  std::vector<double> rdp_per_release;  // eps_q(alpha), alpha = 2..256
};

// The smallest sigma^2 (a multiple of 2^-20) whose `releases` sampled
// releases convert to at most epsilon (1 - 1e-9) at delta.
absl::StatusOr<SampledGaussianNoise> CalibrateSampledDiscreteGaussian(int64_t sensitivity_squared,
                                                                      double q, double epsilon,
                                                                      double delta, int releases);

// The Poisson sample of `num_documents` documents: entry m is true with
// probability exactly q (one NextUint64 per document compared with the
// integer q 2^64); q = 1 includes every document and draws nothing.
// Requires ValidateSampleRate(q).
std::vector<bool> PoissonSampleDocuments(int32_t num_documents, double q, crypto::SecureRng& rng);

inline constexpr char kRdpConversion[] =
    "Renyi DP over the integer orders 2..256 (releases add order by order, Mironov 2017 Prop. "
    "1; a rho-zCDP release adds rho alpha), converted by Canonne, Kamath & Steinke 2020 Prop. "
    "12 (= Balle et al. 2020 Thm. 21): epsilon = min_alpha tau(alpha) + ln((alpha - 1)/alpha) - "
    "(ln delta + ln alpha)/(alpha - 1)";

inline constexpr char kSampledGaussianAccounting[] =
    "Poisson-subsampled discrete Gaussian: eps(alpha) = ln(A_alpha)/(alpha - 1), A_alpha = "
    "sum_k C(alpha, k) (1 - q)^(alpha - k) q^k exp(k (k - 1) Delta^2 / (2 sigma^2)) (Mironov, "
    "Talwar & Zhang 2019; exact for the discrete Gaussian with integer shifts); the other "
    "direction is at most the same by the reflection symmetry of the pair "
    "(privacy/sampled_gaussian_rdp.h)";

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_SAMPLED_GAUSSIAN_RDP_H_
