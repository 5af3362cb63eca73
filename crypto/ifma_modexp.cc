#include "crypto/ifma_modexp.h"

#include <sodium.h>

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "crypto/big_int.h"
#include "crypto/cpu_features.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pplda::crypto {
namespace {

constexpr int kLimbBits = 52;
constexpr uint64_t kLimbMask = (uint64_t{1} << kLimbBits) - 1;
constexpr int kNailBits = 64 - kLimbBits;
constexpr int kSupportedLimbs[] = {40, 60, 80, 120};
constexpr int kMaxWindowBits = 5;

// Smallest supported L with 52 L >= bits + 2 (R >= 4 m), or 0.
int LimbsFor(size_t bits) {
  for (int limbs : kSupportedLimbs) {
    if (static_cast<size_t>(kLimbBits) * limbs >= bits + 2) return limbs;
  }
  return 0;
}

// x (0 <= x < 2^(52 limbs)) as `limbs` 52-bit limbs, least significant first.
void ToLimbs52(const mpz_class& x, int limbs, uint64_t* out) {
  std::fill(out, out + limbs, uint64_t{0});
  size_t count = 0;
  mpz_export(out, &count, -1, sizeof(uint64_t), 0, kNailBits, x.get_mpz_t());
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

// Bits of up to eight exponents, 64-bit words least significant first, one
// row of `words` words per lane; wiped on destruction.
class LaneExponents {
 public:
  LaneExponents(const mpz_class* const* exponents, size_t count) {
    for (size_t k = 0; k < count; ++k) max_bits_ = std::max(max_bits_, BitLength(*exponents[k]));
    words_ = max_bits_ / 64 + 2;
    bits_.assign(words_ * kIfmaLanes, 0);
    for (size_t k = 0; k < count; ++k) {
      size_t n = 0;
      mpz_export(bits_.data() + k * words_, &n, -1, sizeof(uint64_t), 0, 0,
                 exponents[k]->get_mpz_t());
    }
  }
  LaneExponents(const LaneExponents&) = delete;
  LaneExponents& operator=(const LaneExponents&) = delete;
  ~LaneExponents() { sodium_memzero(bits_.data(), bits_.size() * sizeof(uint64_t)); }

  size_t max_bits() const { return max_bits_; }
  // Bits [pos, pos + w) of lane k's exponent (w <= 8).
  uint64_t Window(size_t k, size_t pos, int w) const {
    const uint64_t* row = bits_.data() + k * words_;
    const size_t word = pos / 64, shift = pos % 64;
    uint64_t v = row[word] >> shift;
    if (shift + w > 64) v |= row[word + 1] << (64 - shift);
    return v & ((uint64_t{1} << w) - 1);
  }

 private:
  size_t max_bits_ = 0;
  size_t words_ = 0;
  std::vector<uint64_t> bits_;
};

// Per-thread scratch of the kernel, grown on demand.
std::vector<IfmaLimbLanes>& Scratch(size_t positions) {
  thread_local std::vector<IfmaLimbLanes> scratch;
  if (scratch.size() < positions) scratch.resize(positions);
  return scratch;
}

#if defined(__x86_64__)

#define PPLDA_IFMA __attribute__((target("avx512f,avx512ifma")))
#define PPLDA_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

using V = __m512i;
constexpr int kRows = 4;  // rows (limbs of one operand, or u_i) per sweep

PPLDA_IFMA_INLINE V Lo(V acc, V a, V b) { return _mm512_madd52lo_epu64(acc, a, b); }
PPLDA_IFMA_INLINE V Hi(V acc, V a, V b) { return _mm512_madd52hi_epu64(acc, a, b); }
// x >> 52 and x << 1 per lane (the zero-masked forms avoid GCC 12's
// spurious -Wuninitialized on _mm512_srli_epi64 / _mm512_slli_epi64).
PPLDA_IFMA_INLINE V Carry(V x) { return _mm512_maskz_srli_epi64(0xFF, x, kLimbBits); }
PPLDA_IFMA_INLINE V Double(V x) { return _mm512_maskz_slli_epi64(0xFF, x, 1); }

// Column q of a sweep: t[q] += lo(rows[r] partner[q - r]) + hi(rows[r]
// partner[q - r - 1]) over r < kRows, for partner indices j in
// [j_begin[r], L) only.
template <int L>
PPLDA_IFMA_INLINE V ColumnChecked(V acc, const V* rows, int q, const V* partner,
                                  const int* j_begin) {
#pragma GCC unroll 4
  for (int r = 0; r < kRows; ++r) {
    const int j = q - r;
    if (j >= j_begin[r] && j < L) acc = Lo(acc, rows[r], partner[j]);
    if (j - 1 >= j_begin[r] && j - 1 < L) acc = Hi(acc, rows[r], partner[j - 1]);
  }
  return acc;
}

// Columns [q, q_end] where every index is valid: 8 multiply-adds per column
// in two chains. The partner limbs p[q - 4 .. q] live in a sliding window of
// registers, so each column loads one new limb (the loop is bound by the
// multiply-adds, not by loads).
PPLDA_IFMA_INLINE void ColumnsFull(V* t, const V* rows, const V* partner, int q, int q_end) {
  if (q > q_end) return;
  const V zero = _mm512_setzero_si512();
  V p1 = partner[q - 1], p2 = partner[q - 2], p3 = partner[q - 3], p4 = partner[q - 4];
  for (; q <= q_end; ++q) {
    const V p0 = partner[q];
    V lo = Lo(t[q], rows[0], p0);
    V hi = Hi(zero, rows[0], p1);
    lo = Lo(lo, rows[1], p1);
    hi = Hi(hi, rows[1], p2);
    lo = Lo(lo, rows[2], p2);
    hi = Hi(hi, rows[2], p3);
    lo = Lo(lo, rows[3], p3);
    hi = Hi(hi, rows[3], p4);
    t[q] = _mm512_add_epi64(lo, hi);
    p4 = p3;
    p3 = p2;
    p2 = p1;
    p1 = p0;
  }
}

// t[q] for q in [q_begin, q_end]: adds the products of kRows row values with
// the partner limbs (see ColumnChecked). t points at the block's first row.
template <int L>
PPLDA_IFMA_INLINE void Sweep(V* t, const V* row_src, const V* partner, const int* j_begin,
                             int q_begin, int q_end) {
  const V rows[kRows] = {row_src[0], row_src[1], row_src[2], row_src[3]};
  int full_begin = 0;
  for (int r = 0; r < kRows; ++r) full_begin = std::max(full_begin, j_begin[r] + r + 1);
  const int full_end = std::min(q_end, L - 1);
  int q = q_begin;
  for (; q <= q_end && q < full_begin; ++q) {
    t[q] = ColumnChecked<L>(t[q], rows, q, partner, j_begin);
  }
  ColumnsFull(t, rows, partner, q, full_end);
  q = std::max(q, full_end + 1);
  for (; q <= q_end; ++q) t[q] = ColumnChecked<L>(t[q], rows, q, partner, j_begin);
}

// t[0, 2L) = a b, column sums of 52-bit halves, not normalised.
template <int L>
PPLDA_IFMA void MulProduct(V* t, const V* a, const V* b) {
  for (int p = 0; p < 2 * L; ++p) t[p] = _mm512_setzero_si512();
  static constexpr int kAll[kRows] = {0, 0, 0, 0};
  for (int i = 0; i < L; i += kRows) Sweep<L>(t + i, a + i, b, kAll, 0, L + kRows - 1);
}

// t[0, 2L) = a^2: cross products once, doubled, plus the diagonal.
template <int L>
PPLDA_IFMA void SqrProduct(V* t, const V* a) {
  for (int p = 0; p < 2 * L; ++p) t[p] = _mm512_setzero_si512();
  for (int i = 0; i < L; i += kRows) {
    const int above[kRows] = {i + 1, i + 2, i + 3, i + 4};  // partners j > row
    Sweep<L>(t + i, a + i, a, above, i + 1, L + kRows - 1);
  }
  for (int k = 0; k < L; ++k) {
    t[2 * k] = Lo(Double(t[2 * k]), a[k], a[k]);
    t[2 * k + 1] = Hi(Double(t[2 * k + 1]), a[k], a[k]);
  }
}

// The first kRows limbs of a reduction block at t: u_r = x_r k0 mod 2^52 in
// turn, each u_r's products with m_0.. added to the block's later positions
// at once (short dependency chain from u_r to u_{r+1}), and the carry of the
// block's last position into t[kRows].
PPLDA_IFMA_INLINE void Triangle(V* t, const V* m, V k0, V* u) {
  const V zero = _mm512_setzero_si512();
  V x[kRows] = {t[0], t[1], t[2], t[3]};
#pragma GCC unroll 4
  for (int r = 0; r < kRows; ++r) {
    u[r] = Lo(zero, x[r], k0);
    // x_r + lo(u_r m_0) = 0 mod 2^52: only its carry remains.
    const V carry = Carry(Lo(x[r], u[r], m[0]));
#pragma GCC unroll 4
    for (int p = r + 2; p < kRows; ++p) {
      x[p] = Hi(Lo(x[p], u[r], m[p - r]), u[r], m[p - r - 1]);
    }
    if (r + 1 < kRows) {
      const V next = _mm512_add_epi64(Lo(x[r + 1], u[r], m[1]), Hi(zero, u[r], m[0]));
      x[r + 1] = _mm512_add_epi64(next, carry);
    } else {
      t[kRows] = _mm512_add_epi64(t[kRows], carry);
    }
  }
}

// out = (t + U m) / R for t < 2^(104 L) in column form (Montgomery
// reduction, one u_i per limb); out normalised to 52-bit limbs. The next
// block's triangle is computed between the first kRows columns of this
// block's sweep (which complete its inputs) and the rest, so that its
// latency overlaps independent multiply-adds.
template <int L>
PPLDA_IFMA void Reduce(V* t, const V* m, V k0, V* out) {
  static constexpr int kAll[kRows] = {0, 0, 0, 0};
  V u[kRows], next[kRows];
  Triangle(t, m, k0, u);
  for (int i = 0; i < L; i += kRows) {
    Sweep<L>(t + i, u, m, kAll, kRows, 2 * kRows - 1);
    if (i + kRows < L) Triangle(t + i + kRows, m, k0, next);
    Sweep<L>(t + i, u, m, kAll, 2 * kRows, L + kRows - 1);
#pragma GCC unroll 4
    for (int r = 0; r < kRows; ++r) u[r] = next[r];
  }
  const V mask = _mm512_set1_epi64(static_cast<long long>(kLimbMask));
  V carry = _mm512_setzero_si512();
  for (int j = 0; j < L; ++j) {
    const V x = _mm512_add_epi64(t[L + j], carry);
    out[j] = _mm512_and_si512(x, mask);
    carry = Carry(x);
  }
}

// Montgomery arithmetic over one context, with scratch columns t[2L].
template <int L>
struct Amm {
  const V* m;
  V k0;
  V* t;

  PPLDA_IFMA void Mul(const V* a, const V* b, V* out) const {
    MulProduct<L>(t, a, b);
    Reduce<L>(t, m, k0, out);
  }
  PPLDA_IFMA void Sqr(const V* a, V* out) const {
    SqrProduct<L>(t, a);
    Reduce<L>(t, m, k0, out);
  }
  // out = a R^-1 mod m, in [0, m] (a < 2m).
  PPLDA_IFMA void FromMontgomery(const V* a, V* out) const {
    for (int j = 0; j < L; ++j) t[j] = a[j];
    for (int j = L; j < 2 * L; ++j) t[j] = _mm512_setzero_si512();
    Reduce<L>(t, m, k0, out);
  }
};

// A full 64-byte load the compiler cannot fold into a masked load (a masked
// load may skip the memory access for masked-off lanes, so the cache lines
// touched would depend on the selected entry).
PPLDA_IFMA_INLINE V LoadWhole(const V* p) {
  V v = *p;
  __asm__("" : "+v"(v));
  return v;
}

// out = table[idx_k] in lane k, reading every entry in full and selecting
// in registers (constant time in idx).
template <int L>
PPLDA_IFMA void Select(const V* table, int entries, V idx, V* out) {
  for (int jb = 0; jb < L; jb += 4) {
    V o0 = _mm512_setzero_si512(), o1 = o0, o2 = o0, o3 = o0;
    for (int k = 0; k < entries; ++k) {
      const __mmask8 hit = _mm512_cmpeq_epi64_mask(idx, _mm512_set1_epi64(k));
      const V* e = table + static_cast<size_t>(k) * L + jb;
      o0 = _mm512_mask_blend_epi64(hit, o0, LoadWhole(e + 0));
      o1 = _mm512_mask_blend_epi64(hit, o1, LoadWhole(e + 1));
      o2 = _mm512_mask_blend_epi64(hit, o2, LoadWhole(e + 2));
      o3 = _mm512_mask_blend_epi64(hit, o3, LoadWhole(e + 3));
    }
    out[jb] = o0;
    out[jb + 1] = o1;
    out[jb + 2] = o2;
    out[jb + 3] = o3;
  }
}

PPLDA_IFMA V WindowVector(const LaneExponents& e, size_t pos, int w) {
  alignas(64) uint64_t idx[kIfmaLanes];
  for (size_t k = 0; k < kIfmaLanes; ++k) idx[k] = e.Window(k, pos, w);
  const V v = _mm512_load_si512(idx);
  sodium_memzero(idx, sizeof(idx));
  return v;
}

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
    Select<L>(table, entries, WindowVector(e, pos, w), acc);
    while (pos > 0) {
      pos -= w;
      for (int s = 0; s < w; ++s) amm.Sqr(acc, acc);
      Select<L>(table, entries, WindowVector(e, pos, w), sel);
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
