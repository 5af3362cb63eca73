// FieldVector: vectors of FieldElement with the element-wise operations the
// MPC engine applies to whole batches of shares, their wire encoding, and
// uniform sampling from a SecureRng.
//
// Wire encoding: each element is 16 bytes, little-endian, canonical (< p).
// Decoding rejects a wrong length or a non-canonical element with
// InvalidArgument naming the element and what was being decoded.
// Sampling: RandomFieldVector draws 127 random bits per element and redraws
// the single non-canonical value p, so elements are exactly uniform in
// [0, p). RandomBoundedVector draws exactly uniform values in [0, 2^bits).
// Thread-safety: free functions; the SecureRng decides concurrency.
#ifndef PPLDA_CRYPTO_ARITH_FIELD_VECTOR_H_
#define PPLDA_CRYPTO_ARITH_FIELD_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/arith/field.h"
#include "crypto/random/secure_rng.h"

namespace pplda::crypto {

using FieldVector = std::vector<FieldElement>;

// a[i] += b[i]; a and b have equal sizes (checked by the callers' types).
void AddInPlace(absl::Span<FieldElement> a, absl::Span<const FieldElement> b);
// a[i] -= b[i].
void SubInPlace(absl::Span<FieldElement> a, absl::Span<const FieldElement> b);
// a[i] *= b[i].
void MulInPlace(absl::Span<FieldElement> a, absl::Span<const FieldElement> b);
// a[i] *= c.
void ScaleInPlace(absl::Span<FieldElement> a, FieldElement c);
// a[i] += c * b[i].
void AddScaledInPlace(absl::Span<FieldElement> a, FieldElement c,
                      absl::Span<const FieldElement> b);

// Replaces every non-zero a[i] by its inverse with one field inversion and
// 3 multiplications per element (Montgomery's trick); zeros stay zero.
void BatchInvertInPlace(absl::Span<FieldElement> a);

// Appends the 16-byte little-endian encoding of each element to `out`.
void AppendEncoded(absl::Span<const FieldElement> values, std::vector<uint8_t>& out);
// Decodes exactly `expected_count` elements. `what` names the payload in
// error messages (e.g. "round 7 message from party 2").
absl::StatusOr<FieldVector> DecodeFieldVector(absl::Span<const uint8_t> bytes,
                                              size_t expected_count,
                                              std::string_view what);

// Decodes exactly acc.size() elements and adds coefficient * element to
// acc[i] (validating as DecodeFieldVector does), without materialising them.
absl::Status DecodeAndAccumulate(absl::Span<const uint8_t> bytes, FieldElement coefficient,
                                 absl::Span<FieldElement> acc, std::string_view what);

// `count` elements uniform in [0, p).
FieldVector RandomFieldVector(SecureRng& rng, size_t count);
// `count` integers uniform in [0, 2^bits), 0 <= bits <= 126, as elements.
FieldVector RandomBoundedVector(SecureRng& rng, size_t count, int bits);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_ARITH_FIELD_VECTOR_H_
