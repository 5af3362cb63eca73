#include "crypto/mpc/mpc_truncation.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "crypto/mpc/comparison.h"

namespace pplda::crypto {
namespace {

absl::Status CheckRange(const MpcConfig& config, int k, int m, std::string_view op) {
  if (m < 1 || m > k || k > config.max_masked_bits()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(op), ": need 1 <= m <= k <= ", config.max_masked_bits(),
        ", got k = ", k, ", m = ", m));
  }
  return absl::OkStatus();
}

absl::Status CheckSignedRange(const MpcConfig& config, int k, int m, std::string_view op) {
  if (m < 1 || m >= k || k > config.max_masked_bits()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(op), ": need 1 <= m < k <= ", config.max_masked_bits(),
        ", got k = ", k, ", m = ", m));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shares> Trunc(MpcEngine& engine, const Shares& x, int k, int m) {
  RETURN_IF_ERROR(CheckRange(engine.config(), k, m, "Trunc"));
  ASSIGN_OR_RETURN(Shares low, Mod2m(engine, x, k, m));
  return (x - low) * FieldElement::PowerOfTwo(-m);
}

absl::StatusOr<Shares> TruncSigned(MpcEngine& engine, const Shares& x, int k, int m) {
  RETURN_IF_ERROR(CheckSignedRange(engine.config(), k, m, "TruncSigned"));
  // floor((x + 2^(k-1)) / 2^m) - 2^(k-1-m) = floor(x / 2^m) for m < k.
  const Shares shifted = AddConstant(x, FieldElement::PowerOfTwo(k - 1));
  ASSIGN_OR_RETURN(Shares t, Trunc(engine, shifted, k, m));
  return AddConstant(std::move(t), -FieldElement::PowerOfTwo(k - 1 - m));
}

MaskSpec TruncPrMaskSpec(const MpcConfig& config, size_t count, int k, int m) {
  return MaskSpec{count, m, k - m + config.sigma() + 1, false};
}

absl::StatusOr<Shares> TruncPr(MpcEngine& engine, const Shares& x, int k, int m,
                               const MaskBatch& masks) {
  RETURN_IF_ERROR(CheckRange(engine.config(), k, m, "TruncPr"));
  RETURN_IF_ERROR(
      CheckMasks(masks, TruncPrMaskSpec(engine.config(), x.size(), k, m), "TruncPr"));
  Shares masked = x + masks.low + masks.high * FieldElement::PowerOfTwo(m);
  ASSIGN_OR_RETURN(FieldVector opened, engine.Open(masked));
  // (x - (c mod 2^m) + r_low) / 2^m.
  Shares out = x + masks.low;
  const uint128 low_mask = (uint128{1} << m) - 1;
  for (size_t e = 0; e < x.size(); ++e) {
    out[e] -= FieldElement::FromUint128(opened[e].value() & low_mask);
  }
  return out * FieldElement::PowerOfTwo(-m);
}

absl::StatusOr<Shares> TruncPr(MpcEngine& engine, const Shares& x, int k, int m) {
  RETURN_IF_ERROR(CheckRange(engine.config(), k, m, "TruncPr"));
  ASSIGN_OR_RETURN(std::vector<MaskBatch> masks,
                   engine.GenerateMasks({TruncPrMaskSpec(engine.config(), x.size(), k, m)}));
  return TruncPr(engine, x, k, m, masks[0]);
}

absl::StatusOr<Shares> TruncPrSigned(MpcEngine& engine, const Shares& x, int k, int m) {
  RETURN_IF_ERROR(CheckSignedRange(engine.config(), k, m, "TruncPrSigned"));
  const Shares shifted = AddConstant(x, FieldElement::PowerOfTwo(k - 1));
  ASSIGN_OR_RETURN(Shares t, TruncPr(engine, shifted, k, m));
  return AddConstant(std::move(t), -FieldElement::PowerOfTwo(k - 1 - m));
}

}  // namespace pplda::crypto
