#include "crypto/modexp/fixed_base_table.h"

#include "absl/strings/str_cat.h"
#include "crypto/arith/big_int.h"

namespace pplda::crypto {

absl::StatusOr<FixedBaseTable> FixedBaseTable::Create(const mpz_class& base,
                                                      const mpz_class& modulus,
                                                      size_t exponent_bits, int window_bits) {
  if (window_bits < 1 || window_bits > 12) {
    return absl::InvalidArgumentError(
        absl::StrCat("fixed-base table: window_bits = ", window_bits, " is outside [1, 12]"));
  }
  if (exponent_bits < 1) {
    return absl::InvalidArgumentError("fixed-base table: exponent_bits must be >= 1");
  }
  if (modulus <= 1 || mpz_even_p(modulus.get_mpz_t())) {
    return absl::InvalidArgumentError("fixed-base table: modulus must be odd and > 1");
  }
  if (base <= 0 || base >= modulus) {
    return absl::InvalidArgumentError("fixed-base table: base must be in (0, modulus)");
  }
  FixedBaseTable t;
  t.modulus_ = modulus;
  t.exponent_bits_ = exponent_bits;
  t.window_bits_ = window_bits;
  t.windows_ = (exponent_bits + window_bits - 1) / window_bits;
  const size_t row = (size_t{1} << window_bits) - 1;
  t.table_.resize(t.windows_ * row);
  mpz_class row_base = base;  // g^(2^(w j))
  for (size_t j = 0; j < t.windows_; ++j) {
    mpz_class* r = &t.table_[j * row];
    r[0] = row_base;
    for (size_t d = 1; d < row; ++d) r[d] = r[d - 1] * row_base % modulus;
    row_base = r[row - 1] * row_base % modulus;  // g^(2^w 2^(w j))
  }
  return t;
}

mpz_class FixedBaseTable::PowUnchecked(const mpz_class& e) const {
  const size_t row = (size_t{1} << window_bits_) - 1;
  mpz_class acc = 1;
  bool first = true;
  for (size_t j = 0; j < windows_; ++j) {
    unsigned long digit = 0;
    for (int b = window_bits_ - 1; b >= 0; --b) {
      digit = (digit << 1) |
              static_cast<unsigned long>(mpz_tstbit(e.get_mpz_t(), j * window_bits_ + b));
    }
    if (digit == 0) continue;
    const mpz_class& entry = table_[j * row + digit - 1];
    if (first) {
      acc = entry;
      first = false;
    } else {
      mpz_mul(acc.get_mpz_t(), acc.get_mpz_t(), entry.get_mpz_t());
      mpz_tdiv_r(acc.get_mpz_t(), acc.get_mpz_t(), modulus_.get_mpz_t());
    }
  }
  return acc;
}

absl::StatusOr<mpz_class> FixedBaseTable::Pow(const mpz_class& e) const {
  if (e < 0 || BitLength(e) > exponent_bits_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fixed-base table: exponent is outside [0, 2^", exponent_bits_, ")"));
  }
  return PowUnchecked(e);
}

size_t FixedBaseTable::memory_bytes() const {
  return table_.size() * ByteLength(modulus_);
}

}  // namespace pplda::crypto
