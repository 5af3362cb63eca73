#include "privacy/discrete_gaussian.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "privacy/exact_bernoulli.h"

namespace pplda::privacy {
namespace {

constexpr int64_t kMaxMagnitude = int64_t{1} << 62;

// One proposal of CKS Algorithm 2 with s = 1; false when it is rejected.
bool TryDiscreteLaplace(const mpz_class& t, crypto::SecureRng& rng, mpz_class* out) {
  const mpz_class u = rng.UniformBelow(t);
  if (!BernoulliExpMinus(mpq_class(u, t), rng)) return false;
  mpz_class v = 0;
  const mpq_class one(1);
  while (BernoulliExpMinus(one, rng)) ++v;
  const mpz_class magnitude = u + t * v;
  const bool negative = (rng.NextUint64() & 1) != 0;
  if (negative && magnitude == 0) return false;
  *out = negative ? mpz_class(-magnitude) : magnitude;
  return true;
}

mpz_class DiscreteLaplaceBig(const mpz_class& t, crypto::SecureRng& rng) {
  mpz_class y;
  while (!TryDiscreteLaplace(t, rng, &y)) {
  }
  return y;
}

}  // namespace

int64_t SampleDiscreteLaplace(const mpz_class& scale, crypto::SecureRng& rng) {
  const mpz_class t = scale < 1 ? mpz_class(1) : scale;
  while (true) {
    const mpz_class y = DiscreteLaplaceBig(t, rng);
    if (abs(y) < kMaxMagnitude) return y.get_si();
  }
}

absl::StatusOr<DiscreteGaussian> DiscreteGaussian::Create(const mpq_class& sigma_squared) {
  static const mpq_class kMax(mpz_class(1) << 80);
  if (sigma_squared <= 0 || sigma_squared > kMax) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "discrete Gaussian variance sigma^2 must be in (0, 2^80], got %s",
        sigma_squared.get_str()));
  }
  return DiscreteGaussian(sigma_squared);
}

DiscreteGaussian::DiscreteGaussian(const mpq_class& sigma_squared)
    : sigma_squared_(sigma_squared) {
  sigma_squared_.canonicalize();
  // floor(sigma) = floor(sqrt(floor(sigma^2))).
  const mpz_class floor_variance = sigma_squared_.get_num() / sigma_squared_.get_den();
  laplace_scale_ = sqrt(floor_variance) + 1;
  laplace_offset_ = sigma_squared_ / mpq_class(laplace_scale_);
  two_sigma_squared_ = 2 * sigma_squared_;
}

double DiscreteGaussian::sigma() const { return std::sqrt(sigma_squared_.get_d()); }

int64_t DiscreteGaussian::Sample(crypto::SecureRng& rng) const {
  while (true) {
    const mpz_class y = DiscreteLaplaceBig(laplace_scale_, rng);
    if (abs(y) >= kMaxMagnitude) continue;
    const mpq_class deviation = mpq_class(abs(y)) - laplace_offset_;
    const mpq_class gamma = deviation * deviation / two_sigma_squared_;
    if (BernoulliExpMinus(gamma, rng)) return y.get_si();
  }
}

mpq_class RoundUpSigmaSquared(double value) {
  constexpr double kScale = 1048576.0;  // 2^20
  mpz_class numerator;
  mpz_set_d(numerator.get_mpz_t(), std::ceil(value * kScale));
  if (numerator < 1) numerator = 1;
  mpq_class out(numerator, mpz_class(1) << 20);
  out.canonicalize();
  return out;
}

}  // namespace pplda::privacy
