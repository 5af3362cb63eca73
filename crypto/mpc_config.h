// MpcConfig: the validated, immutable public parameters of the MPC engine:
// n compute parties, Shamir threshold t (any t parties learn nothing; t < n/2
// so the engine is secure against a semi-honest coalition of up to t), and
// the statistical security parameter sigma (every value opened under a
// statistical mask is within 2^-sigma statistical distance of a value
// independent of the secret).
//
// Bit budget of statistically masked openings (comparison.h): opening
// x + r_low + 2^m r_high, with x < 2^k, r_low < 2^m and r_high the sum of
// t+1 dealers' values uniform in [0, 2^(k-m+sigma+1)), must not wrap around
// p = 2^127 - 1. That holds when
//     k + sigma + 1 + ceil(log2(t+1)) <= 125,
// so max_masked_bits() = 124 - sigma - ceil(log2(t+1)), e.g. 83 for t = 1
// and sigma = 40. Comparisons of l-bit values mask l+1 bits:
// max_comparison_bits() = max_masked_bits() - 1 (82 for t = 1, sigma = 40).
//
// Ranges: 3 <= n <= 64, 1 <= t < n/2, 20 <= sigma <= 64.
// Errors: InvalidArgument naming the parameter. Thread-safe (immutable).
#ifndef PPLDA_CRYPTO_MPC_CONFIG_H_
#define PPLDA_CRYPTO_MPC_CONFIG_H_

#include "absl/status/statusor.h"
#include "crypto/shamir.h"

namespace pplda::crypto {

class MpcConfig {
 public:
  static constexpr int kDefaultSigma = 40;
  static constexpr int kMinSigma = 20;
  static constexpr int kMaxSigma = 64;

  static absl::StatusOr<MpcConfig> Create(int num_parties, int threshold,
                                          int sigma = kDefaultSigma);

  int num_parties() const { return shamir_.num_parties(); }
  int threshold() const { return shamir_.threshold(); }
  int sigma() const { return sigma_; }
  const ShamirScheme& shamir() const { return shamir_; }

  // ceil(log2(t + 1)): the bits added by summing t+1 dealers' masks.
  int dealer_sum_bits() const;
  // Largest k for which a k-bit value can be opened under a statistical mask.
  int max_masked_bits() const;
  // Largest l for LessThan / Equal on l-bit operands.
  int max_comparison_bits() const { return max_masked_bits() - 1; }

 private:
  MpcConfig(ShamirScheme shamir, int sigma) : shamir_(shamir), sigma_(sigma) {}

  ShamirScheme shamir_;
  int sigma_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_CONFIG_H_
