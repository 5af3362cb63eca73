#include "crypto/ifma/ifma_fixed_base.h"

#include <sodium.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/cpu_features.h"
#include "crypto/ifma/ifma_kernel.h"

namespace pplda::crypto {
namespace {

using ifma_kernel::FromLimbs52;
using ifma_kernel::kLimbBits;
using ifma_kernel::LaneExponents;
using ifma_kernel::ToLimbs52;

constexpr size_t kMaxExponentBits = size_t{1} << 16;
constexpr int kMaxWindowBits = 8;

#if defined(__x86_64__)

using ifma_kernel::Amm;
using ifma_kernel::SelectEntry;
using ifma_kernel::V;
using ifma_kernel::WindowVector;

// out = prod_j T[j][e_j] R^-(J-1), then out of Montgomery form: g^e per
// lane, in [0, m].
template <int L>
PPLDA_IFMA void FixedBasePow8(const IfmaMontgomeryContext& ctx, const uint64_t* table,
                              size_t windows, int w, const LaneExponents& e, V* out) {
  std::vector<IfmaLimbLanes> scratch(static_cast<size_t>(4) * L);
  V* t = reinterpret_cast<V*>(scratch.data());  // 2L columns
  V* acc = t + 2 * L;
  V* sel = acc + L;
  const Amm<L> amm{reinterpret_cast<const V*>(ctx.modulus_limbs().data()),
                   _mm512_set1_epi64(static_cast<long long>(ctx.k0())), t};
  const int entries = 1 << w;
  const size_t row_stride = static_cast<size_t>(entries) * L;
  SelectEntry<L>(table, entries, WindowVector(e, 0, w), acc);
  for (size_t j = 1; j < windows; ++j) {
    SelectEntry<L>(table + j * row_stride, entries, WindowVector(e, j * w, w), sel);
    amm.Mul(acc, sel, acc);
  }
  amm.FromMontgomery(acc, out);
  sodium_memzero(scratch.data(), scratch.size() * sizeof(IfmaLimbLanes));
}

PPLDA_IFMA void RunFixedBasePow8(const IfmaMontgomeryContext& ctx, const uint64_t* table,
                                 size_t windows, int w, const LaneExponents& e,
                                 IfmaLimbLanes* out) {
  V* o = reinterpret_cast<V*>(out);
  switch (ctx.limbs()) {
    case 40:
      FixedBasePow8<40>(ctx, table, windows, w, e, o);
      break;
    case 60:
      FixedBasePow8<60>(ctx, table, windows, w, e, o);
      break;
    case 80:
      FixedBasePow8<80>(ctx, table, windows, w, e, o);
      break;
    default:
      FixedBasePow8<120>(ctx, table, windows, w, e, o);
      break;
  }
}

#else  // not x86-64: never called (Create fails without IFMA).

void RunFixedBasePow8(const IfmaMontgomeryContext&, const uint64_t*, size_t, int,
                      const LaneExponents&, IfmaLimbLanes*) {}

#endif

}  // namespace

IfmaFixedBaseTable::IfmaFixedBaseTable(IfmaMontgomeryContext ctx, size_t exponent_bits,
                                       int window_bits)
    : ctx_(std::move(ctx)),
      exponent_bits_(exponent_bits),
      window_bits_(window_bits),
      windows_((exponent_bits + window_bits - 1) / window_bits) {}

absl::StatusOr<IfmaFixedBaseTable> IfmaFixedBaseTable::Create(const mpz_class& base,
                                                              const mpz_class& modulus,
                                                              size_t exponent_bits,
                                                              int window_bits) {
  if (!CpuHasAvx512Ifma()) {
    return absl::FailedPreconditionError(
        "IFMA fixed-base table: this CPU (or OS) does not support AVX-512F and AVX-512 IFMA; "
        "use FixedBaseTable");
  }
  if (exponent_bits < 1 || exponent_bits > kMaxExponentBits) {
    return absl::InvalidArgumentError(absl::StrCat("IFMA fixed-base table: exponent_bits = ",
                                                   exponent_bits, " is outside [1, 65536]"));
  }
  if (window_bits < 1 || window_bits > kMaxWindowBits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "IFMA fixed-base table: window_bits = ", window_bits, " is outside [1, 8]"));
  }
  absl::StatusOr<IfmaMontgomeryContext> ctx = IfmaMontgomeryContext::Create(modulus);
  if (!ctx.ok()) return ctx.status();
  if (base <= 0 || base >= modulus) {
    return absl::InvalidArgumentError("IFMA fixed-base table: base must be in (0, modulus)");
  }
  IfmaFixedBaseTable t(*std::move(ctx), exponent_bits, window_bits);
  const int limbs = t.ctx_.limbs();
  const size_t entries = size_t{1} << window_bits;
  t.table_.assign(t.windows_ * entries * static_cast<size_t>(limbs), 0);
  const size_t shift = static_cast<size_t>(kLimbBits) * static_cast<size_t>(limbs);
  mpz_class row_base = base;  // g^(2^(w j))
  mpz_class power, montgomery;
  for (size_t j = 0; j < t.windows_; ++j) {
    power = 1;
    for (size_t d = 0; d < entries; ++d) {
      montgomery = power << shift;
      montgomery %= modulus;
      ToLimbs52(montgomery, limbs, t.table_.data() + (j * entries + d) * limbs);
      power = power * row_base % modulus;
    }
    row_base = power;  // g^(2^w 2^(w j))
  }
  return t;
}

absl::Status IfmaFixedBaseTable::Pow(absl::Span<const mpz_class> exponents,
                                     absl::Span<mpz_class> out) const {
  if (exponents.empty() || exponents.size() > kIfmaLanes) {
    return absl::InvalidArgumentError(absl::StrCat("IFMA fixed-base table: ", exponents.size(),
                                                   " exponents given, expected 1 to 8"));
  }
  if (out.size() != exponents.size()) {
    return absl::InvalidArgumentError(absl::StrCat("IFMA fixed-base table: ", exponents.size(),
                                                   " exponents but ", out.size(), " outputs"));
  }
  for (size_t k = 0; k < exponents.size(); ++k) {
    if (exponents[k] < 0 || BitLength(exponents[k]) > exponent_bits_) {
      return absl::InvalidArgumentError(absl::StrCat("IFMA fixed-base table: exponent ", k,
                                                     " is outside [0, 2^", exponent_bits_, ")"));
    }
  }
  const mpz_class zero;
  const mpz_class* lane_exponents[kIfmaLanes];
  for (size_t k = 0; k < kIfmaLanes; ++k) {
    lane_exponents[k] = k < exponents.size() ? &exponents[k] : &zero;
  }
  const int limbs = ctx_.limbs();
  std::vector<IfmaLimbLanes> result(static_cast<size_t>(limbs));
  {
    const LaneExponents e(lane_exponents, kIfmaLanes, exponent_bits_);
    RunFixedBasePow8(ctx_, table_.data(), windows_, window_bits_, e, result.data());
  }
  std::vector<uint64_t> flat(static_cast<size_t>(limbs));
  for (size_t k = 0; k < exponents.size(); ++k) {
    for (int j = 0; j < limbs; ++j) flat[j] = result[j].lane[k];
    out[k] = FromLimbs52(flat.data(), limbs);
    if (out[k] >= ctx_.modulus()) out[k] -= ctx_.modulus();
  }
  sodium_memzero(flat.data(), flat.size() * sizeof(uint64_t));
  sodium_memzero(result.data(), result.size() * sizeof(IfmaLimbLanes));
  return absl::OkStatus();
}

}  // namespace pplda::crypto
