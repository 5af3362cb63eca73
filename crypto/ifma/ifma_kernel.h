// Internal to the AVX-512 IFMA kernels (ifma_modexp.cc, ifma_fixed_base.cc):
// 52-bit limb conversion and almost-Montgomery multiplication over eight
// lane-transposed residues (the arithmetic is documented in ifma_modexp.h).
// Invariants: L is one of 40, 60, 80, 120; operands of Amm are below 2m and
// results stay below 2m; every function with PPLDA_IFMA runs only on a CPU
// with AVX-512F and IFMA (callers check CpuHasAvx512Ifma() first).
// Not part of the crypto library's interface: include it only from the
// kernels' .cc files.
#ifndef PPLDA_CRYPTO_IFMA_IFMA_KERNEL_H_
#define PPLDA_CRYPTO_IFMA_IFMA_KERNEL_H_

#include <gmpxx.h>
#include <sodium.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "crypto/arith/big_int.h"
#include "crypto/ifma/ifma_modexp.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pplda::crypto::ifma_kernel {

constexpr int kLimbBits = 52;
constexpr uint64_t kLimbMask = (uint64_t{1} << kLimbBits) - 1;
constexpr int kNailBits = 64 - kLimbBits;

// x (0 <= x < 2^(52 limbs)) as `limbs` 52-bit limbs, least significant first.
inline void ToLimbs52(const mpz_class& x, int limbs, uint64_t* out) {
  std::fill(out, out + limbs, uint64_t{0});
  size_t count = 0;
  mpz_export(out, &count, -1, sizeof(uint64_t), 0, kNailBits, x.get_mpz_t());
}

// The value of `limbs` 52-bit limbs (least significant first).
inline mpz_class FromLimbs52(const uint64_t* limbs_in, int limbs) {
  mpz_class x;
  mpz_import(x.get_mpz_t(), limbs, -1, sizeof(uint64_t), 0, kNailBits, limbs_in);
  return x;
}

// Bits of up to eight exponents, 64-bit words least significant first, one
// row of `words` words per lane; wiped on destruction.
class LaneExponents {
 public:
  // min_bits: Window() may be asked for bits below max(min_bits, the
  // longest exponent's length).
  LaneExponents(const mpz_class* const* exponents, size_t count, size_t min_bits = 0) {
    size_t longest = 0;
    for (size_t k = 0; k < count; ++k) longest = std::max(longest, BitLength(*exponents[k]));
    max_bits_ = longest;
    words_ = std::max(longest, min_bits) / 64 + 2;
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
PPLDA_IFMA inline void MulProduct(V* t, const V* a, const V* b) {
  for (int p = 0; p < 2 * L; ++p) t[p] = _mm512_setzero_si512();
  static constexpr int kAll[kRows] = {0, 0, 0, 0};
  for (int i = 0; i < L; i += kRows) Sweep<L>(t + i, a + i, b, kAll, 0, L + kRows - 1);
}

// t[0, 2L) = a^2: cross products once, doubled, plus the diagonal.
template <int L>
PPLDA_IFMA inline void SqrProduct(V* t, const V* a) {
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
PPLDA_IFMA inline void Reduce(V* t, const V* m, V k0, V* out) {
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
// A 64-bit load kept as a plain load (not folded into a masked broadcast,
// which may skip the access for masked-off lanes), broadcast to all lanes.
PPLDA_IFMA_INLINE V LoadWhole(const uint64_t* p) {
  uint64_t x = *p;
  __asm__("" : "+r"(x));
  return _mm512_set1_epi64(static_cast<long long>(x));
}

// out = entry idx_k of `table` in lane k (`entries` entries of L limbs:
// lane-transposed vectors, or plain limbs broadcast), reading every entry
// in full and selecting in registers: constant time in idx.
template <int L, typename Limb>
PPLDA_IFMA void SelectEntry(const Limb* table, int entries, V idx, V* out) {
  for (int jb = 0; jb < L; jb += 4) {
    V o0 = _mm512_setzero_si512(), o1 = o0, o2 = o0, o3 = o0;
    for (int d = 0; d < entries; ++d) {
      const __mmask8 hit = _mm512_cmpeq_epi64_mask(idx, _mm512_set1_epi64(d));
      const Limb* e = table + static_cast<size_t>(d) * L + jb;
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
PPLDA_IFMA inline V WindowVector(const LaneExponents& e, size_t pos, int w) {
  alignas(64) uint64_t idx[kIfmaLanes];
  for (size_t k = 0; k < kIfmaLanes; ++k) idx[k] = e.Window(k, pos, w);
  const V v = _mm512_load_si512(idx);
  sodium_memzero(idx, sizeof(idx));
  return v;
}

#endif  // __x86_64__

}  // namespace pplda::crypto::ifma_kernel

#endif  // PPLDA_CRYPTO_IFMA_IFMA_KERNEL_H_
