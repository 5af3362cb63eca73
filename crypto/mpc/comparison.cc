#include "crypto/mpc/comparison.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace pplda::crypto {
namespace {

constexpr int kFullRangeBits = FieldElement::kBits;  // 127

uint128 LowBits(uint128 v, int m) {
  return m >= 128 ? v : (v & ((uint128{1} << m) - 1));
}

absl::Status CheckSizes(const Shares& a, const Shares& b, std::string_view op) {
  if (a.size() != b.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(op), ": operands have ", a.size(), " and ", b.size(),
        " elements; they must have the same size"));
  }
  return absl::OkStatus();
}

absl::Status CheckComparisonBits(const MpcConfig& config, int bits, std::string_view op) {
  if (bits < 1 || bits > config.max_comparison_bits()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(op), ": bit length ", bits, " is outside [1, ",
        config.max_comparison_bits(), "] (127-bit field, sigma = ", config.sigma(),
        ", t = ", config.threshold(), ")"));
  }
  return absl::OkStatus();
}

// Opens x + masks.low + 2^m masks.high (the statistically masked value).
absl::StatusOr<FieldVector> OpenMasked(MpcEngine& engine, Shares x, const MaskBatch& masks,
                                       int m) {
  x += masks.low;
  if (!masks.high.empty()) x += masks.high * FieldElement::PowerOfTwo(m);
  return engine.Open(x);
}

// Leaves of the equality tree: [c_i == r_i] for every bit.
Shares EqualityLeaves(absl::Span<const uint128> c, const Shares& bits, int m) {
  Shares leaves(c.size() * m);
  for (size_t e = 0; e < c.size(); ++e) {
    for (int i = 0; i < m; ++i) {
      const FieldElement r = bits[e * m + i];
      leaves[e * m + i] = ((c[e] >> i) & 1) ? r : FieldElement::One() - r;
    }
  }
  return leaves;
}

// Product of each consecutive group of `width` elements, by a binary tree
// of multiplications (ceil(log2 width) rounds).
absl::StatusOr<Shares> GroupProducts(MpcEngine& engine, Shares values, size_t count,
                                     size_t width) {
  while (width > 1) {
    const size_t pairs = width / 2, next = pairs + width % 2;
    Shares lhs(count * pairs), rhs(count * pairs);
    for (size_t e = 0; e < count; ++e) {
      for (size_t j = 0; j < pairs; ++j) {
        lhs[e * pairs + j] = values[e * width + 2 * j];
        rhs[e * pairs + j] = values[e * width + 2 * j + 1];
      }
    }
    ASSIGN_OR_RETURN(Shares prod, engine.Mul(lhs, rhs));
    Shares folded(count * next);
    for (size_t e = 0; e < count; ++e) {
      for (size_t j = 0; j < pairs; ++j) folded[e * next + j] = prod[e * pairs + j];
      if (width % 2) folded[e * next + pairs] = values[e * width + width - 1];
    }
    values = std::move(folded);
    width = next;
  }
  return values;
}

}  // namespace

absl::Status CheckMasks(const MaskBatch& masks, const MaskSpec& want, std::string_view op) {
  const MaskSpec& got = masks.spec;
  if (got.count != want.count || got.low_bits != want.low_bits ||
      got.high_bits != want.high_bits || (want.keep_bits && !got.keep_bits)) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(op), ": masks were generated for ", got.count, " elements with ",
        got.low_bits, " low / ", got.high_bits, " high bits", got.keep_bits ? "" : " (no bits)",
        "; this call needs ", want.count, " elements with ", want.low_bits, " low / ",
        want.high_bits, " high bits"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Shares> BitLessThan(MpcEngine& engine, absl::Span<const uint128> c,
                                   const Shares& bits, int m) {
  const size_t count = c.size();
  if (bits.size() != count * static_cast<size_t>(m)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "BitLessThan: ", bits.size(), " bit shares for ", count, " values of ", m, " bits"));
  }
  if (m == 0) return Shares(count);
  // Segments are ordered from the most significant bit. For each: e = "c and
  // r differ somewhere in the segment", v = "r > c, decided in the segment".
  // Leaf i: e = c_i xor r_i; v = r_i (1 - c_i).
  size_t segs = m;
  Shares e(count * segs), v(count * segs);
  for (size_t el = 0; el < count; ++el) {
    for (size_t s = 0; s < segs; ++s) {
      const int i = m - 1 - static_cast<int>(s);
      const FieldElement r = bits[el * m + i];
      const bool ci = (c[el] >> i) & 1;
      e[el * segs + s] = ci ? FieldElement::One() - r : r;
      v[el * segs + s] = ci ? FieldElement::Zero() : r;
    }
  }
  // (e_H, v_H) o (e_L, v_L) = (e_H + e_L - e_H e_L, v_H + v_L - e_H v_L).
  while (segs > 1) {
    const size_t pairs = segs / 2, next = pairs + segs % 2;
    const bool need_e = next > 1;
    const size_t per = need_e ? 2 : 1;
    Shares lhs(count * pairs * per), rhs(count * pairs * per);
    for (size_t el = 0; el < count; ++el) {
      for (size_t j = 0; j < pairs; ++j) {
        const size_t h = el * segs + 2 * j, l = h + 1, o = (el * pairs + j) * per;
        lhs[o] = e[h];
        rhs[o] = v[l];
        if (need_e) {
          lhs[o + 1] = e[h];
          rhs[o + 1] = e[l];
        }
      }
    }
    ASSIGN_OR_RETURN(Shares prod, engine.Mul(lhs, rhs));
    Shares e2(need_e ? count * next : 0), v2(count * next);
    for (size_t el = 0; el < count; ++el) {
      for (size_t j = 0; j < pairs; ++j) {
        const size_t h = el * segs + 2 * j, l = h + 1, o = (el * pairs + j) * per;
        v2[el * next + j] = v[h] + v[l] - prod[o];
        if (need_e) e2[el * next + j] = e[h] + e[l] - prod[o + 1];
      }
      if (segs % 2) {
        v2[el * next + pairs] = v[el * segs + segs - 1];
        if (need_e) e2[el * next + pairs] = e[el * segs + segs - 1];
      }
    }
    e = std::move(e2);
    v = std::move(v2);
    segs = next;
  }
  return v;
}

MaskSpec Mod2mMaskSpec(const MpcConfig& config, size_t count, int k, int m) {
  return MaskSpec{count, m, k - m + config.sigma() + 1, true};
}

absl::StatusOr<Shares> Mod2m(MpcEngine& engine, const Shares& x, int k, int m,
                             const MaskBatch& masks) {
  const MpcConfig& config = engine.config();
  if (m < 1 || m > k || k > config.max_masked_bits()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Mod2m: need 1 <= m <= k <= ", config.max_masked_bits(), ", got k = ", k,
        ", m = ", m));
  }
  RETURN_IF_ERROR(CheckMasks(masks, Mod2mMaskSpec(config, x.size(), k, m), "Mod2m"));
  ASSIGN_OR_RETURN(FieldVector opened, OpenMasked(engine, x, masks, m));
  std::vector<uint128> c_low(x.size());
  for (size_t e = 0; e < x.size(); ++e) c_low[e] = LowBits(opened[e].value(), m);
  ASSIGN_OR_RETURN(Shares borrow, BitLessThan(engine, c_low, masks.bits, m));
  // x mod 2^m = c_low - r_low + 2^m [c_low < r_low].
  Shares out = borrow * FieldElement::PowerOfTwo(m) - masks.low;
  for (size_t e = 0; e < x.size(); ++e) out[e] += FieldElement::FromUint128(c_low[e]);
  return out;
}

absl::StatusOr<Shares> Mod2m(MpcEngine& engine, const Shares& x, int k, int m) {
  if (m < 1 || m > k || k > engine.config().max_masked_bits()) {
    return Mod2m(engine, x, k, m, MaskBatch{});  // reports the range error
  }
  const MaskSpec spec = Mod2mMaskSpec(engine.config(), x.size(), k, m);
  ASSIGN_OR_RETURN(std::vector<MaskBatch> masks, engine.GenerateMasks({spec}));
  return Mod2m(engine, x, k, m, masks[0]);
}

MaskSpec LessThanMaskSpec(const MpcConfig& config, size_t count, int bits) {
  return Mod2mMaskSpec(config, count, bits + 1, bits);
}

absl::StatusOr<Shares> LessThan(MpcEngine& engine, const Shares& a, const Shares& b,
                                int bits, const MaskBatch& masks) {
  RETURN_IF_ERROR(CheckSizes(a, b, "LessThan"));
  RETURN_IF_ERROR(CheckComparisonBits(engine.config(), bits, "LessThan"));
  // x = a - b + 2^l in [1, 2^(l+1)); [a >= b] = floor(x / 2^l).
  const Shares x = AddConstant(a - b, FieldElement::PowerOfTwo(bits));
  ASSIGN_OR_RETURN(Shares low, Mod2m(engine, x, bits + 1, bits, masks));
  const Shares at_least = (x - low) * FieldElement::PowerOfTwo(-bits);
  return ConstantMinus(FieldElement::One(), at_least);
}

absl::StatusOr<Shares> LessThan(MpcEngine& engine, const Shares& a, const Shares& b,
                                int bits) {
  RETURN_IF_ERROR(CheckSizes(a, b, "LessThan"));
  RETURN_IF_ERROR(CheckComparisonBits(engine.config(), bits, "LessThan"));
  const MaskSpec spec = LessThanMaskSpec(engine.config(), a.size(), bits);
  ASSIGN_OR_RETURN(std::vector<MaskBatch> masks, engine.GenerateMasks({spec}));
  return LessThan(engine, a, b, bits, masks[0]);
}

MaskSpec EqualMaskSpec(const MpcConfig& config, size_t count, int bits) {
  return MaskSpec{count, bits, config.sigma() + 2, true};
}

absl::StatusOr<Shares> Equal(MpcEngine& engine, const Shares& a, const Shares& b, int bits,
                             const MaskBatch& masks) {
  RETURN_IF_ERROR(CheckSizes(a, b, "Equal"));
  RETURN_IF_ERROR(CheckComparisonBits(engine.config(), bits, "Equal"));
  RETURN_IF_ERROR(CheckMasks(masks, EqualMaskSpec(engine.config(), a.size(), bits), "Equal"));
  // x = a - b + 2^l in (0, 2^(l+1)); a == b iff x = 2^l iff
  // (x + r_low) mod 2^l == r_low, i.e. c mod 2^l == r_low bit by bit.
  const Shares x = AddConstant(a - b, FieldElement::PowerOfTwo(bits));
  ASSIGN_OR_RETURN(FieldVector opened, OpenMasked(engine, x, masks, bits));
  std::vector<uint128> c_low(a.size());
  for (size_t e = 0; e < a.size(); ++e) c_low[e] = LowBits(opened[e].value(), bits);
  return GroupProducts(engine, EqualityLeaves(c_low, masks.bits, bits), a.size(), bits);
}

absl::StatusOr<Shares> Equal(MpcEngine& engine, const Shares& a, const Shares& b, int bits) {
  RETURN_IF_ERROR(CheckSizes(a, b, "Equal"));
  RETURN_IF_ERROR(CheckComparisonBits(engine.config(), bits, "Equal"));
  const MaskSpec spec = EqualMaskSpec(engine.config(), a.size(), bits);
  ASSIGN_OR_RETURN(std::vector<MaskBatch> masks, engine.GenerateMasks({spec}));
  return Equal(engine, a, b, bits, masks[0]);
}

MaskSpec FullRangeMaskSpec(size_t count) {
  return MaskSpec{count, kFullRangeBits, 0, true};
}

absl::StatusOr<Shares> LessThanFullRange(MpcEngine& engine, const Shares& a,
                                         const Shares& b, const MaskBatch& masks) {
  RETURN_IF_ERROR(CheckSizes(a, b, "LessThanFullRange"));
  RETURN_IF_ERROR(CheckMasks(masks, FullRangeMaskSpec(a.size()), "LessThanFullRange"));
  // x = 2(a - b) mod p is even iff a >= b. With c = x + r mod p opened,
  // LSB(x) = c_0 xor r_0 xor [c < r] (adding the odd p flips the parity).
  const Shares x = (a - b) * FieldElement::FromUint64(2);
  ASSIGN_OR_RETURN(FieldVector opened, OpenMasked(engine, x, masks, kFullRangeBits));
  std::vector<uint128> c(a.size());
  for (size_t e = 0; e < a.size(); ++e) c[e] = opened[e].value();
  ASSIGN_OR_RETURN(Shares wrapped, BitLessThan(engine, c, masks.bits, kFullRangeBits));
  Shares parity(a.size());
  for (size_t e = 0; e < a.size(); ++e) {
    const FieldElement r0 = masks.bit(e, 0);
    parity[e] = (c[e] & 1) ? FieldElement::One() - r0 : r0;
  }
  // parity xor wrapped = parity + wrapped - 2 parity wrapped.
  ASSIGN_OR_RETURN(Shares both, engine.Mul(parity, wrapped));
  return parity + wrapped - both * FieldElement::FromUint64(2);
}

absl::StatusOr<Shares> LessThanFullRange(MpcEngine& engine, const Shares& a,
                                         const Shares& b) {
  RETURN_IF_ERROR(CheckSizes(a, b, "LessThanFullRange"));
  ASSIGN_OR_RETURN(std::vector<MaskBatch> masks,
                   engine.GenerateMasks({FullRangeMaskSpec(a.size())}));
  return LessThanFullRange(engine, a, b, masks[0]);
}

}  // namespace pplda::crypto
