// Secure comparison on Shamir shares: less-than and equality of shared
// integers, batched (one call compares any number of pairs in the same
// rounds), in O(log l) rounds.
//
// Construction (Catrina and de Hoogh, "Improved primitives for secure
// multiparty integer computation", SCN 2010; statistical masking):
//   Mod2m(x, k, m) = x mod 2^m for 0 <= x < 2^k. Open
//     c = x + r_low + 2^m r_high
//   where r_low = sum_i 2^i r_i has m shared random bits and r_high is the
//   sum of t+1 dealers' values uniform in [0, 2^(k-m+sigma+1)). Then
//     x mod 2^m = (c mod 2^m) - r_low + 2^m [c mod 2^m < r_low],
//   the bracket computed by BitLessThan on the public bits of c mod 2^m and
//   the shared bits r_i. The opened c is within 2^-sigma statistical
//   distance of a value independent of x (c mod 2^m is exactly uniform; the
//   honest dealer's part of r_high hides floor(c / 2^m)).
//   LessThan(a, b, l) = 1 - floor((a - b + 2^l) / 2^l), via Mod2m on l+1
//   bits. Equal(a, b, l) opens a - b + 2^l masked like Mod2m with m = l and
//   tests c mod 2^l == r_low bit by bit.
//   BitLessThan combines (difference-seen, answer) pairs of adjacent bit
//   segments in a binary tree, two multiplications per combination:
//   ceil(log2 m) rounds and about 2m multiplications per comparison.
//
// Full-range variant: LessThanFullRange(a, b) for 0 <= a, b < (p-1)/2
// computes LSB(2(a - b) mod p) (Nishide and Ohta, PKC 2007) with a mask r
// uniform over 127 bits (within 2^-126 of uniform mod p): it has no sigma
// slack, so operands may use 126 bits, at the price of 127 random bits and
// one extra round.
//
// Costs per comparison (n parties, l bits; rounds are for any batch size):
// (masks: MpcConfig::mask_rounds(), 1 pseudo-random or 2 dealt, or 0 when
// precomputed)
//   LessThan:  masks + online 1 + ceil(log2 l)
//              rounds; l random bits; ~2l multiplications.
//   Equal:     masks + online 1 + ceil(log2 l); l bits; l-1 multiplications.
//   FullRange: masks + online 2 + 7; 127 bits; ~253 multiplications.
//
// Input ranges (not checkable on secrets; outside them results are wrong):
//   LessThan / Equal(a, b, l): |a - b| < 2^l, 1 <= l <= max_comparison_bits()
//   (83 for n = 3, t = 1, sigma = 40), e.g. a, b in [0, 2^l) or both signed l-bit.
//   Mod2m(x, k, m): 0 <= x < 2^k, 1 <= m <= k <= max_masked_bits().
// Errors: InvalidArgument for bit lengths out of range, size mismatches and
// masks that do not match the required MaskSpec; engine errors pass through.
// Outputs are shares of 0/1 (or of x mod 2^m).
#ifndef PPLDA_CRYPTO_MPC_COMPARISON_H_
#define PPLDA_CRYPTO_MPC_COMPARISON_H_

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/arith/field.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_masks.h"
#include "crypto/mpc/mpc_shares.h"

namespace pplda::crypto {

// [c[e] < r[e]] for public c[e] in [0, 2^m) and shared bits
// bits[e * m + i] of r[e] (bit i has weight 2^i).
absl::StatusOr<Shares> BitLessThan(MpcEngine& engine, absl::Span<const uint128> c,
                                   const Shares& bits, int m);

// Masks needed by Mod2m(x, k, m) for `count` elements.
MaskSpec Mod2mMaskSpec(const MpcConfig& config, size_t count, int k, int m);
absl::StatusOr<Shares> Mod2m(MpcEngine& engine, const Shares& x, int k, int m,
                             const MaskBatch& masks);
absl::StatusOr<Shares> Mod2m(MpcEngine& engine, const Shares& x, int k, int m);

// [a[e] < b[e]].
MaskSpec LessThanMaskSpec(const MpcConfig& config, size_t count, int bits);
absl::StatusOr<Shares> LessThan(MpcEngine& engine, const Shares& a, const Shares& b,
                                int bits, const MaskBatch& masks);
absl::StatusOr<Shares> LessThan(MpcEngine& engine, const Shares& a, const Shares& b,
                                int bits);

// [a[e] == b[e]].
MaskSpec EqualMaskSpec(const MpcConfig& config, size_t count, int bits);
absl::StatusOr<Shares> Equal(MpcEngine& engine, const Shares& a, const Shares& b, int bits,
                             const MaskBatch& masks);
absl::StatusOr<Shares> Equal(MpcEngine& engine, const Shares& a, const Shares& b, int bits);

// [a[e] < b[e]] for 0 <= a, b < (p-1)/2 = 2^126 - 1.
MaskSpec FullRangeMaskSpec(size_t count);
absl::StatusOr<Shares> LessThanFullRange(MpcEngine& engine, const Shares& a,
                                         const Shares& b, const MaskBatch& masks);
absl::StatusOr<Shares> LessThanFullRange(MpcEngine& engine, const Shares& a,
                                         const Shares& b);

// OK if `masks` was generated from `want` (count, bit counts, kept bits).
absl::Status CheckMasks(const MaskBatch& masks, const MaskSpec& want, std::string_view op);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_COMPARISON_H_
