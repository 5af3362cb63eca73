// IfmaFixedBaseTable: g^e mod m for a fixed base g and exponents e < 2^L,
// eight at a time in the lanes of the AVX-512 IFMA kernel (the arithmetic of
// ifma_modexp.h). It computes the Paillier encryptor's randomisers h_N^r
// (paillier_encryptor.h) 4.3 times faster than FixedBaseTable's GMP
// products at |N| = 2048 (bench_paillier BM_EncryptBatch8*).
//
// Table (fixed-base windowing, Brickell-Gordon-McCurley-Wilson, as in
// fixed_base_table.h, with digit 0 kept):
//   e = sum_j e_j 2^(w j), 0 <= e_j < 2^w, j < J = ceil(L / w);
//   T[j][d] = g^(d 2^(w j)) R mod m (Montgomery form), 0 <= d < 2^w;
//   g^e = prod_j T[j][e_j] / R^J, by J - 1 almost-Montgomery products and
//   one conversion out of Montgomery form.
// CONSTANT TIME in the exponents: every window is multiplied in (digit 0
// included), and each lane's entry is chosen by reading every entry of the
// row in full and selecting in registers, so the operations and memory
// addresses are the same for every exponent below 2^L (unlike
// FixedBaseTable::PowUnchecked, which skips zero windows and indexes its
// table by the digit).
// Memory: J 2^w limbs(m) 8 bytes: 4.2 MB for L = 1024, w = 5 and m = N^2 of
// a 2048-bit N.
// Errors: Create: FailedPrecondition when the CPU lacks AVX-512 IFMA;
// InvalidArgument for a modulus IfmaMontgomeryContext refuses, a base
// outside (0, m), exponent_bits outside [1, 2^16] or window_bits outside
// [1, 8]. Pow: InvalidArgument for 0 or more than 8 exponents, a mismatched
// output span, or an exponent outside [0, 2^L).
// Secrets: the kernel's copies of the exponents, the selected entries and
// the accumulator are wiped before Pow returns; the table holds only powers
// of the public base. Immutable after Create; Pow is thread-safe.
#ifndef PPLDA_CRYPTO_IFMA_IFMA_FIXED_BASE_H_
#define PPLDA_CRYPTO_IFMA_IFMA_FIXED_BASE_H_

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/ifma/ifma_modexp.h"

namespace pplda::crypto {

class IfmaFixedBaseTable {
 public:
  static constexpr int kDefaultWindowBits = 5;

  static absl::StatusOr<IfmaFixedBaseTable> Create(const mpz_class& base, const mpz_class& modulus,
                                                   size_t exponent_bits,
                                                   int window_bits = kDefaultWindowBits);

  // out[k] = base^exponents[k] mod m, k < exponents.size() (1..8).
  absl::Status Pow(absl::Span<const mpz_class> exponents, absl::Span<mpz_class> out) const;

  size_t exponent_bits() const { return exponent_bits_; }
  int window_bits() const { return window_bits_; }
  size_t memory_bytes() const { return table_.size() * sizeof(uint64_t); }

 private:
  IfmaFixedBaseTable(IfmaMontgomeryContext ctx, size_t exponent_bits, int window_bits);

  IfmaMontgomeryContext ctx_;
  size_t exponent_bits_ = 0;
  int window_bits_ = 0;
  size_t windows_ = 0;
  // Window j, digit d, limb i at ((j << w) + d) * limbs + i: 52-bit limbs of
  // T[j][d], not lane-transposed (every lane reads the same table).
  std::vector<uint64_t> table_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_IFMA_IFMA_FIXED_BASE_H_
