// PackingLayout: many signed integers in one Paillier plaintext, so that one
// encryption, one homomorphic addition and one threshold decryption serve a
// whole slot vector (DESIGN.md section 4, steps 3-4).
//
// Layout. With slot width W bits and s slots, values d_0 .. d_{s-1} are
// packed as the integer  P = sum_i d_i 2^(W i)  (balanced digits: each
// d_i in [-2^(W-1), 2^(W-1))), stored as P mod N. Adding packed plaintexts
// adds slot-wise, with borrows and carries resolved by the balanced decoding,
// as long as every slot stays in its range. s W <= bits(N) - 2, so
// |P| < 2^(bits(N) - 2) < N / 2 and P is recovered exactly from P mod N.
//
// Widths, from PackingOptions:
//   value bound  |v| < 2^value_bits for every packed input (checked by Pack);
//   sum bits     A = value_bits + ceil(log2(max_terms)): a sum of up to
//                max_terms packed vectors has |slot| < 2^A (checked by Unpack);
//   mask bound   with mask_parties = k > 0, each party's conversion mask is
//                uniform in [0, 2^(A + sigma)) (mask_bound()), which hides a
//                signed slot value |v| < 2^A (2^(A+1) possible values) with
//                statistical distance <= 2^(1 - sigma);
//                the masked slot lies in [-2^A, 2^A + k 2^(A + sigma));
//   slot width   W = A + 1 + guard_bits + (k > 0 ? sigma + ceil(log2(k + 1)) : 0).
// Worked example (docs/crypto.md): N of 2048 bits, value_bits = 24,
// max_terms = 3, 3 mask parties, sigma = 40, guard_bits = 8: A = 26,
// W = 26 + 1 + 8 + 40 + 2 = 77, s = floor(2046 / 77) = 26 slots.
//
// Never silent: Pack() rejects an input outside its bound (InvalidArgument
// naming the index and the bound); Unpack() rejects (OutOfRange, naming the
// plaintext and slot) any slot outside |slot| < 2^A (UnpackMasked: outside
// the masked range) and any non-zero bits above the last slot. A slot whose
// true value left its range by less than 2^(W-1) - 2^A (at least 2^guard_bits
// times the bound; 2^sigma times it when masks are configured) therefore
// always fails the check instead of aliasing. The count of packed values is
// carried by the caller: Unpack(plaintexts, count) needs
// plaintexts.size() == NumPlaintexts(count).
// Errors from Create(): InvalidArgument for value_bits outside [1, 1024],
// max_terms = 0, mask_parties outside [0, 64], sigma < 40 with masks,
// guard_bits outside [0, 64], or a slot wider than the modulus allows.
// Immutable; thread-safe.
#ifndef PPLDA_CRYPTO_PAILLIER_PACKING_H_
#define PPLDA_CRYPTO_PAILLIER_PACKING_H_

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/paillier/paillier_public_key.h"

namespace pplda::crypto {

inline constexpr int kStatisticalSecurityBits = 40;  // sigma (DESIGN.md section 3)

struct PackingOptions {
  int value_bits = 32;
  uint64_t max_terms = 1;
  int mask_parties = 0;
  int sigma = kStatisticalSecurityBits;
  int guard_bits = 8;
};

class PackingLayout {
 public:
  static absl::StatusOr<PackingLayout> Create(const PackingOptions& options,
                                              const PaillierPublicKey& key);

  const PackingOptions& options() const { return options_; }
  int slot_bits() const { return slot_bits_; }
  size_t slots() const { return slots_; }
  int sum_bits() const { return sum_bits_; }
  // 2^(A + sigma) when masks are configured, else 0.
  const mpz_class& mask_bound() const { return mask_bound_; }
  // ceil(count / slots()).
  size_t NumPlaintexts(size_t count) const;

  // Inputs with |v| < 2^value_bits; zero-filled last plaintext.
  absl::StatusOr<std::vector<mpz_class>> Pack(absl::Span<const int64_t> values) const;
  absl::StatusOr<std::vector<mpz_class>> Pack(absl::Span<const mpz_class> values) const;
  // Conversion masks 0 <= r < mask_bound() (FailedPrecondition without masks).
  absl::StatusOr<std::vector<mpz_class>> PackMasks(absl::Span<const mpz_class> masks) const;

  // Sums of up to max_terms packed inputs: every slot satisfies |slot| < 2^A.
  absl::StatusOr<std::vector<mpz_class>> Unpack(absl::Span<const mpz_class> plaintexts,
                                                size_t count) const;
  absl::StatusOr<std::vector<int64_t>> UnpackInt64(absl::Span<const mpz_class> plaintexts,
                                                   size_t count) const;
  // Masked sums: every slot in [-2^A, 2^A + mask_parties * mask_bound()).
  absl::StatusOr<std::vector<mpz_class>> UnpackMasked(absl::Span<const mpz_class> plaintexts,
                                                      size_t count) const;

 private:
  PackingLayout() = default;
  absl::StatusOr<std::vector<mpz_class>> PackChecked(absl::Span<const mpz_class> values,
                                                     const mpz_class& lo, const mpz_class& hi,
                                                     std::string_view what) const;
  absl::StatusOr<std::vector<mpz_class>> UnpackChecked(absl::Span<const mpz_class> plaintexts,
                                                       size_t count, const mpz_class& lo,
                                                       const mpz_class& hi,
                                                       std::string_view what) const;

  PackingOptions options_;
  mpz_class n_;
  int slot_bits_ = 0;
  size_t slots_ = 0;
  int sum_bits_ = 0;
  mpz_class mask_bound_;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_PAILLIER_PACKING_H_
