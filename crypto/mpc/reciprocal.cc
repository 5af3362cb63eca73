#include "crypto/mpc/reciprocal.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/comparison.h"
#include "crypto/mpc/mpc_truncation.h"

namespace pplda::crypto {
namespace {

constexpr int kMinPrecision = 36;
constexpr int kMaxPrecision = 40;
constexpr int kMinGuardBits = 21;
constexpr int kMaxOutputBits = 120;

// y0 = c_h - d_h a on [1/2, 3/4) (h = 0) and [3/4, 1) (h = 1): the minimax
// intercepts for slopes with `fraction_bits` binary digits (the header's
// table); c in units of 10^-9, d in units of 2^-fraction_bits.
struct PiecewiseGuess {
  uint64_t c0_e9, c1_e9;
  int64_t d0, d1;
  int fraction_bits;
};
constexpr PiecewiseGuess kEighthSlopes = {3274144230, 2361262075, 21, 11, 3};
constexpr PiecewiseGuess kHalfSlopes = {3200877125, 2477225575, 5, 3, 1};

// The guess for P - k spare bits (null: Catrina-Saxena's on the whole
// range, and three Goldschmidt steps).
const PiecewiseGuess* GuessFor(int k, int precision) {
  if (precision - k >= kEighthSlopes.fraction_bits) return &kEighthSlopes;
  if (precision - k >= kHalfSlopes.fraction_bits) return &kHalfSlopes;
  return nullptr;
}

int GoldschmidtSteps(int k, int precision) { return GuessFor(k, precision) ? 2 : 3; }

// round(c * 2^P) for c = c_e9 / 10^9.
FieldElement ScaledConstant(uint64_t c_e9, int precision) {
  const uint128 scaled = (uint128{c_e9} << precision) + 500000000;
  return FieldElement::FromUint128(scaled / 1000000000);
}

// round(2.9142 * 2^P).
FieldElement InitialGuessConstant(int precision) { return ScaledConstant(2914200000, precision); }

// v = 2^(k-1) - sum_{j=1}^{k-1} b_j 2^(k-1-j) = 2^(k-1-msb(x)), from the
// shares of b_j = [x >= 2^j] (element-major, k-1 per element).
Shares NormalisingPower(const Shares& at_least, size_t count, int k) {
  Shares v = PublicShares(count, FieldElement::PowerOfTwo(k - 1));
  for (size_t e = 0; e < count; ++e) {
    for (int j = 1; j < k; ++j) {
      v[e] -= at_least[e * (k - 1) + (j - 1)] * FieldElement::PowerOfTwo(k - 1 - j);
    }
  }
  return v;
}

// Shares of b_j = [x >= 2^j] for j = 1..k-1 and, with `quarters`, then
// c_j = [x >= 3 2^(j-1)] for j = 1..k-1 (element-major: k-1 or 2(k-1) per
// element), in one batch of comparisons.
absl::StatusOr<Shares> Thresholds(MpcEngine& engine, const Shares& x, int k, bool quarters,
                                  const MaskBatch& masks) {
  const size_t per = (k - 1) * (quarters ? 2 : 1);
  Shares repeated(x.size() * per), thresholds(x.size() * per);
  for (size_t e = 0; e < x.size(); ++e) {
    for (int j = 1; j < k; ++j) {
      repeated[e * per + j - 1] = x[e];
      thresholds[e * per + j - 1] = FieldElement::PowerOfTwo(j);
      if (!quarters) continue;
      repeated[e * per + (k - 1) + j - 1] = x[e];
      thresholds[e * per + (k - 1) + j - 1] =
          FieldElement::FromUint64(3) * FieldElement::PowerOfTwo(j - 1);
    }
  }
  ASSIGN_OR_RETURN(Shares below, LessThan(engine, repeated, thresholds, k, masks));
  return ConstantMinus(FieldElement::One(), std::move(below));
}

// From b_j and c_j (Thresholds with quarters), for msb(x) = m:
//   h = [x >= 3 2^(m-1)] = sum_j c_j - sum_j b_j + b_1 (a >= 3/4), and
//   w = h v = sum_{m=1}^{k-1} (c_m - b_{m+1}) 2^(k-1-m) (b_k = 0),
// both linear: c_j = 1 for j < m, c_m = h, c_j = 0 for j > m, and
// c_m - b_{m+1} is the indicator of x in [3 2^(m-1), 2^(m+1)).
struct UpperQuarter {
  Shares h, w;
};
UpperQuarter UpperQuarterOf(const Shares& bits, size_t count, int k) {
  const size_t per = 2 * (k - 1);
  UpperQuarter out{PublicShares(count, FieldElement::Zero()),
                   PublicShares(count, FieldElement::Zero())};
  for (size_t e = 0; e < count; ++e) {
    auto b = [&](int j) { return bits[e * per + (j - 1)]; };
    auto c = [&](int j) { return bits[e * per + (k - 1) + (j - 1)]; };
    out.h[e] += b(1);
    for (int j = 1; j < k; ++j) {
      out.h[e] += c(j);
      out.h[e] -= b(j);
      FieldElement indicator = c(j);
      if (j + 1 < k) indicator -= b(j + 1);
      out.w[e] += indicator * FieldElement::PowerOfTwo(k - 1 - j);
    }
  }
  return out;
}

// The b_j of Thresholds with quarters (the first k - 1 of each element's
// 2(k - 1)).
Shares PowerOfTwoBits(const Shares& bits, size_t count, int k) {
  Shares out(count * (k - 1));
  for (size_t e = 0; e < count; ++e) {
    for (int j = 0; j < k - 1; ++j) out[e * (k - 1) + j] = bits[e * 2 * (k - 1) + j];
  }
  return out;
}

Shares Concat(const Shares& a, const Shares& b) {
  Shares out = a;
  out.Append(b);
  return out;
}

}  // namespace

absl::StatusOr<int> ReciprocalPrecision(const MpcConfig& config) {
  const int precision = std::min(kMaxPrecision, (config.max_masked_bits() - 3) / 2);
  if (precision < kMinPrecision) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Reciprocal: working precision would be ", precision, " bits (< ", kMinPrecision,
        ") with sigma = ", config.sigma(), " and t = ", config.threshold(),
        "; lower sigma or the threshold"));
  }
  return precision;
}

namespace {

absl::Status CheckReciprocalRange(int k, int f, int precision) {
  if (k < 1 || k > precision) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Reciprocal: input bit length k = ", k, " is outside [1, ", precision, "]"));
  }
  if (f < k + kMinGuardBits || f > kMaxOutputBits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Reciprocal: output precision f = ", f, " must be in [k + ", kMinGuardBits, " = ",
        k + kMinGuardBits, ", ", kMaxOutputBits, "] for the 2^-20 error bound"));
  }
  return absl::OkStatus();
}

// The masks for `count` inputs, precision P: comparisons (twice as many
// with the piecewise guess), 2 truncations per Goldschmidt step and
// element, the final rescaling when f < k + P.
std::vector<MaskSpec> MaskSpecs(const MpcConfig& config, size_t count, int k, int f,
                                int precision) {
  const size_t comparisons = count * (k - 1) * (GuessFor(k, precision) ? 2 : 1);
  const size_t truncations = 2 * GoldschmidtSteps(k, precision) * count;
  std::vector<MaskSpec> specs = {
      LessThanMaskSpec(config, comparisons, k),
      TruncPrMaskSpec(config, truncations, 2 * precision + 3, precision)};
  if (f < k + precision) {
    specs.push_back(TruncPrMaskSpec(config, count, k + precision + 1, k + precision - f));
  }
  return specs;
}

}  // namespace

absl::StatusOr<std::vector<MaskSpec>> ReciprocalMaskSpecs(const MpcConfig& config, size_t count,
                                                          int k, int f) {
  ASSIGN_OR_RETURN(const int precision, ReciprocalPrecision(config));
  RETURN_IF_ERROR(CheckReciprocalRange(k, f, precision));
  return MaskSpecs(config, count, k, f, precision);
}

absl::StatusOr<Shares> Reciprocal(MpcEngine& engine, const Shares& x, int k, int f) {
  ASSIGN_OR_RETURN(std::vector<MaskSpec> specs,
                   ReciprocalMaskSpecs(engine.config(), x.size(), k, f));
  if (x.empty()) return Shares();
  ASSIGN_OR_RETURN(std::vector<MaskBatch> masks, engine.GenerateMasks(specs));
  return Reciprocal(engine, x, k, f, masks);
}

absl::StatusOr<Shares> Reciprocal(MpcEngine& engine, const Shares& x, int k, int f,
                                  absl::Span<const MaskBatch> masks) {
  ASSIGN_OR_RETURN(const int precision, ReciprocalPrecision(engine.config()));
  RETURN_IF_ERROR(CheckReciprocalRange(k, f, precision));
  const size_t count = x.size();
  if (count == 0) return Shares();
  const std::vector<MaskSpec> want = MaskSpecs(engine.config(), count, k, f, precision);
  if (masks.size() != want.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Reciprocal: ", masks.size(),
                                                   " mask batches, expected ", want.size()));
  }
  for (size_t i = 0; i < want.size(); ++i) RETURN_IF_ERROR(CheckMasks(masks[i], want[i], "Reciprocal"));
  const int product_bits = 2 * precision + 3;
  const bool final_trunc = f < k + precision;

  const PiecewiseGuess* guess = GuessFor(k, precision);
  Shares v = PublicShares(count, FieldElement::One());
  UpperQuarter upper{PublicShares(count, FieldElement::Zero()),
                     PublicShares(count, FieldElement::Zero())};
  if (k > 1) {
    ASSIGN_OR_RETURN(Shares bits, Thresholds(engine, x, k, guess != nullptr, masks[0]));
    if (guess != nullptr) {
      upper = UpperQuarterOf(bits, count, k);
      v = NormalisingPower(PowerOfTwoBits(bits, count, k), count, k);
    } else {
      v = NormalisingPower(bits, count, k);
    }
  }
  // x v and, with the piecewise guess, x w = h x v, in one round.
  ASSIGN_OR_RETURN(Shares products, guess != nullptr ? engine.Mul(Concat(x, x), Concat(v, upper.w))
                                                     : engine.Mul(x, v));
  const Shares xv = products.Slice(0, count);
  const Shares xw = guess != nullptr ? products.Slice(count, count) : Shares();
  const Shares a = xv * FieldElement::PowerOfTwo(precision - k);
  Shares y;
  if (guess != nullptr) {
    // y0 = c0 + (c1 - c0) h - d0 a - (d1 - d0) h a, h a = x w 2^(P-k).
    const FieldElement unit = FieldElement::PowerOfTwo(precision - k - guess->fraction_bits);
    const FieldElement c0 = ScaledConstant(guess->c0_e9, precision);
    const FieldElement c1 = ScaledConstant(guess->c1_e9, precision);
    y = AddConstant(upper.h * (c1 - c0), c0) - xv * (FieldElement::FromInt64(guess->d0) * unit) -
        xw * (FieldElement::FromInt64(guess->d1 - guess->d0) * unit);
  } else {
    // y0 = 2.9142 - 2a.
    y = ConstantMinus(InitialGuessConstant(precision), a * FieldElement::FromUint64(2));
  }
  // e0 = 1 - a y0.
  ASSIGN_OR_RETURN(Shares ay, engine.Mul(a, y));
  const MaskBatch& trunc_masks = masks[1];
  ASSIGN_OR_RETURN(ay, TruncPr(engine, ay, product_bits, precision,
                               trunc_masks.Slice(0, count)));
  Shares e = ConstantMinus(FieldElement::PowerOfTwo(precision), std::move(ay));
  size_t used = count;
  const int steps = GoldschmidtSteps(k, precision);
  for (int step = 0; step < steps; ++step) {
    const bool last = step + 1 == steps;
    // y <- y (1 + e) and, except in the last step, e <- e^2.
    const Shares one_plus_e = AddConstant(e, FieldElement::PowerOfTwo(precision));
    const Shares lhs = last ? y : Concat(y, e);
    const Shares rhs = last ? one_plus_e : Concat(one_plus_e, e);
    ASSIGN_OR_RETURN(Shares products, engine.Mul(lhs, rhs));
    ASSIGN_OR_RETURN(products, TruncPr(engine, products, product_bits, precision,
                                       trunc_masks.Slice(used, products.size())));
    used += products.size();
    y = products.Slice(0, count);
    if (!last) e = products.Slice(count, count);
  }
  // 2^f / x = 2^(f-k) v / a.
  ASSIGN_OR_RETURN(Shares out, engine.Mul(v, y));
  if (!final_trunc) return out * FieldElement::PowerOfTwo(f - k - precision);
  return TruncPr(engine, out, k + precision + 1, k + precision - f, masks[2]);
}

}  // namespace pplda::crypto
