#include "crypto/mpc/mpc_shares.h"

namespace pplda::crypto {

Shares Shares::Slice(size_t begin, size_t count) const {
  assert(begin + count <= values_.size());
  return Shares(FieldVector(values_.begin() + begin, values_.begin() + begin + count));
}

void Shares::Append(const Shares& other) {
  values_.insert(values_.end(), other.values_.begin(), other.values_.end());
}

Shares& Shares::operator+=(const Shares& b) {
  assert(size() == b.size());
  AddInPlace(absl::MakeSpan(values_), b.values_);
  return *this;
}

Shares& Shares::operator-=(const Shares& b) {
  assert(size() == b.size());
  SubInPlace(absl::MakeSpan(values_), b.values_);
  return *this;
}

Shares& Shares::operator*=(FieldElement c) {
  ScaleInPlace(absl::MakeSpan(values_), c);
  return *this;
}

Shares PublicShares(absl::Span<const FieldElement> values) {
  return Shares(FieldVector(values.begin(), values.end()));
}

Shares PublicShares(size_t count, FieldElement c) { return Shares(FieldVector(count, c)); }

Shares AddConstant(Shares a, FieldElement c) {
  for (FieldElement& x : a.mutable_values()) x += c;
  return a;
}

Shares MulPublic(Shares a, absl::Span<const FieldElement> c) {
  assert(a.size() == c.size());
  MulInPlace(absl::MakeSpan(a.mutable_values()), c);
  return a;
}

Shares ConstantMinus(FieldElement c, Shares a) {
  for (FieldElement& x : a.mutable_values()) x = c - x;
  return a;
}

Shares Gather(const Shares& a, absl::Span<const size_t> indices) {
  FieldVector out(indices.size());
  for (size_t j = 0; j < indices.size(); ++j) out[j] = a[indices[j]];
  return Shares(std::move(out));
}

}  // namespace pplda::crypto
