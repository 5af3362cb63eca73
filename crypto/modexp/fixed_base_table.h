// FixedBaseTable: g^e mod M for a fixed base g and exponents e < 2^L, with a
// precomputed table (fixed-base windowing, Brickell-Gordon-McCurley-Wilson,
// EUROCRYPT 1992, "basic" variant with one table row per window):
//
//   Write e = sum_j e_j 2^(w j), 0 <= e_j < 2^w, j < J = ceil(L / w).
//   T[j][d] = g^(d 2^(w j)) mod M for 1 <= d < 2^w.
//   g^e = prod_{j : e_j != 0} T[j][e_j] mod M   (at most J - 1 multiplications).
//
// Memory: J (2^w - 1) residues of bytes(M) each; construction costs about
// J 2^w multiplications. With w = 8, L = 1024 and M = N^2 of a 2048-bit N:
// 127 multiplications per Pow() and 16.7 MB of table (w = 6: 170, 5.5 MB).
// Create(): InvalidArgument unless 1 <= w <= 12, L >= 1, M odd and > 1, and
// 0 < g < M. Pow(e): e must satisfy 0 <= e < 2^L (checked; InvalidArgument).
// Timing: Pow() skips zero windows, so its time depends on how many windows
// of e are zero; e is a fresh random value used once (encryption randomness).
// Immutable after Create(); Pow() is thread-safe.
#ifndef PPLDA_CRYPTO_MODEXP_FIXED_BASE_TABLE_H_
#define PPLDA_CRYPTO_MODEXP_FIXED_BASE_TABLE_H_

#include <gmpxx.h>

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"

namespace pplda::crypto {

class FixedBaseTable {
 public:
  static constexpr int kDefaultWindowBits = 6;

  static absl::StatusOr<FixedBaseTable> Create(const mpz_class& base, const mpz_class& modulus,
                                               size_t exponent_bits,
                                               int window_bits = kDefaultWindowBits);

  absl::StatusOr<mpz_class> Pow(const mpz_class& e) const;
  // Pow() without the range check, for callers that drew e below 2^L.
  mpz_class PowUnchecked(const mpz_class& e) const;

  size_t exponent_bits() const { return exponent_bits_; }
  int window_bits() const { return window_bits_; }
  size_t memory_bytes() const;

 private:
  FixedBaseTable() = default;

  mpz_class modulus_;
  size_t exponent_bits_ = 0;
  int window_bits_ = 0;
  size_t windows_ = 0;
  std::vector<mpz_class> table_;  // row j, digit d at j * (2^w - 1) + d - 1
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MODEXP_FIXED_BASE_TABLE_H_
