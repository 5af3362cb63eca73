#include "crypto/ifma/ifma_modexp.h"

#include <sodium.h>

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "crypto/arith/big_int.h"
#include "crypto/arith/cpu_features.h"
#include "crypto/ifma/ifma_kernel.h"

namespace pplda::crypto {
namespace {

using ifma_kernel::kLimbBits;
using ifma_kernel::kLimbMask;
using ifma_kernel::kNailBits;
using ifma_kernel::LaneExponents;
using ifma_kernel::ToLimbs52;
constexpr int kSupportedLimbs[] = {40, 60, 80, 120};
constexpr int kMaxWindowBits = 5;

// Smallest supported L with 52 L >= bits + 2 (R >= 4 m), or 0.
int LimbsFor(size_t bits) {
  for (int limbs : kSupportedLimbs) {
    if (static_cast<size_t>(kLimbBits) * limbs >= bits + 2) return limbs;
  }
  return 0;
}

std::vector<IfmaLimbLanes> Broadcast(const mpz_class& x, int limbs) {
  std::vector<uint64_t> flat(limbs);
  ToLimbs52(x, limbs, flat.data());
  std::vector<IfmaLimbLanes> out(limbs);
  for (int j = 0; j < limbs; ++j) std::fill(out[j].lane, out[j].lane + kIfmaLanes, flat[j]);
  return out;
}

// -m^-1 mod 2^52 for odd m (Newton iteration, each step doubles the bits).
uint64_t MontgomeryK0(const mpz_class& m) {
  const uint64_t m0 = mpz_getlimbn(m.get_mpz_t(), 0);
  uint64_t inv = m0;  // correct to 3 bits for odd m0
  for (int i = 0; i < 5; ++i) inv *= 2 - m0 * inv;
  return (~inv + 1) & kLimbMask;
}

// Per-thread scratch of the kernel, grown on demand.
std::vector<IfmaLimbLanes>& Scratch(size_t positions) {
  thread_local std::vector<IfmaLimbLanes> scratch;
  if (scratch.size() < positions) scratch.resize(positions);
  return scratch;
}

#if defined(__x86_64__)

using ifma_kernel::Amm;
using ifma_kernel::V;
using ifma_kernel::WindowVector;

// out = base^e (lane-wise), all values as L transposed limb positions;
// base < m, out in [0, m].
template <int L>
PPLDA_IFMA void ModExp8(const IfmaMontgomeryContext& ctx, const V* base,
                        const LaneExponents& e, V* out) {
  const int w = IfmaWindowBits(e.max_bits());
  const int entries = 1 << w;
  std::vector<IfmaLimbLanes>& scratch = Scratch(static_cast<size_t>(entries + 4) * L);
  V* table = reinterpret_cast<V*>(scratch.data());
  V* t = table + static_cast<size_t>(entries) * L;  // 2L columns
  V* acc = t + 2 * L;
  V* sel = acc + L;
  const Amm<L> amm{reinterpret_cast<const V*>(ctx.modulus_limbs().data()),
                   _mm512_set1_epi64(static_cast<long long>(ctx.k0())), t};
  const V* one = reinterpret_cast<const V*>(ctx.one().data());
  std::copy(one, one + L, table);
  amm.Mul(base, reinterpret_cast<const V*>(ctx.r_squared().data()), table + L);
  for (int k = 2; k < entries; ++k) {
    V* entry = table + static_cast<size_t>(k) * L;
    if (k % 2 == 0) {
      amm.Sqr(table + static_cast<size_t>(k / 2) * L, entry);
    } else {
      amm.Mul(entry - L, table + L, entry);
    }
  }
  if (e.max_bits() == 0) {
    std::copy(one, one + L, acc);
  } else {
    const size_t windows = (e.max_bits() + w - 1) / w;
    size_t pos = (windows - 1) * w;
    ifma_kernel::SelectEntry<L>(table, entries, WindowVector(e, pos, w), acc);
    while (pos > 0) {
      pos -= w;
      for (int s = 0; s < w; ++s) amm.Sqr(acc, acc);
      ifma_kernel::SelectEntry<L>(table, entries, WindowVector(e, pos, w), sel);
      amm.Mul(acc, sel, acc);
    }
  }
  amm.FromMontgomery(acc, out);
  // The last selected entry would tell the exponent's lowest window, and the
  // columns and accumulator hold powers by exponent prefixes: wipe them (the
  // table holds only powers 0..2^w - 1 of the public bases).
  sodium_memzero(t, sizeof(V) * 4 * L);  // t (2L), acc (L), sel (L)
}

PPLDA_IFMA void RunModExp8(const IfmaMontgomeryContext& ctx, const IfmaLimbLanes* base,
                           const LaneExponents& e, IfmaLimbLanes* out) {
  const V* b = reinterpret_cast<const V*>(base);
  V* o = reinterpret_cast<V*>(out);
  switch (ctx.limbs()) {
    case 40:
      ModExp8<40>(ctx, b, e, o);
      break;
    case 60:
      ModExp8<60>(ctx, b, e, o);
      break;
    case 80:
      ModExp8<80>(ctx, b, e, o);
      break;
    default:
      ModExp8<120>(ctx, b, e, o);
      break;
  }
}

#else  // not x86-64: never called (CpuHasAvx512Ifma() is false).

void RunModExp8(const IfmaMontgomeryContext&, const IfmaLimbLanes*, const LaneExponents&,
                IfmaLimbLanes*) {}

#endif

// Shared implementation: exponents[k] for lane k (count lanes, 1..8).
absl::Status ModExpLanes(const IfmaMontgomeryContext& ctx, absl::Span<const mpz_class> bases,
                         const mpz_class* const* exponents, absl::Span<mpz_class> out) {
  if (!CpuHasAvx512Ifma()) {
    return absl::FailedPreconditionError(
        "IFMA exponentiation: this CPU (or OS) does not support AVX-512F and AVX-512 IFMA; "
        "use the portable path (BatchModExp)");
  }
  const size_t count = bases.size();
  for (size_t k = 0; k < count; ++k) {
    if (*exponents[k] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("IFMA exponentiation: exponent of lane ", k, " is negative"));
    }
  }
  const int limbs = ctx.limbs();
  std::vector<IfmaLimbLanes> base(limbs), result(limbs);
  std::vector<uint64_t> flat(limbs);
  mpz_class reduced;
  for (size_t k = 0; k < kIfmaLanes; ++k) {
    if (k < count) {
      mpz_mod(reduced.get_mpz_t(), bases[k].get_mpz_t(), ctx.modulus().get_mpz_t());
      ToLimbs52(reduced, limbs, flat.data());
    } else {
      std::fill(flat.begin(), flat.end(), uint64_t{0});
    }
    for (int j = 0; j < limbs; ++j) base[j].lane[k] = flat[j];
  }
  const mpz_class zero;
  const mpz_class* lane_exponents[kIfmaLanes];
  for (size_t k = 0; k < kIfmaLanes; ++k) lane_exponents[k] = k < count ? exponents[k] : &zero;
  {
    const LaneExponents e(lane_exponents, kIfmaLanes);
    RunModExp8(ctx, base.data(), e, result.data());
  }
  for (size_t k = 0; k < count; ++k) {
    for (int j = 0; j < limbs; ++j) flat[j] = result[j].lane[k];
    mpz_import(out[k].get_mpz_t(), limbs, -1, sizeof(uint64_t), 0, kNailBits, flat.data());
    if (out[k] >= ctx.modulus()) out[k] -= ctx.modulus();
  }
  return absl::OkStatus();
}

absl::Status CheckLaneCount(size_t bases, size_t out) {
  if (bases == 0 || bases > kIfmaLanes) {
    return absl::InvalidArgumentError(
        absl::StrCat("IFMA exponentiation: ", bases, " bases given, expected 1 to 8"));
  }
  if (out != bases) {
    return absl::InvalidArgumentError(absl::StrCat("IFMA exponentiation: ", bases,
                                                   " bases but ", out, " outputs"));
  }
  return absl::OkStatus();
}

}  // namespace

bool IfmaMontgomeryContext::SupportsModulus(const mpz_class& modulus) {
  if (modulus <= 0 || mpz_even_p(modulus.get_mpz_t())) return false;
  const size_t bits = BitLength(modulus);
  return bits >= kIfmaMinModulusBits && bits <= kIfmaMaxModulusBits;
}

absl::StatusOr<IfmaMontgomeryContext> IfmaMontgomeryContext::Create(const mpz_class& modulus) {
  if (!SupportsModulus(modulus)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "IFMA Montgomery context: modulus of ", BitLength(modulus), " bits",
        modulus > 0 && mpz_even_p(modulus.get_mpz_t()) ? " is even" : "",
        "; the kernel needs an odd modulus of ", kIfmaMinModulusBits, " to ",
        kIfmaMaxModulusBits, " bits"));
  }
  IfmaMontgomeryContext ctx;
  ctx.modulus_ = modulus;
  ctx.limbs_ = LimbsFor(BitLength(modulus));
  ctx.k0_ = MontgomeryK0(modulus);
  ctx.modulus_limbs_ = Broadcast(modulus, ctx.limbs_);
  mpz_class r = mpz_class(1) << (kLimbBits * ctx.limbs_);
  r %= modulus;
  ctx.one_ = Broadcast(r, ctx.limbs_);
  ctx.r_squared_ = Broadcast(r * r % modulus, ctx.limbs_);
  return ctx;
}

int IfmaWindowBits(size_t bits) {
  // Minimises table multiplications (2^w - 2) plus one multiplication per
  // window; squarings do not depend on w.
  int best = 1;
  size_t best_cost = bits + 1;
  for (int w = 1; w <= kMaxWindowBits; ++w) {
    const size_t cost = ((size_t{1} << w) - 2) + (bits + w - 1) / w;
    if (cost < best_cost) {
      best = w;
      best_cost = cost;
    }
  }
  return best;
}

absl::Status IfmaModExp(const IfmaMontgomeryContext& ctx, absl::Span<const mpz_class> bases,
                        const mpz_class& exponent, absl::Span<mpz_class> out) {
  if (absl::Status s = CheckLaneCount(bases.size(), out.size()); !s.ok()) return s;
  const mpz_class* exponents[kIfmaLanes];
  for (size_t k = 0; k < bases.size(); ++k) exponents[k] = &exponent;
  return ModExpLanes(ctx, bases, exponents, out);
}

absl::Status IfmaModExpPerLane(const IfmaMontgomeryContext& ctx,
                               absl::Span<const mpz_class> bases,
                               absl::Span<const mpz_class> exponents,
                               absl::Span<mpz_class> out) {
  if (absl::Status s = CheckLaneCount(bases.size(), out.size()); !s.ok()) return s;
  if (exponents.size() != bases.size()) {
    return absl::InvalidArgumentError(absl::StrCat("IFMA exponentiation: ", bases.size(),
                                                   " bases but ", exponents.size(),
                                                   " exponents"));
  }
  const mpz_class* lane_exponents[kIfmaLanes];
  for (size_t k = 0; k < bases.size(); ++k) lane_exponents[k] = &exponents[k];
  return ModExpLanes(ctx, bases, lane_exponents, out);
}

}  // namespace pplda::crypto
