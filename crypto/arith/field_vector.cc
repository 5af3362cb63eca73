#include "crypto/arith/field_vector.h"

#include <sodium.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::crypto {
namespace {

uint128 LoadLittleEndian(const uint8_t* p) {
  if constexpr (std::endian::native == std::endian::little) {
    uint128 v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  }
  uint128 v = 0;
  for (int i = FieldElement::kBytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void StoreLittleEndian(uint128 v, uint8_t* p) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, sizeof(v));
    return;
  }
  for (int i = 0; i < FieldElement::kBytes; ++i) {
    p[i] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}

std::string Uint128ToString(uint128 v) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return digits;
}

// Loads `width` <= 16 little-endian bytes.
uint128 LoadPartial(const uint8_t* p, int width) {
  uint128 v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Fills `out` with values uniform in [0, 2^bits) drawn from `rng`, using
// ceil(bits / 8) random bytes per value (1 bit per value when bits = 1);
// when `reject_all_ones` (bits = 127), the value 2^127 - 1 = p is redrawn.
void FillBounded(SecureRng& rng, absl::Span<FieldElement> out, int bits,
                 bool reject_all_ones) {
  if (bits == 0) {
    std::fill(out.begin(), out.end(), FieldElement::Zero());
    return;
  }
  if (bits == 1) {
    std::vector<uint8_t> bytes((out.size() + 7) / 8);
    rng.Fill(absl::MakeSpan(bytes));
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = FieldElement::FromUint64((bytes[i / 8] >> (i % 8)) & 1);
    }
    sodium_memzero(bytes.data(), bytes.size());
    return;
  }
  const int width = (bits + 7) / 8;
  const uint128 mask = (~uint128{0}) >> (128 - bits);
  std::vector<uint8_t> bytes(out.size() * width);
  rng.Fill(absl::MakeSpan(bytes));
  for (size_t i = 0; i < out.size(); ++i) {
    uint128 v = (width == FieldElement::kBytes ? LoadLittleEndian(bytes.data() + i * width)
                                               : LoadPartial(bytes.data() + i * width, width)) &
                mask;
    while (reject_all_ones && v == FieldElement::kModulus) {
      uint8_t redraw[FieldElement::kBytes];
      rng.Fill(absl::MakeSpan(redraw, sizeof(redraw)));
      v = LoadLittleEndian(redraw) & mask;
      sodium_memzero(redraw, sizeof(redraw));
    }
    out[i] = FieldElement::FromUint128(v);
  }
  sodium_memzero(bytes.data(), bytes.size());
}

}  // namespace

void AddInPlace(absl::Span<FieldElement> a, absl::Span<const FieldElement> b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
}

void SubInPlace(absl::Span<FieldElement> a, absl::Span<const FieldElement> b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] -= b[i];
}

void MulInPlace(absl::Span<FieldElement> a, absl::Span<const FieldElement> b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] *= b[i];
}

void ScaleInPlace(absl::Span<FieldElement> a, FieldElement c) {
  for (FieldElement& x : a) x *= c;
}

void AddScaledInPlace(absl::Span<FieldElement> a, FieldElement c,
                      absl::Span<const FieldElement> b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += c * b[i];
}

void BatchInvertInPlace(absl::Span<FieldElement> a) {
  // prefix[i] = product of the non-zero a[0..i].
  FieldVector prefix(a.size());
  FieldElement running = FieldElement::One();
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].IsZero()) running *= a[i];
    prefix[i] = running;
  }
  FieldElement inverse = running.Inverse();
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i].IsZero()) continue;
    const FieldElement before = i == 0 ? FieldElement::One() : prefix[i - 1];
    const FieldElement inv_i = inverse * before;
    inverse *= a[i];
    a[i] = inv_i;
  }
}

void AppendEncoded(absl::Span<const FieldElement> values, std::vector<uint8_t>& out) {
  const size_t start = out.size();
  out.resize(start + values.size() * FieldElement::kBytes);
  uint8_t* p = out.data() + start;
  for (const FieldElement& x : values) {
    StoreLittleEndian(x.value(), p);
    p += FieldElement::kBytes;
  }
}

namespace {

absl::Status CheckEncodedLength(absl::Span<const uint8_t> bytes, size_t expected_count,
                                std::string_view what) {
  if (bytes.size() == expected_count * FieldElement::kBytes) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      std::string(what), ": expected ", expected_count, " field elements (",
      expected_count * FieldElement::kBytes, " bytes), got ", bytes.size(), " bytes"));
}

absl::Status NonCanonical(uint128 v, size_t index, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(
      std::string(what), ": element ", index, " is ", Uint128ToString(v),
      ", not a canonical field element (must be < 2^127 - 1)"));
}

}  // namespace

absl::StatusOr<FieldVector> DecodeFieldVector(absl::Span<const uint8_t> bytes,
                                              size_t expected_count,
                                              std::string_view what) {
  RETURN_IF_ERROR(CheckEncodedLength(bytes, expected_count, what));
  FieldVector out(expected_count);
  for (size_t i = 0; i < expected_count; ++i) {
    const uint128 v = LoadLittleEndian(bytes.data() + i * FieldElement::kBytes);
    if (v >= FieldElement::kModulus) return NonCanonical(v, i, what);
    out[i] = FieldElement::FromUint128(v);
  }
  return out;
}

absl::Status DecodeAndAccumulate(absl::Span<const uint8_t> bytes, FieldElement coefficient,
                                 absl::Span<FieldElement> acc, std::string_view what) {
  RETURN_IF_ERROR(CheckEncodedLength(bytes, acc.size(), what));
  const bool unit = coefficient == FieldElement::One();
  for (size_t i = 0; i < acc.size(); ++i) {
    const uint128 v = LoadLittleEndian(bytes.data() + i * FieldElement::kBytes);
    if (v >= FieldElement::kModulus) return NonCanonical(v, i, what);
    const FieldElement x = FieldElement::FromUint128(v);
    acc[i] += unit ? x : coefficient * x;
  }
  return absl::OkStatus();
}

FieldVector RandomFieldVector(SecureRng& rng, size_t count) {
  FieldVector out(count);
  FillBounded(rng, absl::MakeSpan(out), FieldElement::kBits, /*reject_all_ones=*/true);
  return out;
}

FieldVector RandomBoundedVector(SecureRng& rng, size_t count, int bits) {
  FieldVector out(count);
  FillBounded(rng, absl::MakeSpan(out), bits, /*reject_all_ones=*/false);
  return out;
}

}  // namespace pplda::crypto
