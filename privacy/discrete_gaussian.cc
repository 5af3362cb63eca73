#include "privacy/discrete_gaussian.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "privacy/exact_bernoulli.h"

namespace pplda::privacy {
namespace {

constexpr int64_t kMaxMagnitude = int64_t{1} << 62;

// One proposal of CKS Algorithm 2 with s = 1 and a scale t < 2^62 (word
// arithmetic); false when it is rejected or its magnitude reaches 2^62.
bool TryDiscreteLaplace(uint64_t t, crypto::SecureRng& rng, int64_t* out) {
  const uint64_t u = rng.UniformUint64(t);
  if (!BernoulliExpMinus(u, t, rng)) return false;
  uint64_t v = 0;
  while (BernoulliExpMinus(uint64_t{1}, uint64_t{1}, rng)) ++v;
  if (v >= static_cast<uint64_t>(kMaxMagnitude) / t) return false;
  const uint64_t magnitude = u + t * v;
  if (magnitude >= static_cast<uint64_t>(kMaxMagnitude)) return false;
  const bool negative = (rng.NextUint64() & 1) != 0;
  if (negative && magnitude == 0) return false;
  *out = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

int64_t DiscreteLaplace(uint64_t t, crypto::SecureRng& rng) {
  int64_t y = 0;
  while (!TryDiscreteLaplace(t, rng, &y)) {
  }
  return y;
}

}  // namespace

int64_t SampleDiscreteLaplace(const mpz_class& scale, crypto::SecureRng& rng) {
  static const mpz_class kMaxScale(kMaxMagnitude);
  if (scale < 1) return DiscreteLaplace(1, rng);
  // A scale of 2^62 or more has no sample below 2^62 with any useful
  // probability; such scales are outside every DP use here.
  if (scale >= kMaxScale) return DiscreteLaplace(static_cast<uint64_t>(kMaxMagnitude) - 1, rng);
  return DiscreteLaplace(scale.get_ui(), rng);
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
  const uint64_t t = laplace_scale_.get_ui();  // <= 2^40 + 1 (sigma^2 <= 2^80)
  mpq_class deviation, gamma;
  while (true) {
    const int64_t y = DiscreteLaplace(t, rng);
    mpq_set_si(deviation.get_mpq_t(), y < 0 ? -y : y, 1);
    deviation -= laplace_offset_;
    gamma = deviation * deviation / two_sigma_squared_;
    if (BernoulliExpMinus(gamma, rng)) return y;
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
