// Fixed-point reciprocal of shared positive integers: y ~ 2^f / x for x in
// [1, 2^k), with relative error |y - 2^f/x| / (2^f/x) <= 2^-20 (proven
// below, tested exhaustively for k = 12 and on edges and random inputs for
// k up to 40). Used for the per-topic normalisers 1/(n_k + V beta) of
// DESIGN.md section 4 (secure-distributed-lda paper, section 3.5, replaces
// its exact secure inverse by a bounded-error fixed-point one).
//
// Algorithm (batched over all inputs; P = working precision, see below):
//  1. Normalise: b_j = [x >= 2^j] for j = 1..k-1 by batched LessThan;
//     v = sum_j (b_j - b_{j+1}) 2^(k-1-j) = 2^(k-1-msb(x)) (b_0 = 1,
//     b_k = 0, linear in the b_j); x v is in [2^(k-1), 2^k), so
//     a = x v / 2^k is in [1/2, 1), held as A = x v 2^(P-k) (exact).
//     With s = P - k >= 1 spare bits, the same batch also compares
//     c_j = [x >= 3 2^(j-1)], which makes h = [a >= 3/4] and h v linear in
//     the bits (reciprocal.cc, UpperQuarterOf), and x h v is computed in the
//     round of x v.
//  2. Initial guess. With s >= 1: the piecewise-linear minimax guess
//     y0 = c_h - d_h a on [1/2, 3/4) and [3/4, 1), slopes with at most s
//     binary digits (so d_h A is an integer combination of x v, x h v):
//       s >= 3: d = 21/8, 11/8, c = 3.274144230, 2.361262075, |e0| <= 0.020955;
//       s = 1, 2: d = 5/2, 3/2, c = 3.200877125, 2.477225575, |e0| <= 0.024562
//     (e0 = 1 - a y0; the bounds are the maxima over each interval's ends
//     and vertex). With s = 0: Catrina and Saxena's y0 = 2.9142 - 2a (FC
//     2010), |e0| <= 0.0858.
//  3. Goldschmidt steps y <- y (1 + e), e <- e^2 (the two products of a step
//     run in the same round), each product rescaled by TruncPr: two steps
//     after the piecewise guess (exact residual e0^4 <= 2^-22.3 or
//     2^-21.39), three after Catrina-Saxena's (e0^8 <= 2.95e-9).
//  4. Output y = v Y 2^(f-k-P), by one product and, if f < k + P, one
//     TruncPr by k + P - f bits.
//
// Error bound. Write rho_i = 1 - a y_i for the computed y_i and
// d_i = e_i - rho_i for the drift of the computed e_i. Each TruncPr adds an
// error of magnitude < 2^-P. Then rho_{i+1} = rho_i^2 + d_i (rho_i - 1)
// - a delta_i and d_{i+1} = d_i (1 + rho_i + d_i) + eps_i + a delta_i with
// |delta_i|, |eps_i| < 2^-P (and |rho_0| <= |e0| + 2^-(P+1) from the
// rounded constants), so |d_0| < 2^-P, |d_1| < 3.1 2^-P, |d_2| < 5.2 2^-P.
// Two steps from |e0| <= 0.024562: |rho_1| < 6.04e-4 + 2.1 2^-P,
//   |rho_2| < 3.65e-7 + 4.2 2^-P < 2^-21.38 for P >= 36 (2^-22.3 with
//   the eighths' 0.020955).
// Three steps from 0.0858: |rho_1| < 0.00737 + 2.2 2^-P,
//   |rho_2| < 5.44e-5 + 4.2 2^-P, |rho_3| < 2.96e-9 + 6.3 2^-P < 2^-28.
// Since 1/x = v / (2^k a), y = 2^f v y_last / 2^k has relative error
// |rho_last| before step 4's truncation, which adds an absolute error < 1,
// i.e. a relative error < x / 2^f < 2^(k-f). With f >= k + 21:
//   relative error < 2^-21.38 + 2^-21 < 0.89 2^-20 (and < 2^-28 + 2^-21
//   with three steps) < 2^-20.
//
// Field budget: the largest truncated product is Y (2^P + E) < 2^(2P+3)
// (y0 < 2 on every piece), so 2P + 3 <= max_masked_bits():
// P = min(40, (max_masked_bits() - 3) / 2) (40 for t = 1 and sigma = 40).
// Requirements: 1 <= k <= P, P >= 36, k + 21 <= f <= 120. Errors:
// InvalidArgument naming k, f or P.
//
// Cost for any batch: MpcConfig::mask_rounds() rounds of masks, 1 + ceil(log2 k) rounds of
// comparison and 9 rounds of products and truncations with s >= 1 (11
// with s = 0; one less each when f >= k + P: no final truncation); per
// input 2(k-1) comparisons of k bits, 7 multiplications and 5 truncations
// (s >= 1), or k-1 comparisons, 8 multiplications and 7 truncations.
// Input range is not checkable on secrets: x = 0 or x >= 2^k give
// meaningless results.
#ifndef PPLDA_CRYPTO_MPC_RECIPROCAL_H_
#define PPLDA_CRYPTO_MPC_RECIPROCAL_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crypto/mpc/mpc_config.h"
#include "crypto/mpc/mpc_engine.h"
#include "crypto/mpc/mpc_masks.h"
#include "crypto/mpc/mpc_shares.h"

namespace pplda::crypto {

// The bound proven above, as a number: 2^-20.
inline constexpr double kReciprocalRelativeErrorBound = 1.0 / (1 << 20);

// Working precision P for the config, or InvalidArgument if the field
// budget leaves less than 36 bits.
absl::StatusOr<int> ReciprocalPrecision(const MpcConfig& config);

// y[i] ~ 2^f / x[i] for x[i] in [1, 2^k).
absl::StatusOr<Shares> Reciprocal(MpcEngine& engine, const Shares& x, int k, int f);

// The masks Reciprocal needs for `count` inputs, so that a caller can make
// them in the same GenerateMasks call as other masks (one round in all),
// and Reciprocal with those masks (InvalidArgument if they do not match).
absl::StatusOr<std::vector<MaskSpec>> ReciprocalMaskSpecs(const MpcConfig& config, size_t count,
                                                          int k, int f);
absl::StatusOr<Shares> Reciprocal(MpcEngine& engine, const Shares& x, int k, int f,
                                  absl::Span<const MaskBatch> masks);

}  // namespace pplda::crypto

#endif  // PPLDA_CRYPTO_MPC_RECIPROCAL_H_
