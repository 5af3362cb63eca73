#include "crypto/arith/field.h"

#include <algorithm>

namespace pplda::crypto {

FieldElement FieldElement::Pow(uint128 e) const {
  FieldElement result = One();
  FieldElement base = *this;
  while (e != 0) {
    if (e & 1) result *= base;
    base *= base;
    e >>= 1;
  }
  return result;
}

FieldElement FieldElement::Inverse() const { return Pow(kModulus - 2); }

FieldElement FieldElement::PowTwoToTheMinusOne(int k) const {
  if (k <= 0) return One();
  if (k == 1) return *this;
  if (k % 2 == 1) {
    // a^(2^k - 1) = (a^(2^(k-1) - 1))^2 * a
    const FieldElement y = PowTwoToTheMinusOne(k - 1);
    return y * y * *this;
  }
  // a^(2^k - 1) = (a^(2^(k/2) - 1))^(2^(k/2)) * a^(2^(k/2) - 1)
  const FieldElement y = PowTwoToTheMinusOne(k / 2);
  FieldElement z = y;
  for (int i = 0; i < k / 2; ++i) z *= z;
  return z * y;
}

FieldElement FieldElement::InverseSquareRoot() const {
  // (p - 3) / 4 = 2^125 - 1.
  return PowTwoToTheMinusOne(125);
}

std::string FieldElement::ToString() const {
  if (v_ == 0) return "0";
  std::string digits;
  uint128 v = v_;
  while (v != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

}  // namespace pplda::crypto
