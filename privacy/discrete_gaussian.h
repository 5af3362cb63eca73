// Exact samplers of the integer-valued noise distributions DP needs, with
// integer arithmetic only (Canonne, Kamath & Steinke, "The Discrete Gaussian
// for Differential Privacy", NeurIPS 2020, Algorithms 2 and 3):
//
//   discrete Laplace, integer scale t >= 1:  P[x] ∝ exp(-|x| / t), x in Z;
//   discrete Gaussian N_Z(0, sigma^2), rational sigma^2 > 0:
//                                           P[x] ∝ exp(-x^2 / (2 sigma^2)).
//
// The Gaussian draws Y from the discrete Laplace of scale floor(sigma) + 1
// and accepts it with probability exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2));
// the expected number of proposals is below 2 for every sigma (CKS, sec. 5).
// Privacy facts used by the calibration (CKS Thm. 14 and Cor. 9):
// adding N_Z(0, sigma^2) to an integer vector of L2 sensitivity Delta is
// (Delta^2 / (2 sigma^2))-zCDP, and N_Z(0, sigma^2) is sigma-subgaussian:
// P[X >= x] <= exp(-x^2 / (2 sigma^2)).
//
// Ranges: sigma^2 in (0, 2^80] (Create returns InvalidArgument naming the
// value otherwise); samples are int64 (a proposal beyond 2^62 in magnitude,
// probability below exp(-2^21) at the largest sigma, is redrawn).
// Thread-safety: Sample() is const; concurrent calls are safe when the
// SecureRng passed to each is (one rng per thread for reproducibility).
#ifndef PPLDA_PRIVACY_DISCRETE_GAUSSIAN_H_
#define PPLDA_PRIVACY_DISCRETE_GAUSSIAN_H_

#include <gmpxx.h>

#include <cstdint>

#include "absl/status/statusor.h"
#include "crypto/random/secure_rng.h"

namespace pplda::privacy {

// A discrete Laplace sample of integer scale t >= 1 (t < 1 is treated as 1,
// t >= 2^62 as 2^62 - 1). Word arithmetic throughout.
int64_t SampleDiscreteLaplace(const mpz_class& scale, crypto::SecureRng& rng);

class DiscreteGaussian {
 public:
  static absl::StatusOr<DiscreteGaussian> Create(const mpq_class& sigma_squared);

  int64_t Sample(crypto::SecureRng& rng) const;

  const mpq_class& sigma_squared() const { return sigma_squared_; }
  double sigma() const;

 private:
  explicit DiscreteGaussian(const mpq_class& sigma_squared);

  mpq_class sigma_squared_;
  mpz_class laplace_scale_;     // floor(sigma) + 1
  mpq_class laplace_offset_;    // sigma^2 / t
  mpq_class two_sigma_squared_;
};

// sigma^2 >= value as a rational with denominator 2^20: the smallest such
// multiple of 2^-20, so noise is never smaller than the calibration asked.
mpq_class RoundUpSigmaSquared(double value);

}  // namespace pplda::privacy

#endif  // PPLDA_PRIVACY_DISCRETE_GAUSSIAN_H_
