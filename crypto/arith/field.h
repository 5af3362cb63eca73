// FieldElement: an element of the prime field GF(p), p = 2^127 - 1 (a
// Mersenne prime), the share space of the Shamir / MPC engine.
//
// Invariant: value() is canonical, in [0, p). Arithmetic uses unsigned
// __int128 with the Mersenne reduction x mod p = (x >> 127) + (x & p),
// followed by one conditional subtraction; there are no secret-dependent
// branches beyond that subtraction and the loop-free 64x64 multiplies.
//
// Why this field: 127 bits leave room for l-bit comparisons with sigma-bit
// statistical masks (l + sigma + a few bits < 127, see comparison.h), and
// p ≡ 3 (mod 4) gives square roots as a^((p+1)/4), used for random bits.
// Also 2^127 ≡ 1, so powers of two and their inverses are cheap:
// 2^-k = 2^(127 - k mod 127).
//
// Signed integers in (-(p-1)/2, (p-1)/2] are represented by x mod p
// (FromInt64 / ToSigned).
// Thread-safety: a value type; all functions are pure.
#ifndef PPLDA_CRYPTO_ARITH_FIELD_H_
#define PPLDA_CRYPTO_ARITH_FIELD_H_

#include <cstdint>
#include <string>

namespace pplda::crypto {

using uint128 = unsigned __int128;
using int128 = __int128;

class FieldElement {
 public:
  static constexpr int kBits = 127;
  static constexpr uint128 kModulus = (uint128{1} << 127) - 1;
  // Bytes of the wire encoding (little-endian, canonical).
  static constexpr int kBytes = 16;

  constexpr FieldElement() = default;

  // v reduced mod p (any 128-bit value is accepted).
  static constexpr FieldElement FromUint128(uint128 v) {
    return FieldElement(Reduce128(v));
  }
  static constexpr FieldElement FromUint64(uint64_t v) {
    return FieldElement(v);
  }
  // Negative v maps to p - |v|.
  static constexpr FieldElement FromInt64(int64_t v) {
    return v >= 0 ? FieldElement(static_cast<uint128>(v))
                  : FieldElement(kModulus - static_cast<uint128>(-static_cast<int128>(v)));
  }
  static constexpr FieldElement FromInt128(int128 v) {
    return v >= 0 ? FromUint128(static_cast<uint128>(v))
                  : -FromUint128(static_cast<uint128>(-v));
  }
  static constexpr FieldElement Zero() { return FieldElement(); }
  static constexpr FieldElement One() { return FieldElement(1); }
  // 2^k mod p for any integer k (negative k gives the inverse power).
  static constexpr FieldElement PowerOfTwo(int k) {
    int e = k % kBits;
    if (e < 0) e += kBits;
    return FieldElement(uint128{1} << e);
  }

  constexpr uint128 value() const { return v_; }
  // The representative in (-(p-1)/2, (p-1)/2].
  constexpr int128 ToSigned() const {
    return v_ > kModulus / 2 ? -static_cast<int128>(kModulus - v_)
                             : static_cast<int128>(v_);
  }
  constexpr bool IsZero() const { return v_ == 0; }

  friend constexpr FieldElement operator+(FieldElement a, FieldElement b) {
    uint128 s = a.v_ + b.v_;  // < 2^128
    return FieldElement(s >= kModulus ? s - kModulus : s);
  }
  friend constexpr FieldElement operator-(FieldElement a, FieldElement b) {
    return FieldElement(a.v_ >= b.v_ ? a.v_ - b.v_ : a.v_ + (kModulus - b.v_));
  }
  friend constexpr FieldElement operator-(FieldElement a) {
    return FieldElement(a.v_ == 0 ? 0 : kModulus - a.v_);
  }
  friend constexpr FieldElement operator*(FieldElement a, FieldElement b) {
    return FieldElement(MulMod(a.v_, b.v_));
  }
  FieldElement& operator+=(FieldElement b) { return *this = *this + b; }
  FieldElement& operator-=(FieldElement b) { return *this = *this - b; }
  FieldElement& operator*=(FieldElement b) { return *this = *this * b; }
  friend constexpr bool operator==(FieldElement a, FieldElement b) {
    return a.v_ == b.v_;
  }
  friend constexpr bool operator!=(FieldElement a, FieldElement b) {
    return a.v_ != b.v_;
  }

  // a^e by square-and-multiply over the 128 bits of e.
  FieldElement Pow(uint128 e) const;
  // a^-1 = a^(p-2); Inverse of zero is zero (callers check IsZero when the
  // operand may be zero).
  FieldElement Inverse() const;
  // a^(2^k - 1) with about k squarings and 2 log2 k multiplications.
  FieldElement PowTwoToTheMinusOne(int k) const;
  // For a quadratic residue a != 0: (sqrt a)^-1 = a^((p-3)/4), where
  // sqrt a = a^((p+1)/4) is the root returned by this field's square root.
  FieldElement InverseSquareRoot() const;

  // Decimal digits of value().
  std::string ToString() const;

 private:
  explicit constexpr FieldElement(uint128 canonical) : v_(canonical) {}

  // Folds a 128-bit value into [0, p).
  static constexpr uint128 Reduce128(uint128 x) {
    uint128 r = (x & kModulus) + (x >> 127);  // < 2^127 + 2
    return r >= kModulus ? r - kModulus : r;
  }
  // (a * b) mod p for a, b < p: the 254-bit product is split as
  // H * 2^128 + L, then folded with 2^127 ≡ 1.
  static constexpr uint128 MulMod(uint128 a, uint128 b) {
    const uint64_t a0 = static_cast<uint64_t>(a);
    const uint64_t a1 = static_cast<uint64_t>(a >> 64);  // < 2^63
    const uint64_t b0 = static_cast<uint64_t>(b);
    const uint64_t b1 = static_cast<uint64_t>(b >> 64);  // < 2^63
    const uint128 lo = static_cast<uint128>(a0) * b0;
    // Each cross product is < 2^127, so their sum fits in 128 bits.
    const uint128 mid = static_cast<uint128>(a0) * b1 + static_cast<uint128>(a1) * b0;
    const uint128 hi = static_cast<uint128>(a1) * b1;  // < 2^126
    const uint128 low = lo + (mid << 64);
    const uint128 high = hi + (mid >> 64) + (low < lo ? 1 : 0);  // < 2^126
    // product >> 127 and product mod 2^127; their sum is < 2^128.
    const uint128 folded = ((high << 1) | (low >> 127)) + (low & kModulus);
    return Reduce128(folded);
  }

  uint128 v_ = 0;
};

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_ARITH_FIELD_H_
