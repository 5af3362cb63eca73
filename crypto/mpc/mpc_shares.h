// Shares: one party's shares of a vector of secret field elements, each a
// degree-t Shamir sharing (shamir.h), and the local (communication-free)
// operations on them: addition, subtraction, multiplication by public
// constants, adding public constants. Linear operations commute with
// sharing, so applying them share-wise to every party's shares yields a
// sharing of the result (Shamir linearity).
//
// A public constant c is shared as the degree-0 polynomial c: every party's
// share is c (PublicShares). Adding a public constant adds it to every
// party's share.
//
// Precondition of binary operations: equal sizes (asserted in debug
// builds). Module APIs taking Shares validate sizes and return
// InvalidArgument. Thread-safety: a value type.
#ifndef PPLDA_CRYPTO_MPC_MPC_SHARES_H_
#define PPLDA_CRYPTO_MPC_MPC_SHARES_H_

#include <cassert>
#include <cstddef>
#include <utility>

#include "absl/types/span.h"
#include "crypto/arith/field.h"
#include "crypto/arith/field_vector.h"

namespace pplda::crypto {

class Shares {
 public:
  Shares() = default;
  // `count` shares of zero.
  explicit Shares(size_t count) : values_(count) {}
  explicit Shares(FieldVector values) : values_(std::move(values)) {}

  size_t size() const { return values_.size(); }
  bool empty() const { return values_.empty(); }
  FieldElement operator[](size_t i) const { return values_[i]; }
  FieldElement& operator[](size_t i) { return values_[i]; }
  const FieldVector& values() const { return values_; }
  FieldVector& mutable_values() { return values_; }
  absl::Span<const FieldElement> span() const { return values_; }

  // Elements [begin, begin + count).
  Shares Slice(size_t begin, size_t count) const;
  void Append(const Shares& other);

  Shares& operator+=(const Shares& b);
  Shares& operator-=(const Shares& b);
  Shares& operator*=(FieldElement c);
  friend Shares operator+(Shares a, const Shares& b) { return a += b; }
  friend Shares operator-(Shares a, const Shares& b) { return a -= b; }
  friend Shares operator*(Shares a, FieldElement c) { return a *= c; }
  friend Shares operator*(FieldElement c, Shares a) { return a *= c; }

 private:
  FieldVector values_;
};

// Shares of the public values `values` (each party's share is the value).
Shares PublicShares(absl::Span<const FieldElement> values);
// Shares of `count` copies of the public value c.
Shares PublicShares(size_t count, FieldElement c);
// a[i] + c for every i.
Shares AddConstant(Shares a, FieldElement c);
// a[i] * c[i] for public c.
Shares MulPublic(Shares a, absl::Span<const FieldElement> c);
// c - a[i] for every i (e.g. 1 - bit).
Shares ConstantMinus(FieldElement c, Shares a);
// Elements a[indices[j]].
Shares Gather(const Shares& a, absl::Span<const size_t> indices);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_MPC_SHARES_H_
