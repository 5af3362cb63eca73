// BigFieldShamir: Shamir secret sharing (Shamir 1979) over a large prime
// field F_P (GMP integers), for the protocols whose values do not fit the
// engine's GF(2^127 - 1): dealer-free RSA modulus generation
// (shared_modulus.h) computes with integers of thousands of bits.
// Party j (0-based) holds f(j + 1); a sharing "of degree d" has a uniformly
// random f of degree <= d. Any d + 1 shares determine f(0), any d reveal
// nothing about it. Needs P > n (distinct non-zero points). Elements are
// kept reduced in [0, P). Immutable after Create; thread-safe.
#ifndef PPLDA_CRYPTO_KEYGEN_BIG_FIELD_SHAMIR_H_
#define PPLDA_CRYPTO_KEYGEN_BIG_FIELD_SHAMIR_H_

#include <gmpxx.h>

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

class BigFieldShamir {
 public:
  // InvalidArgument unless 3 <= n <= 64, 1 <= t, 2t < n and P is an odd
  // prime (GMP's Baillie-PSW check) above n.
  static absl::StatusOr<BigFieldShamir> Create(int num_parties, int threshold, mpz_class prime);
  // A public field prime every party derives alike: the first prime above
  // 2^(bits - 1) (known for the sizes in use, else searched once per size
  // per process).
  static const mpz_class& PublicPrime(int bits);

  int num_parties() const { return num_parties_; }
  int threshold() const { return threshold_; }
  const mpz_class& prime() const { return prime_; }
  // x mod P in [0, P) (x may be negative).
  mpz_class Reduce(const mpz_class& x) const;

  // The n shares of `secret` (reduced first) at degree `degree` (< n).
  std::vector<mpz_class> Share(const mpz_class& secret, int degree, SecureRng& rng) const;
  // f(0) from the shares of parties 0..degree (shares.size() >= degree + 1;
  // only the first degree + 1 are used).
  mpz_class Reconstruct(absl::Span<const mpz_class> shares, int degree) const;
  // Whether every share lies on the degree-`degree` polynomial through the
  // first degree + 1 (all n shares given).
  bool Consistent(absl::Span<const mpz_class> shares, int degree) const;
  // Lagrange coefficients at 0 for parties 0..degree.
  const std::vector<mpz_class>& LagrangeAtZero(int degree) const { return lagrange_[degree]; }

 private:
  BigFieldShamir(int n, int t, mpz_class prime);
  // Coefficients c_j with f(x) = sum_j c_j f(j + 1), j = 0..degree.
  std::vector<mpz_class> Coefficients(int degree, int x) const;
  // Party `party`'s share on the polynomial through parties 0..degree.
  mpz_class Interpolate(absl::Span<const mpz_class> shares, int degree, int party) const;

  int num_parties_;
  int threshold_;
  mpz_class prime_;
  std::vector<std::vector<mpz_class>> lagrange_;  // by degree 0..n-1
  std::vector<std::vector<std::vector<mpz_class>>> extrapolate_;  // [degree][party]
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_KEYGEN_BIG_FIELD_SHAMIR_H_
