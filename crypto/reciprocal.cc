#include "crypto/reciprocal.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/comparison.h"
#include "crypto/mpc_truncation.h"

namespace pplda::crypto {
namespace {

constexpr int kMinPrecision = 36;
constexpr int kMaxPrecision = 40;
constexpr int kGoldschmidtSteps = 3;
constexpr int kMinGuardBits = 21;
constexpr int kMaxOutputBits = 120;

// round(2.9142 * 2^P).
FieldElement InitialGuessConstant(int precision) {
  const uint128 scaled = (uint128{29142} << precision) + 5000;
  return FieldElement::FromUint128(scaled / 10000);
}

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

// Shares of [x >= 2^j] for j = 1..k-1 (element-major).
absl::StatusOr<Shares> PowerOfTwoThresholds(MpcEngine& engine, const Shares& x, int k,
                                            const MaskBatch& masks) {
  const size_t per = k - 1;
  Shares repeated(x.size() * per), thresholds(x.size() * per);
  for (size_t e = 0; e < x.size(); ++e) {
    for (int j = 1; j < k; ++j) {
      repeated[e * per + j - 1] = x[e];
      thresholds[e * per + j - 1] = FieldElement::PowerOfTwo(j);
    }
  }
  ASSIGN_OR_RETURN(Shares below, LessThan(engine, repeated, thresholds, k, masks));
  return ConstantMinus(FieldElement::One(), std::move(below));
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

// The masks for `count` inputs, precision P: comparisons, 6 Goldschmidt
// truncations per element, the final rescaling when f < k + P.
std::vector<MaskSpec> MaskSpecs(const MpcConfig& config, size_t count, int k, int f,
                                int precision) {
  std::vector<MaskSpec> specs = {LessThanMaskSpec(config, count * (k - 1), k),
                                 TruncPrMaskSpec(config, 6 * count, 2 * precision + 3, precision)};
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

  Shares v = PublicShares(count, FieldElement::One());
  if (k > 1) {
    ASSIGN_OR_RETURN(Shares at_least, PowerOfTwoThresholds(engine, x, k, masks[0]));
    v = NormalisingPower(at_least, count, k);
  }
  ASSIGN_OR_RETURN(Shares normalised, engine.Mul(x, v));
  const Shares a = normalised * FieldElement::PowerOfTwo(precision - k);
  // y0 = 2.9142 - 2a; e0 = 1 - a y0.
  Shares y = ConstantMinus(InitialGuessConstant(precision),
                           a * FieldElement::FromUint64(2));
  ASSIGN_OR_RETURN(Shares ay, engine.Mul(a, y));
  const MaskBatch& trunc_masks = masks[1];
  ASSIGN_OR_RETURN(ay, TruncPr(engine, ay, product_bits, precision,
                               trunc_masks.Slice(0, count)));
  Shares e = ConstantMinus(FieldElement::PowerOfTwo(precision), std::move(ay));
  size_t used = count;
  for (int step = 0; step < kGoldschmidtSteps; ++step) {
    const bool last = step + 1 == kGoldschmidtSteps;
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
