#include "crypto/keygen/big_field_shamir.h"

#include <map>
#include <mutex>

#include "absl/strings/str_cat.h"

namespace pplda::crypto {

absl::StatusOr<BigFieldShamir> BigFieldShamir::Create(int num_parties, int threshold,
                                                      mpz_class prime) {
  if (num_parties < 3 || num_parties > 64 || threshold < 1 || 2 * threshold >= num_parties) {
    return absl::InvalidArgumentError(absl::StrCat("big-field Shamir: need 3 <= n <= 64 and 1 <= t < n/2, got n = ",
                                                   num_parties, ", t = ", threshold));
  }
  if (prime <= num_parties || mpz_probab_prime_p(prime.get_mpz_t(), 10) == 0) {
    return absl::InvalidArgumentError("big-field Shamir: the modulus must be a prime above n");
  }
  return BigFieldShamir(num_parties, threshold, std::move(prime));
}

const mpz_class& BigFieldShamir::PublicPrime(int bits) {
  // 2^(bits - 1) + delta is the first prime above 2^(bits - 1) for these
  // sizes (the fields of 1024- and 2048-bit moduli with sigma = 40; found
  // with mpz_nextprime, which takes about a minute at 4280 bits); others
  // are searched for.
  static const std::map<int, unsigned> kKnownDeltas = {
      {1720, 1601}, {2232, 411}, {3256, 2273}, {4280, 8921}};
  static std::mutex mu;
  static std::map<int, mpz_class> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(bits);
  if (it == cache.end()) {
    const mpz_class start = mpz_class(1) << (bits - 1);
    mpz_class prime;
    if (auto known = kKnownDeltas.find(bits); known != kKnownDeltas.end()) {
      prime = start + known->second;
    } else {
      mpz_nextprime(prime.get_mpz_t(), start.get_mpz_t());
    }
    it = cache.emplace(bits, std::move(prime)).first;
  }
  return it->second;
}

BigFieldShamir::BigFieldShamir(int n, int t, mpz_class prime)
    : num_parties_(n),
      threshold_(t),
      prime_(std::move(prime)),
      lagrange_(n),
      extrapolate_(n, std::vector<std::vector<mpz_class>>(n)) {
  for (int degree = 0; degree < n; ++degree) {
    lagrange_[degree] = Coefficients(degree, 0);
    for (int party = degree + 1; party < n; ++party) {
      extrapolate_[degree][party] = Coefficients(degree, party + 1);
    }
  }
}

std::vector<mpz_class> BigFieldShamir::Coefficients(int degree, int x) const {
  std::vector<mpz_class> out;
  for (int j = 0; j <= degree; ++j) {
    // prod_{m != j} (x - x_m) / (x_j - x_m), x_m = m + 1.
    mpz_class num = 1, den = 1;
    for (int m = 0; m <= degree; ++m) {
      if (m == j) continue;
      num *= x - (m + 1);
      den *= (j - m);
    }
    mpz_class inv, den_mod = Reduce(den);
    mpz_invert(inv.get_mpz_t(), den_mod.get_mpz_t(), prime_.get_mpz_t());
    out.push_back(Reduce(num * inv));
  }
  return out;
}

mpz_class BigFieldShamir::Reduce(const mpz_class& x) const {
  mpz_class r;
  mpz_mod(r.get_mpz_t(), x.get_mpz_t(), prime_.get_mpz_t());  // non-negative
  return r;
}

std::vector<mpz_class> BigFieldShamir::Share(const mpz_class& secret, int degree,
                                             SecureRng& rng) const {
  std::vector<mpz_class> coefficients(degree + 1);
  coefficients[0] = Reduce(secret);
  for (int k = 1; k <= degree; ++k) coefficients[k] = rng.UniformBelow(prime_);
  std::vector<mpz_class> shares(num_parties_);
  for (int j = 0; j < num_parties_; ++j) {
    mpz_class y = 0;
    for (int k = degree; k >= 0; --k) y = y * (j + 1) + coefficients[k];  // Horner
    shares[j] = Reduce(y);
  }
  for (mpz_class& c : coefficients) c = 0;
  return shares;
}

mpz_class BigFieldShamir::Reconstruct(absl::Span<const mpz_class> shares, int degree) const {
  mpz_class sum = 0;
  for (int j = 0; j <= degree; ++j) sum += lagrange_[degree][j] * shares[j];
  return Reduce(sum);
}

mpz_class BigFieldShamir::Interpolate(absl::Span<const mpz_class> shares, int degree,
                                      int party) const {
  const std::vector<mpz_class>& c = extrapolate_[degree][party];
  mpz_class sum = 0;
  for (int j = 0; j <= degree; ++j) sum += c[j] * shares[j];
  return Reduce(sum);
}

bool BigFieldShamir::Consistent(absl::Span<const mpz_class> shares, int degree) const {
  for (int j = degree + 1; j < static_cast<int>(shares.size()); ++j) {
    if (Interpolate(shares, degree, j) != Reduce(shares[j])) return false;
  }
  return true;
}

}  // namespace pplda::crypto
