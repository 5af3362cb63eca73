// Shared helpers of the dealer-free key generation's view tests
// (distributed_key_view_stat_test.cc, biprimality_view_stat_test.cc): a
// small fixed biprime, additive shares of chosen values, and the three
// statistics the tests use, each at significance 0.001:
//  - Pearson's chi-square goodness of fit against the uniform distribution
//    on k classes (df k - 1);
//  - Pearson's chi-square homogeneity test of two samples over k classes
//    (2 x k table, df k - 1);
//  - the two-sample Kolmogorov-Smirnov test (asymptotic critical value
//    c(0.001) sqrt((n + m) / (n m)), c(0.001) = sqrt(-ln(0.0005) / 2) = 1.949).
// The quantiles are Wilson-Hilferty's approximation (relative error below
// 1% at df >= 15, the smallest df used).
#ifndef PPLDA_TESTS_CRYPTO_KEYGEN_VIEW_STAT_UTIL_H_
#define PPLDA_TESTS_CRYPTO_KEYGEN_VIEW_STAT_UTIL_H_

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "crypto/random/secure_rng_testing.h"

namespace pplda::crypto {
namespace keygen_view {

// Upper 0.001 quantile of chi-square with df degrees of freedom.
inline double ChiSquareCritical001(int df) {
  constexpr double kZ999 = 3.0902;  // standard normal upper 0.001 quantile
  const double a = 2.0 / (9.0 * df);
  const double c = 1 - a + kZ999 * std::sqrt(a);
  return df * c * c * c;
}

// Pearson's statistic of `counts` against equal expectations.
inline double ChiSquareUniform(const std::vector<int64_t>& counts) {
  double total = 0;
  for (int64_t c : counts) total += static_cast<double>(c);
  const double expected = total / static_cast<double>(counts.size());
  double stat = 0;
  for (int64_t c : counts) stat += (c - expected) * (c - expected) / expected;
  return stat;
}

// Pearson's homogeneity statistic of two count vectors over the same classes.
inline double ChiSquareHomogeneity(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  double na = 0, nb = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    na += static_cast<double>(a[k]);
    nb += static_cast<double>(b[k]);
  }
  double stat = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    const double column = static_cast<double>(a[k] + b[k]);
    if (column == 0) continue;
    const double ea = column * na / (na + nb), eb = column * nb / (na + nb);
    stat += (a[k] - ea) * (a[k] - ea) / ea + (b[k] - eb) * (b[k] - eb) / eb;
  }
  return stat;
}

// The two-sample Kolmogorov-Smirnov statistic sup |F_a - F_b|.
inline double KolmogorovSmirnov(std::vector<mpz_class> a, std::vector<mpz_class> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  size_t i = 0, j = 0;
  double d = 0;
  while (i < a.size() && j < b.size()) {
    const mpz_class x = a[i] < b[j] ? a[i] : b[j];
    while (i < a.size() && a[i] == x) ++i;
    while (j < b.size() && b[j] == x) ++j;
    d = std::max(d,
                 std::fabs(static_cast<double>(i) / a.size() - static_cast<double>(j) / b.size()));
  }
  return d;
}

inline double KolmogorovSmirnovCritical001(size_t n, size_t m) {
  return 1.949 * std::sqrt(static_cast<double>(n + m) / (static_cast<double>(n) * m));
}

// floor(classes * (x mod n) / n): the position of x mod n in [0, n).
inline int64_t ClassModN(const mpz_class& x, const mpz_class& n, int classes) {
  const mpz_class r = x % n;
  const mpz_class c = r * classes / n;
  return c.get_si();
}

// Two distinct primes of bits / 2 bits, both 3 mod 4 (as the generation's),
// from a seeded source: a small fixed biprime N = p q for the tests.
struct SmallBiprime {
  mpz_class p, q, n;
};
inline SmallBiprime MakeSmallBiprime(int bits, uint64_t seed) {
  SeededRng rng(seed);
  auto prime = [&]() {
    mpz_class x = rng.RandomBits(bits / 2) | (mpz_class(3) << (bits / 2 - 2));
    while (true) {
      mpz_nextprime(x.get_mpz_t(), x.get_mpz_t());
      if (mpz_fdiv_ui(x.get_mpz_t(), 4) == 3) return x;
    }
  };
  SmallBiprime b;
  b.p = prime();
  do {
    b.q = prime();
  } while (b.q == b.p);
  b.n = b.p * b.q;
  return b;
}

// Three additive integer shares of x (the last two random of 2 bits(x)
// bits, possibly negative, as the generation's shares may be).
inline std::vector<mpz_class> SplitAdditively(const mpz_class& x, SeededRng& rng) {
  const size_t bits = 2 * mpz_sizeinbase(x.get_mpz_t(), 2);
  std::vector<mpz_class> s = {0, rng.RandomBits(bits), mpz_class(-rng.RandomBits(bits))};
  s[0] = x - s[1] - s[2];
  return s;
}

}  // namespace keygen_view
}  // namespace pplda::crypto

#endif  // PPLDA_TESTS_CRYPTO_KEYGEN_VIEW_STAT_UTIL_H_
